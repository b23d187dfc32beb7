package io.hostloom.wopihost.files;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The rules that keep a WOPI file id inside the documents folder. An id is the name of a regular
 * file directly in that folder: no separators, no {@code .}/{@code ..}, no leading dot (hidden
 * files and the host's own {@code .wopi} folder), no control characters, no {@code %} (so a
 * double-encoded {@code %252e%252e} can never turn into a traversal later), no {@code :} (drive
 * letters, NTFS streams), at most 200 characters. On top of that the resolved path is normalised
 * and must be a direct child of the root: two independent checks, either of which alone stops a
 * traversal.
 */
public final class FileIds {
  /** Longest accepted id, in UTF-16 units; leaves room for suffixes within a 255-byte name. */
  public static final int MAX_LENGTH = 200;

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
    }
    return true;
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
