package io.hostloom.wopihost.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentStoreTest {
  @TempDir Path dir;

  private DocumentStore store() {
    return new DocumentStore(dir, Clock.systemUTC());
  }

  @Test
  void anEmptyFolderIsSeededWithTheValidatorFileAndSamples() {
    DocumentStore store = store();
    SampleDocuments.seedIfEmpty(store);
    assertThat(store.list())
        .extracting(Document::id)
        .containsExactly("readme.txt", SampleDocuments.VALIDATOR_FILE, "welcome.docx");
    assertThat(store.find(SampleDocuments.VALIDATOR_FILE).orElseThrow().size()).isZero();
    SampleDocuments.seedIfEmpty(store); // idempotent
    assertThat(store.list()).hasSize(3);
  }

  @Test
  void everyWriteChangesTheVersionEvenWithTheSameContentAndWithinOneClockTick() throws IOException {
    DocumentStore store = store();
    store.create("a.txt", bytes("x"));
    Set<String> versions = new HashSet<>();
    versions.add(store.find("a.txt").orElseThrow().version());
    for (int i = 0; i < 20; i++) {
      versions.add(store.write("a.txt", bytes("same")).orElseThrow().version());
    }
    assertThat(versions).hasSize(21);
    try (InputStream in = Channels.newInputStream(store.open("a.txt"))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("same");
    }
  }

  @Test
  void renameChangesTheNameButNeitherTheIdNorTheVersion() {
    DocumentStore store = store();
    Document before = store.create("plan.docx", bytes("x")).orElseThrow();
    Document after = store.rename("plan.docx", "final plan").orElseThrow();
    assertThat(after.id()).isEqualTo("plan.docx");
    assertThat(after.name()).isEqualTo("final plan.docx");
    assertThat(after.version()).isEqualTo(before.version());
    assertThat(store.list()).extracting(Document::id).containsExactly("plan.docx");
    assertThatThrownBy(() -> store.rename("plan.docx", "../evil"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void createRefusesExistingAndInvalidIds() {
    DocumentStore store = store();
    assertThat(store.create("a.txt", bytes("1"))).isPresent();
    assertThat(store.create("a.txt", bytes("2"))).isEmpty();
    assertThat(store.create("../a.txt", bytes("2"))).isEmpty();
    assertThat(Files.exists(dir.getParent().resolve("a.txt"))).isFalse();
  }

  @Test
  void deleteRemovesTheFileAndItsName() {
    DocumentStore store = store();
    store.create("a.txt", bytes("1"));
    store.rename("a.txt", "b");
    assertThat(store.delete("a.txt")).isTrue();
    assertThat(store.find("a.txt")).isEmpty();
    store.create("a.txt", bytes("1"));
    assertThat(store.find("a.txt").orElseThrow().name()).isEqualTo("a.txt");
  }

  @Test
  void symbolicLinksAreNotDocuments() throws IOException {
    Path outside = Files.writeString(dir.getParent().resolve("outside-" + dir.getFileName()), "s");
    try {
      Files.createSymbolicLink(dir.resolve("link.txt"), outside);
      DocumentStore store = store();
      assertThat(store.find("link.txt")).isEmpty();
      assertThat(store.list()).extracting(Document::id).doesNotContain("link.txt");
    } finally {
      Files.deleteIfExists(outside);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
