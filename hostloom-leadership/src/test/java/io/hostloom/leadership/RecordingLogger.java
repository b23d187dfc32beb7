package io.hostloom.leadership;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** Keeps every log line as "LEVEL message" so tests can count event ids. */
final class RecordingLogger extends LegacyAbstractLogger {
  private static final long serialVersionUID = 1L;
  final List<String> lines = new CopyOnWriteArrayList<>();

  RecordingLogger() {
    this.name = "recording";
  }

  long count(String eventId) {
    return lines.stream().filter(l -> l.contains("[" + eventId + "]")).count();
  }

  long count(Level level, String eventId) {
    return lines.stream()
        .filter(l -> l.startsWith(level + " ") && l.contains("[" + eventId + "]"))
        .count();
  }

  @Override
  protected String getFullyQualifiedCallerName() {
    return null;
  }

  @Override
  protected void handleNormalizedLoggingCall(
      Level level, Marker marker, String msg, Object[] args, Throwable throwable) {
    lines.add(level + " " + MessageFormatter.basicArrayFormat(msg, args));
  }

  @Override
  public boolean isTraceEnabled() {
    return true;
  }

  @Override
  public boolean isDebugEnabled() {
    return true;
  }

  @Override
  public boolean isInfoEnabled() {
    return true;
  }

  @Override
  public boolean isWarnEnabled() {
    return true;
  }

  @Override
  public boolean isErrorEnabled() {
    return true;
  }
}
