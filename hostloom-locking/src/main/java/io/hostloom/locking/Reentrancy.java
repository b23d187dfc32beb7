package io.hostloom.locking;

/**
 * The keys the current thread holds through a blocking {@code executeWithLock}, shared by every
 * lock in the JVM and compared by prefixed key. A thread-local is the Java 17 equivalent of the
 * seed's async-local flow: it follows the thread that runs the action, not tasks it hands to other
 * threads (which therefore are not detected), and it is set only while the action runs.
 */
final class Reentrancy {
  private static final ThreadLocal<Frame> HELD = new ThreadLocal<>();

  /** One held key, linked to the ones held further out. */
  record Frame(String backendKey, Frame parent) {}

  private Reentrancy() {}

  /** Throws when the calling thread holds {@code backendKey} through {@code executeWithLock}. */
  static void check(String key, String backendKey) {
    if (holds(backendKey)) {
      throw LockReentrancyException.of(key);
    }
  }

  static boolean holds(String backendKey) {
    for (Frame f = HELD.get(); f != null; f = f.parent) {
      if (f.backendKey.equals(backendKey)) {
        return true;
      }
    }
    return false;
  }

  /** Adds {@code backendKey}; returns the previous state for {@link #restore}. */
  static Frame push(String backendKey) {
    Frame previous = HELD.get();
    HELD.set(new Frame(backendKey, previous));
    return previous;
  }

  static void restore(Frame previous) {
    // set, not remove, for the outermost frame: check's get would make the thread's map entry
    // again (32 B) on the next call; the entry left holds null, so it keeps no key alive
    HELD.set(previous);
  }
}
