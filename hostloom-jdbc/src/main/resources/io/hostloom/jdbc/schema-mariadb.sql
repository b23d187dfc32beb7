-- HostLoom lock table for MariaDB 10.5 or later (tested on 10.11), InnoDB.
--
-- ${table} and ${sequence} are placeholders for the quoted table and sequence names, e.g.
-- `hostloom_locks` and `hostloom_locks_fence_seq` (or `mydb`.`hostloom_locks` with a schema):
-- LockTable.ddl(SqlDialect.MARIADB) fills them in.
--
-- One row per key that was granted or asked about (an ended row has expires_at = 1000-01-01,
-- acquired_at = the release time; purgeExpired removes ended rows). A row whose expires_at is at or
-- before the server's UTC_TIMESTAMP(6) is expired: it never blocks a grant. utf8mb4_nopad_bin:
-- byte-wise, and trailing spaces count (the PAD SPACE collations would make 'a' equal 'a ').
CREATE TABLE IF NOT EXISTS ${table} (
  lock_key      VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL PRIMARY KEY,
  owner         MEDIUMTEXT   CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  data          MEDIUMTEXT   CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  fencing_token BIGINT       NOT NULL,
  acquired_at   DATETIME(6)  NOT NULL,
  expires_at    DATETIME(6)  NOT NULL
) ENGINE=InnoDB;

-- Fencing tokens come from this sequence, so they keep increasing after rows are deleted and
-- across restarts (a restart skips the values cached in memory, never goes back).
CREATE SEQUENCE IF NOT EXISTS ${sequence} ENGINE=InnoDB;

-- Native semaphores and reader-writer locks (JdbcLockBackend's permit and reader-writer views).
-- ${view_keys}, ${view_entries}, ${view_acquire} and ${view_extend} stand for the table's name
-- with the suffixes _view_keys, _view_entries, _view_acquire and _view_extend.
-- One row per view key: its token counter, never reset (every grant of the key takes a larger
-- token, over reads, writes and permits), and the row every grant locks first, so that grants of
-- one key are decided one after another. view_kind: 'r' reader-writer lock, 'p' semaphore.
CREATE TABLE IF NOT EXISTS ${view_keys} (
  view_kind     CHAR(1)      CHARACTER SET ascii NOT NULL,
  view_key      VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  last_token    BIGINT       NOT NULL,
  PRIMARY KEY (view_kind, view_key)
) ENGINE=InnoDB;

-- One row per entry: role 'r' a reader, 'w' the writer (fencing_token 0 while waiting), 'p' a
-- permit (permits: the count it was granted with); owner_hash = SHA-256 of the owner, so a long
-- owner fits the primary key. An entry whose expires_at is at or before UTC_TIMESTAMP(6) is
-- expired: never counted, deleted by the key's next grant.
CREATE TABLE IF NOT EXISTS ${view_entries} (
  view_key      VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  role          CHAR(1)      CHARACTER SET ascii NOT NULL,
  owner_hash    BINARY(32)   NOT NULL,
  owner         MEDIUMTEXT   CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  data          MEDIUMTEXT   CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
  fencing_token BIGINT       NOT NULL,
  permits       INT          NOT NULL,
  expires_at    DATETIME(6)  NOT NULL,
  PRIMARY KEY (view_key, role, owner_hash)
) ENGINE=InnoDB;

-- A view's acquire: one CALL, one round trip, one transaction. p_role 'r' read, 'w' write, 'p'
-- permit; p_max the most readers, or the permit count. It locks the key's row first, then reads
-- the key's entries with locking reads (the latest committed rows, and a concurrent release or
-- extend waits until this commits). The rules are the SPI's (ReadWriteLeases, PermitLeases).
-- Answer: granted, then the granted token or the refusing entry's owner, data, token, micros left.
CREATE OR REPLACE PROCEDURE ${view_acquire}(
  p_role CHAR(1) CHARACTER SET ascii,
  p_key VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  p_owner MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  p_data MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  p_lease_us BIGINT, p_max INT)
