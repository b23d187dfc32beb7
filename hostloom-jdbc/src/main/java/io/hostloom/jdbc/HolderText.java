package io.hostloom.jdbc;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An owner and its data as the one text column of a foreign lock table ({@code locked_by} of
 * ShedLock's {@code shedlock}, {@code CLIENT_ID} of Spring Integration's {@code INT_LOCK}), which
 * the old library fills with its own holder string (a host name, a client UUID).
 *
 * <ul>
 *   <li>A kernel owner token (32 lowercase hex digits) with no data is stored as a UUID ({@code
 *       8-4-4-4-12}, 36 characters): it fits {@code CHAR(36)} and needs no padding.
 *   <li>Anything else is stored as {@code ~<owner length>~<owner><data>~}: the closing {@code ~}
 *       keeps trailing spaces of the data apart from a {@code CHAR(n)} column's padding. The column
 *       must be wide enough, or the database refuses the write.
 *   <li>Any other text read back (the old library's holder) is that holder's owner as is, with no
 *       data; a UUID reads back as its 32 hex digits.
 * </ul>
 */
final class HolderText {
  private static final Pattern TOKEN = Pattern.compile("[0-9a-f]{32}");
  private static final Pattern UUID_FORM =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

  private HolderText() {}

  /** The decoded owner and data of a row. */
  record Holder(String owner, String data) {}

  static String encode(String owner, String data) {
    if (data.isEmpty() && TOKEN.matcher(owner).matches()) {
      return owner.substring(0, 8)
          + '-'
          + owner.substring(8, 12)
          + '-'
          + owner.substring(12, 16)
          + '-'
          + owner.substring(16, 20)
          + '-'
          + owner.substring(20);
    }
    return "~" + owner.length() + "~" + owner + data + "~";
  }

  /**
   * The holder stored as {@code text}; {@code null} (a column the old library left empty) is "".
   */
  static Holder decode(String text) {
    if (text == null) {
      return new Holder("", "");
    }
    String t = stripPadding(text);
    Optional<Holder> ours = decodeTagged(t);
    if (ours.isPresent()) {
      return ours.get();
    }
    if (UUID_FORM.matcher(t).matches()) {
      return new Holder(t.replace("-", ""), "");
    }
    return new Holder(t, "");
  }

  private static Optional<Holder> decodeTagged(String t) {
    if (t.length() < 4 || t.charAt(0) != '~' || t.charAt(t.length() - 1) != '~') {
      return Optional.empty();
    }
    int second = t.indexOf('~', 1);
    if (second < 2) {
      return Optional.empty();
    }
    int length;
    try {
      length = Integer.parseInt(t.substring(1, second));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    int ownerEnd = second + 1 + length;
    if (length < 1 || ownerEnd > t.length() - 1) {
      return Optional.empty();
    }
    return Optional.of(
        new Holder(t.substring(second + 1, ownerEnd), t.substring(ownerEnd, t.length() - 1)));
  }

  /** A {@code CHAR(n)} column pads with spaces; ours always end in a non-space. */
  private static String stripPadding(String t) {
    int end = t.length();
    while (end > 0 && t.charAt(end - 1) == ' ') {
      end--;
    }
    return t.substring(0, end);
  }
}
