package io.hostloom.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} that counts, on the JDBC level, the connections borrowed and the statements
 * executed ({@code execute*} on any statement) through it. Each execute of a single statement is
 * one round trip in the PostgreSQL driver.
 */
final class CountingDataSource implements DataSource {
  private final DataSource delegate;
  private final AtomicLong connections = new AtomicLong();
  private final AtomicLong executions = new AtomicLong();

  CountingDataSource(DataSource delegate) {
    this.delegate = delegate;
  }

  long connections() {
    return connections.get();
  }

  long executions() {
    return executions.get();
  }

  void reset() {
    connections.set(0);
    executions.set(0);
  }

  @Override
  public Connection getConnection() throws SQLException {
    Connection c = delegate.getConnection();
    connections.incrementAndGet();
    return proxy(Connection.class, c, this::wrapStatements);
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    throw new SQLFeatureNotSupportedException("not used by the backend");
  }

  private Object wrapStatements(Object result) {
    if (result instanceof PreparedStatement prepared) {
      return proxy(PreparedStatement.class, prepared, r -> r);
    }
    if (result instanceof Statement statement) {
      return proxy(Statement.class, statement, r -> r);
    }
    return result;
  }

  private <T> T proxy(Class<T> type, T target, java.util.function.UnaryOperator<Object> wrap) {
    InvocationHandler handler =
        (Object p, Method m, Object[] args) -> {
          if (m.getName().startsWith("execute")) {
            executions.incrementAndGet();
          }
          try {
            return wrap.apply(m.invoke(target, args));
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return type.cast(
        Proxy.newProxyInstance(
            CountingDataSource.class.getClassLoader(), new Class<?>[] {type}, handler));
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
    return delegate.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return delegate.isWrapperFor(iface);
  }
}
