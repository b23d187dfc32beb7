package io.hostloom.jdbc;

import java.util.List;
import java.util.function.Function;

/**
 * Where a foreign lock table keeps a lease: the table, the columns naming the lock (with the values
 * a backend key maps to), and the three columns of a lease (holder text, grant time, expiry).
 *
 * @param table the table name, as written in SQL
 * @param keyColumns the columns of the table's primary key
 * @param keyValues the values of {@code keyColumns} for a backend key (same order); throws {@link
 *     IllegalArgumentException} for a key the layout cannot name
 * @param holder the holder column ({@link HolderText})
 * @param grantedAt the grant time column ({@code TIMESTAMP}, UTC): the fencing token
 * @param expiresAt the expiry column ({@code TIMESTAMP}, UTC)
 */
record RowLayout(
    String table,
    List<String> keyColumns,
    Function<String, List<String>> keyValues,
    String holder,
    String grantedAt,
    String expiresAt) {}