BEGIN
  DECLARE v_now DATETIME(6);
  DECLARE v_expires DATETIME(6);
  DECLARE v_hash BINARY(32);
  DECLARE v_kind CHAR(1) CHARACTER SET ascii;
  DECLARE v_last BIGINT;
  DECLARE v_token BIGINT DEFAULT NULL;
  DECLARE v_count INT;
  DECLARE v_other INT;
  DECLARE v_slot INT DEFAULT 0;
  DECLARE v_r_owner MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
  DECLARE v_r_data MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
  DECLARE v_r_token BIGINT;
  DECLARE v_r_expires DATETIME(6);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  SET v_now = UTC_TIMESTAMP(6);
  SET v_expires = v_now + INTERVAL p_lease_us MICROSECOND;
  SET v_hash = UNHEX(SHA2(p_owner, 256));
  SET v_kind = IF(p_role = 'p', 'p', 'r');
  START TRANSACTION;
  INSERT INTO ${view_keys} (view_kind, view_key, last_token)
  VALUES (v_kind, p_key, NEXTVAL(${sequence}))
  ON DUPLICATE KEY UPDATE last_token = last_token;
  SELECT last_token INTO v_last FROM ${view_keys}
  WHERE view_kind = v_kind AND view_key = p_key FOR UPDATE;
  DELETE FROM ${view_entries}
  WHERE view_key = p_key AND (role = 'p') = (v_kind = 'p') AND expires_at <= v_now;
  SELECT MAX(fencing_token) INTO v_token FROM ${view_entries}
  WHERE view_key = p_key AND role = p_role AND owner_hash = v_hash AND fencing_token <> 0
  FOR UPDATE;
  IF v_token IS NOT NULL THEN
    UPDATE ${view_entries} SET expires_at = v_expires
    WHERE view_key = p_key AND role = p_role AND owner_hash = v_hash;
    COMMIT;
    SELECT 1, p_owner, p_data, v_token, 0;
  ELSE
    IF p_role = 'p' THEN
      SELECT COUNT(*), COALESCE(SUM(permits <> p_max), 0) INTO v_count, v_other
      FROM ${view_entries} WHERE view_key = p_key AND role = 'p' FOR UPDATE;
      IF v_count < p_max AND v_other = 0 THEN
        WHILE EXISTS (SELECT 1 FROM ${view_entries} WHERE view_key = p_key AND role = 'p'
                      AND MOD(fencing_token, p_max) = v_slot) DO
          SET v_slot = v_slot + 1;
        END WHILE;
        SET v_token = v_last + 1 + MOD(MOD(v_slot - (v_last + 1), p_max) + p_max, p_max);
        INSERT INTO ${view_entries}
          (view_key, role, owner_hash, owner, data, fencing_token, permits, expires_at)
        VALUES (p_key, 'p', v_hash, p_owner, p_data, v_token, p_max, v_expires);
      END IF;
    ELSEIF p_role = 'r' THEN
      SELECT COUNT(*) INTO v_other FROM ${view_entries}
      WHERE view_key = p_key AND role = 'w' FOR UPDATE;
      IF v_other = 0 THEN
        SELECT COUNT(*) INTO v_count FROM ${view_entries}
        WHERE view_key = p_key AND role = 'r' FOR UPDATE;
        IF v_count < p_max THEN
          SET v_token = v_last + 1;
          INSERT INTO ${view_entries}
            (view_key, role, owner_hash, owner, data, fencing_token, permits, expires_at)
          VALUES (p_key, 'r', v_hash, p_owner, p_data, v_token, 0, v_expires);
        END IF;
      END IF;
    ELSE
      SELECT COUNT(*) INTO v_other FROM ${view_entries}
      WHERE view_key = p_key AND role = 'w' AND owner_hash <> v_hash FOR UPDATE;
      IF v_other = 0 THEN
        SELECT COUNT(*) INTO v_count FROM ${view_entries}
        WHERE view_key = p_key AND role = 'r' FOR UPDATE;
        IF v_count = 0 THEN
          SET v_token = v_last + 1;
        END IF;
        -- readers live: the owner's entry waits (token 0), and no reader is granted meanwhile
        INSERT INTO ${view_entries}
          (view_key, role, owner_hash, owner, data, fencing_token, permits, expires_at)
        VALUES (p_key, 'w', v_hash, p_owner, p_data, COALESCE(v_token, 0), 0, v_expires)
        ON DUPLICATE KEY UPDATE data = VALUES(data), fencing_token = VALUES(fencing_token),
          expires_at = VALUES(expires_at);
      END IF;
    END IF;
    IF v_token IS NOT NULL THEN
      UPDATE ${view_keys} SET last_token = v_token WHERE view_kind = v_kind AND view_key = p_key;
      COMMIT;
      SELECT 1, p_owner, p_data, v_token, 0;
    ELSE
      -- refused: the writer entry of a reader-writer key, else the entry that expires first
      SELECT owner, data, fencing_token, expires_at
      INTO v_r_owner, v_r_data, v_r_token, v_r_expires
      FROM ${view_entries}
      WHERE view_key = p_key AND (role = 'p') = (v_kind = 'p')
        AND NOT (p_role = 'w' AND role = 'w' AND owner_hash = v_hash)
      ORDER BY role = 'w' DESC, expires_at, owner LIMIT 1;
      COMMIT;
      SELECT 0, v_r_owner, v_r_data, v_r_token,
        TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), v_r_expires);
    END IF;
  END IF;
END;

-- A view's extend: the owner's live entry (a holding one for the writer) gets expiry now + lease.
-- One CALL, one round trip; answers 1 when extended, 0 when there was none.
CREATE OR REPLACE PROCEDURE ${view_extend}(
  p_role CHAR(1) CHARACTER SET ascii,
  p_key VARCHAR(512) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  p_owner MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin,
  p_lease_us BIGINT)
BEGIN
  DECLARE v_now DATETIME(6);
  DECLARE v_hash BINARY(32);
  DECLARE v_count INT;
  DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
  SET v_now = UTC_TIMESTAMP(6);
  SET v_hash = UNHEX(SHA2(p_owner, 256));
  START TRANSACTION;
  SELECT COUNT(*) INTO v_count FROM ${view_entries}
  WHERE view_key = p_key AND role = p_role AND owner_hash = v_hash AND expires_at > v_now
    AND fencing_token <> 0 FOR UPDATE;
  UPDATE ${view_entries} SET expires_at = v_now + INTERVAL p_lease_us MICROSECOND
  WHERE view_key = p_key AND role = p_role AND owner_hash = v_hash AND expires_at > v_now
    AND fencing_token <> 0;
  COMMIT;
  SELECT v_count;
END;
