package io.hostloom.wopihost;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A users file and folders made before the host starts, so the file can name them: the folder
 * records are written where {@code Folders} keeps them ({@code .wopi/folders}, {@code
 * .wopi/parents}).
 */
final class TestUsers {
  private TestUsers() {}

  /**
   * Writes {@code lines} to {@code config/users.txt}, creates folder {@code folderId} (named {@code
   * folderName}, in the root) under {@code docs}, and returns the users file's path.
   */
  static String usersFile(
      Path config, Path docs, String folderId, String folderName, String... lines) {
    try {
      Path folders = docs.resolve(".wopi").resolve("folders");
      Files.createDirectories(folders);
      Files.writeString(folders.resolve(folderId), "root\n" + folderName);
      return Files.writeString(config.resolve("users.txt"), String.join("\n", lines) + "\n")
          .toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Puts file {@code fileId} into folder {@code folderId}. */
  static void place(Path docs, String fileId, String folderId) {
    try {
      Path parents = docs.resolve(".wopi").resolve("parents");
      Files.createDirectories(parents);
      Files.writeString(parents.resolve(fileId), folderId);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
