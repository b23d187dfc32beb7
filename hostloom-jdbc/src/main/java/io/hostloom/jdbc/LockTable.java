package io.hostloom.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The schema and table that hold the lock rows, validated once so that no SQL text is ever built
 * from unchecked input.
 *
 * <p>Both names must match {@value #IDENTIFIER_PATTERN}: ASCII letters, digits and underscores, not
 * starting with a digit, at most 48 characters (so the derived sequence name stays within
 * PostgreSQL's 63-byte identifier limit). They are always used <em>quoted</em>, so they are
 * case-sensitive: {@code Locks} and {@code locks} are two tables. Reserved words are allowed.
 *
 * <p>The table's DDL is {@link #ddl()}; the same script ships as the class path resource {@value
 * #DDL_RESOURCE} with {@code ${schema}} and {@code ${table}} placeholders (Flyway syntax).
 */
public final class LockTable {
  /** The default schema. */
  public static final String DEFAULT_SCHEMA = "public";

  /** The default table. */
  public static final String DEFAULT_TABLE = "hostloom_locks";

  /** What a schema or table name must match. */
  public static final String IDENTIFIER_PATTERN = "[A-Za-z_][A-Za-z0-9_]{0,47}";

  /** The shipped DDL template (PostgreSQL). */
  public static final String DDL_RESOURCE = "/io/hostloom/jdbc/schema-postgresql.sql";

  /**
   * The shipped DDL template for MariaDB, with {@code ${table}} and {@code ${sequence}} standing
   * for the quoted (and, unless the schema is {@value #DEFAULT_SCHEMA}, qualified) names.
   */
  public static final String MARIADB_DDL_RESOURCE = "/io/hostloom/jdbc/schema-mariadb.sql";

  private static final Pattern IDENTIFIER = Pattern.compile(IDENTIFIER_PATTERN);
  private static final LockTable DEFAULT = new LockTable(DEFAULT_SCHEMA, DEFAULT_TABLE);

  private final String schema;
  private final String table;

  private LockTable(String schema, String table) {
    this.schema = checkIdentifier("schema", schema);
    this.table = checkIdentifier("table", table);
  }

  /**
   * The table {@code table} in schema {@code schema}.
   *
   * @throws IllegalArgumentException when a name does not match {@value #IDENTIFIER_PATTERN}
   * @throws NullPointerException when a name is null
   */
  public static LockTable of(String schema, String table) {
    return new LockTable(schema, table);
  }

  /** {@value #DEFAULT_SCHEMA}.{@value #DEFAULT_TABLE}. */
  public static LockTable defaults() {
    return DEFAULT;
  }

  public String schema() {
    return schema;
  }

  public String table() {
    return table;
  }

  /** The quoted, schema-qualified table name, e.g. {@code "public"."hostloom_locks"}. */
  public String qualifiedTable() {
    return quote(schema) + "." + quote(table);
  }

  /**
   * The quoted, schema-qualified fencing sequence, e.g. {@code
   * "public"."hostloom_locks_fence_seq"}.
   */
  public String qualifiedSequence() {
    return quote(schema) + "." + quote(table + "_fence_seq");
  }

  /**
   * The LISTEN/NOTIFY channel released keys are announced on: {@code hostloom_} and 16 hex digits
   * of the SHA-256 of {@link #qualifiedTable()}, so tables of the same name in different schemas
   * never share a channel.
   */
  public String notificationChannel() {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(qualifiedTable().getBytes(StandardCharsets.UTF_8));
      return "hostloom_" + HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** The DDL script for this table: {@value #DDL_RESOURCE} with its placeholders filled in. */
  public String ddl() {
    return PostgresDialect.ddl(this);
  }

  /**
   * The DDL script of this table for {@code dialect}: {@link #ddl()} for PostgreSQL; for MariaDB
   * {@value #MARIADB_DDL_RESOURCE} filled in, where the default schema {@value #DEFAULT_SCHEMA}
   * means the connection's database (the names stay unqualified).
   */
  public String ddl(SqlDialect dialect) {
    return switch (dialect) {
      case POSTGRESQL -> PostgresDialect.ddl(this);
      case MARIADB -> MariaDbDialect.ddl(this);
    };
  }

  /** {@link #ddl()} as single statements, comments removed, for executing one by one. */
  List<String> ddlStatements() {
    return statements(ddl());
  }

  /**
   * {@link #ddl(SqlDialect)} as single statements, comments removed, for executing one by one (JDBC
   * drivers run one statement per execute).
   */
  public List<String> ddlStatements(SqlDialect dialect) {
    return statements(ddl(dialect));
  }

  /**
   * A DDL script as single statements, comments removed. A ';' does not end a statement inside a
   * dollar-quoted body ({@code $$ ... $$}, PostgreSQL) nor inside a MariaDB routine, which runs
   * from a line starting {@code CREATE OR REPLACE PROCEDURE} to a line that is exactly {@code
   * END;}.
   */
  static List<String> statements(String script) {
    StringBuilder sql = new StringBuilder();
    boolean routine = false;
    for (String line : script.lines().toList()) {
      if (line.strip().startsWith("--")) {
        continue;
      }
      if (line.startsWith("CREATE OR REPLACE PROCEDURE")) {
        routine = true;
      }
      if (routine && line.equals("END;")) {
        routine = false;
        sql.append("END;\n");
      } else {
        sql.append(routine ? line.replace(';', ROUTINE_SEMICOLON) : line).append('\n');
      }
    }
    // a ';' inside a dollar-quoted function body ($$ ... $$) does not end the statement
    List<String> statements = new ArrayList<>();
    String[] parts = sql.toString().split("\\$\\$", -1);
    StringBuilder statement = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      if (i % 2 == 1) {
        statement.append("$$").append(parts[i]).append("$$");
        continue;
      }
      String[] pieces = parts[i].split(";", -1);
      for (int j = 0; j < pieces.length; j++) {
        statement.append(pieces[j]);
        if (j < pieces.length - 1) {
          add(statements, statement);
        }
      }
    }
    add(statements, statement);
    return statements;
  }

  private static final char ROUTINE_SEMICOLON = '\u0002';

  private static void add(List<String> statements, StringBuilder statement) {
    if (!statement.toString().isBlank()) {
      statements.add(statement.toString().strip().replace(ROUTINE_SEMICOLON, ';'));
    }
    statement.setLength(0);
  }

  /** The text of a shipped class path resource (a DDL template). */
  static String resource(String resource) {
    try (InputStream in = LockTable.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing class path resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  private static String quote(String identifier) {
    return '"' + identifier + '"'; // safe: validated against IDENTIFIER, so no quote inside
  }

  static String checkIdentifier(String what, String name) {
    Objects.requireNonNull(name, what);
    if (!IDENTIFIER.matcher(name).matches()) {
      String shown = name.length() > 80 ? name.substring(0, 80) + "..." : name;
      throw new IllegalArgumentException(
          what
              + " must be a plain identifier matching "
              + IDENTIFIER_PATTERN
              + " (ASCII letters, digits, underscore; not starting with a digit; 1 to 48"
              + " characters) but was \""
              + shown
              + "\"");
    }
    return name;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockTable other && other.schema.equals(schema) && other.table.equals(table);
  }

  @Override
  public int hashCode() {
    return Objects.hash(schema, table);
  }

  @Override
  public String toString() {
    return qualifiedTable();
  }
}
