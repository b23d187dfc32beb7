package io.hostloom.wopihost;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.wopihost.WopiHttp.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a refused request must leave alone: every regular file under the documents folder (the
 * host's {@code .wopi} folder with its temporary files included) with its content hash, size and
 * modification time, the version the host reports for one file, and that file's lock id.
 */
record HostSnapshot(Map<String, String> disk, String version, String lock) {

  /** The snapshot of the folder {@code docs} and of {@code file}, read through the host. */
  static HostSnapshot take(WopiHttp wopi, Path docs, String file, String token) {
    Reply info = wopi.checkFileInfo(file, token);
    assertThat(info.status()).isEqualTo(200);
    String json = info.text();
    int at = json.indexOf("\"Version\":\"") + 11;
    String version = json.substring(at, json.indexOf('"', at));
    Reply getLock = wopi.getLock(file, token);
    assertThat(getLock.status()).isEqualTo(200);
    assertThat(getLock.header("X-WOPI-ItemVersion")).contains(version);
    return new HostSnapshot(disk(docs), version, getLock.header("X-WOPI-Lock").orElseThrow());
  }

  /** Asserts that the folder, the version and the lock of {@code file} are as in this snapshot. */
  void assertUnchanged(WopiHttp wopi, Path docs, String file, String token) {
    HostSnapshot after = take(wopi, docs, file, token);
    assertThat(after.disk()).isEqualTo(disk);
    assertThat(after.version()).isEqualTo(version);
    assertThat(after.lock()).isEqualTo(lock);
    assertThat(Files.exists(docs.resolve(file))).isTrue();
  }

  /** Every regular file under {@code docs}: content hash, size and modification time. */
  static Map<String, String> disk(Path docs) {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(docs)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          byte[] content = Files.readAllBytes(p);
          files.put(
              docs.relativize(p).toString(),
              HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content))
                  + " "
                  + content.length
                  + " "
                  + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS)
                      .to(TimeUnit.MICROSECONDS));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    return files;
  }
}
