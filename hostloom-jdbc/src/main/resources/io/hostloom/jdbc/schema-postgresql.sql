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
