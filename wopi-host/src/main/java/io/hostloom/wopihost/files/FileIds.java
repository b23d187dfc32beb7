package io.hostloom.wopihost.files;

import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The rules that keep a WOPI file id inside the documents folder. An id is the name of a regular
 * file directly in that folder: no separators, no {@code .}/{@code ..}, no leading dot (hidden
 * files and the host's own {@code .wopi} folder), no control characters, no {@code %} (so a
 * double-encoded {@code %252e%252e} can never turn into a traversal later), no {@code :} (drive
 * letters, NTFS streams), at most 200 characters and {@value #MAX_BYTES} bytes of UTF-8. Names that
 * mislead or break on other systems are refused too: invisible format characters (bidi controls
 * such as U+202E that show {@code exe.txt} for {@code txt.exe}, zero-width characters), unpaired
 * surrogates (not representable in UTF-8) and Windows device names ({@code CON}, {@code nul.txt},
 * {@code COM1}...). On top of that the resolved path is normalised and must be a direct child of
 * the root: two independent checks, either of which alone stops a traversal.
 */
public final class FileIds {
  /** Longest accepted id, in UTF-16 units; leaves room for suffixes within a 255-byte name. */
  public static final int MAX_LENGTH = 200;

  /**
   * Longest accepted id in UTF-8 bytes: file systems allow 255, and PutRelativeFile may append a
   * {@code " (999)"} suffix.
   */
  public static final int MAX_BYTES = 240;

  private static final Set<String> DEVICE_NAMES =
      Set.of("CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "CLOCK$");

  private FileIds() {}

  /** Whether {@code id} is a syntactically acceptable file id (says nothing about existence). */
  public static boolean isValid(String id) {
    if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
      return false;
    }
    if (id.charAt(0) == '.' || id.charAt(0) == ' ' || id.endsWith(" ") || id.endsWith(".")) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < 0x20 || c == 0x7f || c == '/' || c == '\\' || c == '%' || c == ':') {
        return false;
      }
      if (c == '*' || c == '?' || c == '"' || c == '<' || c == '>' || c == '|') {
        return false;
      }
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= id.length() || !Character.isLowSurrogate(id.charAt(i + 1))) {
          return false;
        }
        i++;
        if (Character.getType(id.codePointAt(i - 1)) == Character.FORMAT) {
          return false; // e.g. the tag characters U+E0001..
        }
      } else if (Character.isLowSurrogate(c) || Character.getType(c) == Character.FORMAT) {
        return false;
      }
    }
    return id.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES && !isDeviceName(id);
  }

  /** Windows reserves these names with any extension, case-insensitively. */
  private static boolean isDeviceName(String id) {
    int dot = id.indexOf('.');
    String stem = (dot < 0 ? id : id.substring(0, dot)).strip().toUpperCase(Locale.ROOT);
    if (DEVICE_NAMES.contains(stem)) {
      return true;
    }
    if (stem.length() == 4 && (stem.startsWith("COM") || stem.startsWith("LPT"))) {
      char n = stem.charAt(3);
      return (n >= '0' && n <= '9') || n == '\u00B9' || n == '\u00B2' || n == '\u00B3';
    }
    return false;
  }

  /**
   * The path of {@code id} under {@code root}, or empty when the id is invalid or would resolve
   * anywhere but directly inside {@code root}.
   *
   * @param root an absolute, normalised folder
   */
  public static Optional<Path> resolve(Path root, String id) {
    if (!isValid(id)) {
      return Optional.empty();
    }
    Path resolved;
    try {
      resolved = root.resolve(id).normalize();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    if (!resolved.startsWith(root) || !root.equals(resolved.getParent())) {
      return Optional.empty();
    }
    return Optional.of(resolved);
  }
}
