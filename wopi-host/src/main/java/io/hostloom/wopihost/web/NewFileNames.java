package io.hostloom.wopihost.web;

import io.hostloom.wopihost.files.Document;
import io.hostloom.wopihost.files.DocumentStore;
import io.hostloom.wopihost.files.FileIds;
import io.hostloom.wopihost.files.StagedContent;
import java.util.Optional;

/** Names for new files: {@code name}, else {@code name (1)}, {@code name (2)}... */
final class NewFileNames {
  private static final int MAX_TRIES = 1000;

  private NewFileNames() {}

  /** Creates the file under the first free name; empty when none of the names is free. */
  static Optional<Document> createUnique(DocumentStore store, String name, StagedContent content) {
    Optional<Document> made = Optional.empty();
    for (int n = 0; made.isEmpty() && n < MAX_TRIES; n++) {
      String candidate = n == 0 ? name : numbered(name, n);
      if (FileIds.isValid(candidate)) {
        made = store.create(candidate, content);
      }
    }
    return made;
  }

  /**
   * A numbered variant of {@code name} no file has now (for {@code X-WOPI-ValidRelativeTarget}).
   */
  static String freeName(DocumentStore store, String name) {
    for (int n = 1; n < MAX_TRIES; n++) {
      String candidate = numbered(name, n);
      if (FileIds.isValid(candidate) && store.find(candidate).isEmpty()) {
        return candidate;
      }
    }
    return name;
  }

  private static String numbered(String name, int n) {
    int dot = name.lastIndexOf('.');
    return dot > 0
        ? name.substring(0, dot) + " (" + n + ")" + name.substring(dot)
        : name + " (" + n + ")";
  }
}
