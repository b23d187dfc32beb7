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
