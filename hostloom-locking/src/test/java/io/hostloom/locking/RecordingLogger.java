package io.hostloom.locking;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** An slf4j logger that keeps every formatted line as {@code LEVEL message}; all levels on. */
final class RecordingLogger extends AbstractLogger {
  private static final long serialVersionUID = 1L;

  private final transient List<String> lines = new ArrayList<>();
  private final transient List<Throwable> throwables = new ArrayList<>();

  RecordingLogger() {
    this.name = "recording";
  }

  synchronized List<String> lines() {
    return List.copyOf(lines);
  }

  synchronized List<String> containing(String text) {
    return lines.stream().filter(l -> l.contains(text)).toList();
  }

  synchronized List<Throwable> throwables() {
    return List.copyOf(throwables);
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected synchronized void handleNormalizedLoggingCall(
      Level level, Marker marker, String pattern, Object[] args, Throwable t) {
    lines.add(level + " " + MessageFormatter.basicArrayFormat(pattern, args));
    if (t != null) {
      throwables.add(t);
    }
  }

  @Override
  public boolean isTraceEnabled() {
    return true;
  }

  @Override
  public boolean isTraceEnabled(Marker marker) {
    return true;
  }

  @Override
  public boolean isDebugEnabled() {
    return true;
  }

  @Override
  public boolean isDebugEnabled(Marker marker) {
    return true;
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public boolean isInfoEnabled(Marker marker) {
    return true;
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public boolean isWarnEnabled(Marker marker) {
    return true;
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }

  @Override
  public boolean isErrorEnabled(Marker marker) {
    return true;
  }
}
