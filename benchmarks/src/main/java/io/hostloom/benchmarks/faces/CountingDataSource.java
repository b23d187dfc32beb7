package io.hostloom.benchmarks.faces;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Wraps a pool and counts what reaches the server: statement executions, commits and rollbacks
 * (each one round trip; a pooled connection's own validation inside the pool is not seen).
 */
final class CountingDataSource implements DataSource {
  private final DataSource delegate;
  private final AtomicLong roundTrips = new AtomicLong();

  CountingDataSource(DataSource delegate) {
    this.delegate = delegate;
  }

  long count() {
    return roundTrips.get();
  }

  @Override
  public Connection getConnection() throws SQLException {
    return wrap(delegate.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return wrap(delegate.getConnection(username, password));
  }

  private Connection wrap(Connection c) {
    return (Connection)
        Proxy.newProxyInstance(
            Connection.class.getClassLoader(),
            new Class<?>[] {Connection.class},
            handler(
                c,
                (m, result) -> {
                  if (m.getName().equals("commit") || m.getName().equals("rollback")) {
                    roundTrips.incrementAndGet();
                  }
                  return result instanceof Statement s ? wrapStatement(s) : result;
                }));
  }

  private Object wrapStatement(Statement s) {
    Class<?>[] types =
        s instanceof java.sql.CallableStatement
            ? new Class<?>[] {java.sql.CallableStatement.class}
            : s instanceof java.sql.PreparedStatement
                ? new Class<?>[] {java.sql.PreparedStatement.class}
                : new Class<?>[] {Statement.class};
    return Proxy.newProxyInstance(
        Statement.class.getClassLoader(),
        types,
        handler(
            s,
            (m, result) -> {
              if (m.getName().startsWith("execute")) {
                roundTrips.incrementAndGet();
              }
              return result;
            }));
  }

  private interface After {
    Object apply(Method m, Object result);
  }

  private static InvocationHandler handler(Object target, After after) {
    return (proxy, m, args) -> {
      if (m.getName().equals("unwrap")
          && args != null
          && args[0] instanceof Class<?> c
          && c.isInstance(target)) {
        return target;
      }
      Object result;
      try {
        result = m.invoke(target, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
      return after.apply(m, result);
    };
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return delegate.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    delegate.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    delegate.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return delegate.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return delegate.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(delegate) ? iface.cast(delegate) : delegate.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(delegate) || delegate.isWrapperFor(iface);
  }
}
