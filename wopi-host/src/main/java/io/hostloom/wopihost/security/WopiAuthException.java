package io.hostloom.wopihost.security;

/** A WOPI request that may not proceed; carries the HTTP status to answer with. */
public final class WopiAuthException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  private WopiAuthException(int status, String message) {
    super(message, null, false, false); // an expected rejection: no stack trace
    this.status = status;
  }

  public int status() {
    return status;
  }

  public static WopiAuthException unauthorized(String message) {
    return new WopiAuthException(401, message);
  }

  static WopiAuthException gone(String message) {
    return new WopiAuthException(404, message);
  }

  static WopiAuthException proofFailed(String message) {
    return new WopiAuthException(500, message);
  }
}
