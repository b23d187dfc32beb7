package io.hostloom.wopihost.web;

import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.FileIds;
import io.hostloom.wopihost.files.NameCanonicalizer;
import io.hostloom.wopihost.files.StagedContent;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Names for new files: {@code name}, else {@code name (1)}, {@code name (2)}... A name is taken
 * when any file's id or display name has its {@link NameCanonicalizer#key} (case, NFC/NFD,
 * homoglyphs), so no new file can pass for an existing one.
 */
final class NewFileNames {
  private static final int MAX_TRIES = 1000;

  private NewFileNames() {}

  /** Creates the file under the first free name; empty when none of the names is free. */
  static Optional<Document> createUnique(DocumentStore store, String name, StagedContent content) {
    Set<String> taken = takenKeys(store);
    Optional<Document> made = Optional.empty();
    for (int n = 0; made.isEmpty() && n < MAX_TRIES; n++) {
      String candidate = n == 0 ? name : numbered(name, n);
      if (FileIds.isValid(candidate) && !taken.contains(NameCanonicalizer.key(candidate))) {
        made = store.create(candidate, content);
      }
    }
    return made;
  }

  /**
   * A numbered variant of {@code name} no file has now, not even in a look-alike spelling (for
   * {@code X-WOPI-ValidRelativeTarget}).
   */
  static String freeName(DocumentStore store, String name) {
    Set<String> taken = takenKeys(store);
    for (int n = 1; n < MAX_TRIES; n++) {
      String candidate = numbered(name, n);
      if (FileIds.isValid(candidate) && !taken.contains(NameCanonicalizer.key(candidate))) {
        return candidate;
      }
    }
    return name;
  }

  /**
   * Whether a file other than {@code id} has an id or display name that looks like {@code name}:
   * the same up to case, Unicode normalisation and the homoglyphs of {@link NameCanonicalizer}.
   */
  static boolean shownByAnotherFile(DocumentStore store, String name, String id) {
    String key = NameCanonicalizer.key(name);
    return store.list().stream()
        .anyMatch(
            d ->
                !d.id().equals(id)
                    && (NameCanonicalizer.key(d.id()).equals(key)
                        || NameCanonicalizer.key(d.name()).equals(key)));
  }

  /** The {@link NameCanonicalizer#key}s of every file's id and display name. */
  private static Set<String> takenKeys(DocumentStore store) {
    Set<String> keys = new HashSet<>();
    for (Document d : store.list()) {
      keys.add(NameCanonicalizer.key(d.id()));
      keys.add(NameCanonicalizer.key(d.name()));
    }
    return keys;
  }

  private static String numbered(String name, int n) {
    int dot = name.lastIndexOf('.');
    return dot > 0
        ? name.substring(0, dot) + " (" + n + ")" + name.substring(dot)
        : name + " (" + n + ")";
  }
}
