package io.hostloom.cli;

/** Bad input from the user: printed as one line on stderr, exit code {@link ExitCodes#USAGE}. */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }

  UsageException(String message, Throwable cause) {
    super(message, cause);
  }
}
