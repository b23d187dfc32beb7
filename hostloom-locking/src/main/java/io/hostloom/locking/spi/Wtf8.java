package io.hostloom.locking.spi;

/**
 * The old name of {@link LosslessUtf8}.
 *
 * @deprecated use {@link LosslessUtf8}; kept for one release so that code written against the old
 *     name still compiles.
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public final class Wtf8 {
  private Wtf8() {}

  /** {@link LosslessUtf8#encode}. */
  public static byte[] encode(String s) {
    return LosslessUtf8.encode(s);
  }

  /** {@link LosslessUtf8#decode}. */
  public static String decode(byte[] bytes) {
    return LosslessUtf8.decode(bytes);
  }
}
