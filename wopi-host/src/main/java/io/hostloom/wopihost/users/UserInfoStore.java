package io.hostloom.wopihost.users;

import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.RecordNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;

/**
 * The {@code UserInfo} string a WOPI client keeps per user (PutUserInfo stores it, CheckFileInfo
 * returns it), in the documents folder ({@code .wopi/userinfo/<sha-256 of the user>}), so every
 * instance sharing the folder returns the same.
 */
public final class UserInfoStore {
  /** The longest UserInfo accepted, in characters (WOPI's limit). */
  public static final int MAX_LENGTH = 1024;

  private final Path dir;
  private final Path temp;

  /**
   * @throws UncheckedIOException when the folder cannot be created
   */
  public UserInfoStore(DocumentStore store) {
    this.dir = store.root().resolve(".wopi").resolve("userinfo");
    this.temp = store.root().resolve(".wopi").resolve("tmp");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }

  /** The stored UserInfo of {@code user}, if any. */
  public Optional<String> get(String user) {
    try {
      return Optional.of(
          Files.readString(dir.resolve(RecordNames.of(user)), StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the user info", e);
    }
  }

  /**
   * Replaces the UserInfo of {@code user}.
   *
   * @throws IllegalArgumentException when longer than {@value #MAX_LENGTH} characters
   */
  public void put(String user, String info) {
    if (info.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("UserInfo is limited to " + MAX_LENGTH + " characters");
    }
    Path tmp = temp.resolve(UUID.randomUUID().toString());
    try {
      Files.writeString(tmp, info, StandardCharsets.UTF_8);
      Files.move(
          tmp,
          dir.resolve(RecordNames.of(user)),
          StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot store the user info", e);
    }
  }
}
