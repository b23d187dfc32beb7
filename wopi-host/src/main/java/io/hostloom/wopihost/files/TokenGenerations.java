package io.hostloom.wopihost.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The current generation of each token subject (a file, a folder), kept in the documents folder
 * ({@code .wopi/generations/<sha-256 of the subject>}), so instances sharing the folder agree. A
 * token carries the generation it was issued under and is valid only while it is current: {@link
 * #revoke} (on delete, or by an operator deleting the record) ends every token of the subject, and
 * a new file with a deleted file's id starts a new generation, so the old file's tokens do not open
 * it.
 */
public final class TokenGenerations {
  private final Path dir;
  private final SecureRandom random = new SecureRandom();

  /**
   * @throws UncheckedIOException when the folder cannot be created
   */
  public TokenGenerations(DocumentStore store) {
    this.dir = store.root().resolve(".wopi").resolve("generations");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
  }

  /** The current generation of {@code subject}, started (at random) if it has none. */
  public String current(String subject) {
    Path record = dir.resolve(RecordNames.of(subject));
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return Files.readString(record, StandardCharsets.UTF_8);
      } catch (NoSuchFileException e) {
        byte[] g = new byte[9];
        random.nextBytes(g);
        String generation = HexFormat.of().formatHex(g);
        try {
          publish(record, generation);
          return generation;
        } catch (FileAlreadyExistsException raced) {
          // another request (or instance) started one first: read it
        } catch (IOException io) {
          throw new UncheckedIOException("cannot start a token generation", io);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read a token generation", e);
      }
    }
    throw new IllegalStateException("token generation of " + subject + " keeps changing");
  }

  /** Ends every token issued for {@code subject} so far. */
  public void revoke(String subject) {
    try {
      Files.deleteIfExists(dir.resolve(RecordNames.of(subject)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot revoke the tokens of " + subject, e);
    }
  }

  /** Makes {@code record} appear complete or not at all (a hard link), failing if it exists. */
  private void publish(Path record, String generation) throws IOException {
    Path tmp = dir.resolve(".tmp-" + UUID.randomUUID());
    Files.writeString(tmp, generation, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
    try {
      Files.createLink(record, tmp);
    } catch (UnsupportedOperationException e) {
      Files.writeString(record, generation, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
