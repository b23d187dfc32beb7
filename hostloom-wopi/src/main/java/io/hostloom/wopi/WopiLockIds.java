package io.hostloom.wopi;

/**
 * The rules for WOPI lock ids: 1 to {@value #MAX_LENGTH} characters of printable ASCII ({@code
 * 0x20}–{@code 0x7E}), the extended lock length a host announces with {@code
 * SupportsExtendedLockLength=true}. Lock ids are otherwise opaque: no trimming, no case folding.
 *
 * <p>Error messages name the rule that was broken, the length and the first offending position,
 * never the lock id itself (lock ids are the WOPI client's ownership tokens).
 */
public final class WopiLockIds {
  /** The longest lock id, in characters. */
  public static final int MAX_LENGTH = 1024;

  private WopiLockIds() {}

  /** Whether {@code lockId} is a valid lock id; {@code false} for {@code null}. */
  public static boolean isValid(String lockId) {
    return problem(lockId) == null;
  }

  /**
   * Returns {@code lockId} when valid.
   *
   * @param name what the value is, for the message (e.g. {@code "expectedLockId"})
   * @throws IllegalArgumentException when it is null, empty, longer than {@value #MAX_LENGTH} or
   *     contains a character outside printable ASCII
   */
  public static String requireValid(String lockId, String name) {
    String problem = problem(lockId);
    if (problem != null) {
      throw new IllegalArgumentException(
          name
              + " must be 1 to "
              + MAX_LENGTH
              + " printable ASCII characters (0x20-0x7E) but "
              + problem);
    }
    return lockId;
  }

  /** What is wrong with {@code lockId}, phrased to follow "but", or null when it is valid. */
  static String problem(String lockId) {
    if (lockId == null) {
      return "was null";
    }
    if (lockId.isEmpty()) {
      return "was empty";
    }
    if (lockId.length() > MAX_LENGTH) {
      return "had " + lockId.length() + " characters";
    }
    for (int i = 0; i < lockId.length(); i++) {
      char c = lockId.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        return String.format("had U+%04X at index %d", (int) c, i);
      }
    }
    return null;
  }
}
