package io.hostloom.testkit;

import java.util.List;

/** Closes what a suite opened, all of it even when some closing fails. */
public final class Closing {
  private Closing() {}

  /** Closes one item; may throw. */
  @FunctionalInterface
  public interface Closer<T> {
    void close(T item) throws Exception;
  }

  /**
   * Closes {@code item} if it is {@link AutoCloseable}; the default of the suites' closeBackend.
   */
  public static void ifCloseable(Object item) throws Exception {
    if (item instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  /**
   * Closes every item of {@code items} with {@code closer}, then empties the list; the first
   * failure is thrown after all were tried, with the later ones suppressed in it.
   */
  public static <T> void all(List<T> items, Closer<? super T> closer) throws Exception {
    Exception first = null;
    for (T item : items) {
      try {
        closer.close(item);
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    items.clear();
    if (first != null) {
      throw first;
    }
  }
}
