-- HostLoom lock table for PostgreSQL 12 or later (tested on 14).
--
-- ${schema} and ${table} are placeholders (Flyway syntax): replace them with the schema and table
-- names given to JdbcLockBackend (defaults: public, hostloom_locks). The names are used quoted, so
-- they are case-sensitive. The schema must exist. The database encoding must be UTF8.
--
-- One row per key that was granted (a released row is a tombstone: expires_at = '-infinity',
-- acquired_at = the release time; purgeExpired removes ended rows). A row whose expires_at is at or
-- before the database's STATEMENT_TIMESTAMP() is expired: it never blocks a grant.
CREATE TABLE IF NOT EXISTS "${schema}"."${table}" (
  lock_key      TEXT        COLLATE "C" PRIMARY KEY,
  owner         TEXT        NOT NULL,
  data          TEXT        NOT NULL,
  fencing_token BIGINT      NOT NULL,
  acquired_at   TIMESTAMPTZ NOT NULL,
  expires_at    TIMESTAMPTZ NOT NULL
);

-- Fencing tokens come from this sequence, so they keep increasing after rows are deleted.
CREATE SEQUENCE IF NOT EXISTS "${schema}"."${table}_fence_seq" AS BIGINT;

-- Native semaphores and reader-writer locks (JdbcLockBackend's permit and reader-writer views).
-- One row per view key: its token counter, never reset (every grant of the key takes a larger
-- token, over reads, writes and permits), and the row every grant locks first, so that grants of
-- one key are decided one after another. view_kind: 'r' reader-writer lock, 'p' semaphore.
CREATE TABLE IF NOT EXISTS "${schema}"."${table}_view_keys" (
  view_kind     CHAR(1)     NOT NULL,
  view_key      TEXT        COLLATE "C" NOT NULL,
  last_token    BIGINT      NOT NULL,
  PRIMARY KEY (view_kind, view_key)
);

-- One row per entry: role 'r' a reader, 'w' the writer (fencing_token 0 while waiting), 'p' a
-- permit (permits: the count it was granted with); owner_hash = SHA-256 of the owner, so a long
-- owner fits the primary key's index. An entry whose expires_at is at or before the
-- database's STATEMENT_TIMESTAMP() is expired: never counted, deleted by the key's next grant.
CREATE TABLE IF NOT EXISTS "${schema}"."${table}_view_entries" (
  view_key      TEXT        COLLATE "C" NOT NULL,
  role          CHAR(1)     NOT NULL,
  owner_hash    BYTEA       NOT NULL,
  owner         TEXT        NOT NULL,
  data          TEXT        NOT NULL,
  fencing_token BIGINT      NOT NULL,
  permits       INTEGER     NOT NULL,
  expires_at    TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (view_key, role, owner_hash)
);

-- A view's acquire: one call, one round trip. p_role 'r' read, 'w' write, 'p' permit; p_max the
-- most readers, or the permit count. It locks the key's row first; each statement of a VOLATILE
-- PL/pgSQL function takes a fresh snapshot, so what follows sees every grant committed before the
-- lock was had (one statement with CTEs would read its start's snapshot and could miss one). The
-- rules are the SPI's (ReadWriteLeases, PermitLeases). Answer: granted, then the granted token or
-- the refusing entry's owner, data, token and micros left.
CREATE OR REPLACE FUNCTION "${schema}"."${table}_view_acquire"(
  p_role CHAR, p_key TEXT, p_owner TEXT, p_data TEXT, p_lease_ms BIGINT, p_max INTEGER)
RETURNS TABLE (o_granted BOOLEAN, o_owner TEXT, o_data TEXT, o_token BIGINT, o_micros BIGINT)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_now TIMESTAMPTZ := STATEMENT_TIMESTAMP();
  v_expires TIMESTAMPTZ := STATEMENT_TIMESTAMP() + p_lease_ms * INTERVAL '1 millisecond';
  v_hash BYTEA := SHA256(CONVERT_TO(p_owner, 'UTF8'));
  v_kind CHAR := CASE WHEN p_role = 'p' THEN 'p' ELSE 'r' END;
  v_roles CHAR[] := CASE WHEN p_role = 'p' THEN ARRAY['p']::CHAR[] ELSE ARRAY['r', 'w']::CHAR[] END;
  v_last BIGINT;
  v_token BIGINT;
  v_count INTEGER;
  v_other BOOLEAN;
  v_slot INTEGER;
  v_e RECORD;
BEGIN
  SELECT k.last_token INTO v_last FROM "${schema}"."${table}_view_keys" AS k
  WHERE k.view_kind = v_kind AND k.view_key = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO "${schema}"."${table}_view_keys" (view_kind, view_key, last_token)
    VALUES (v_kind, p_key, NEXTVAL('"${schema}"."${table}_fence_seq"'))
    ON CONFLICT DO NOTHING;
    SELECT k.last_token INTO v_last FROM "${schema}"."${table}_view_keys" AS k
    WHERE k.view_kind = v_kind AND k.view_key = p_key FOR UPDATE;
  END IF;
  DELETE FROM "${schema}"."${table}_view_entries" AS e
  WHERE e.view_key = p_key AND e.role = ANY (v_roles) AND e.expires_at <= v_now;
  -- decided again when the entry that refused was released meanwhile (a release does not lock
  -- the key's row): only releases change the entries now, so this ends
  LOOP
    -- the owner's own live entry (a holding one for the writer): refreshed, token and data kept
    UPDATE "${schema}"."${table}_view_entries" AS e SET expires_at = v_expires
    WHERE e.view_key = p_key AND e.role = p_role AND e.owner_hash = v_hash AND e.fencing_token <> 0
    RETURNING e.fencing_token INTO v_token;
    IF FOUND THEN
      RETURN QUERY SELECT TRUE, p_owner, p_data, v_token, 0::BIGINT;
      RETURN;
    END IF;
    IF p_role = 'p' THEN
      SELECT COUNT(*), BOOL_OR(e.permits <> p_max) INTO v_count, v_other
      FROM "${schema}"."${table}_view_entries" AS e WHERE e.view_key = p_key AND e.role = 'p';
      IF v_count < p_max AND NOT COALESCE(v_other, FALSE) THEN
        SELECT MIN(s) INTO v_slot FROM GENERATE_SERIES(0, p_max - 1) AS s
        WHERE s NOT IN (SELECT e.fencing_token % p_max FROM "${schema}"."${table}_view_entries" AS e
                        WHERE e.view_key = p_key AND e.role = 'p');
        v_token := v_last + 1 + (((v_slot - (v_last + 1)) % p_max) + p_max) % p_max;
        INSERT INTO "${schema}"."${table}_view_entries" AS e
          (view_key, role, owner_hash, owner, data, fencing_token, permits, expires_at)
        VALUES (p_key, 'p', v_hash, p_owner, p_data, v_token, p_max, v_expires);
      END IF;
    ELSIF p_role = 'r' THEN
      PERFORM 1 FROM "${schema}"."${table}_view_entries" AS e WHERE e.view_key = p_key AND e.role = 'w';
      IF NOT FOUND THEN
        SELECT COUNT(*) INTO v_count FROM "${schema}"."${table}_view_entries" AS e
        WHERE e.view_key = p_key AND e.role = 'r';
        IF v_count < p_max THEN
          v_token := v_last + 1;
          INSERT INTO "${schema}"."${table}_view_entries" AS e
            (view_key, role, owner_hash, owner, data, fencing_token, permits, expires_at)
          VALUES (p_key, 'r', v_hash, p_owner, p_data, v_token, 0, v_expires);
        END IF;
      END IF;
    ELSE
      PERFORM 1 FROM "${schema}"."${table}_view_entries" AS e
      WHERE e.view_key = p_key AND e.role = 'w' AND e.owner_hash <> v_hash;
      IF NOT FOUND THEN
        PERFORM 1 FROM "${schema}"."${table}_view_entries" AS e WHERE e.view_key = p_key AND e.role = 'r';
        v_other := FOUND;
        IF NOT v_other THEN
          v_token := v_last + 1;
        END IF;
        -- readers live: the owner's entry waits (token 0), and no reader is granted meanwhile
        INSERT INTO "${schema}"."${table}_view_entries" AS e
          (view_key, role, owner_hash, owner, data, fencing_token, permits, expires_at)
        VALUES (p_key, 'w', v_hash, p_owner, p_data, COALESCE(v_token, 0), 0, v_expires)
        ON CONFLICT (view_key, role, owner_hash) DO UPDATE
          SET data = excluded.data, fencing_token = excluded.fencing_token,
            expires_at = excluded.expires_at;
      END IF;
    END IF;
    IF v_token IS NOT NULL THEN
      UPDATE "${schema}"."${table}_view_keys" AS k SET last_token = v_token
      WHERE k.view_kind = v_kind AND k.view_key = p_key;
      RETURN QUERY SELECT TRUE, p_owner, p_data, v_token, 0::BIGINT;
      RETURN;
    END IF;
    -- refused: the writer entry (holding or waiting) of a reader-writer key, else the entry that
    -- expires first; time left measured now, not at the start (a call that waited for the lock
    -- must not overstate it)
    RETURN QUERY SELECT FALSE, e.owner, e.data, e.fencing_token,
      ((EXTRACT(EPOCH FROM e.expires_at) - EXTRACT(EPOCH FROM CLOCK_TIMESTAMP())) * 1000000)::BIGINT
    FROM "${schema}"."${table}_view_entries" AS e
    WHERE e.view_key = p_key AND e.role = ANY (v_roles)
      AND NOT (p_role = 'w' AND e.role = 'w' AND e.owner_hash = v_hash)
    ORDER BY e.role = 'w' DESC, e.expires_at, e.owner LIMIT 1;
    IF FOUND THEN
      RETURN;
    END IF;
    v_token := NULL;
  END LOOP;
END
$$;
