package io.hostloom.zookeeper;

import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * The session's persistent recursive watch on the lock folder, turned into wake-ups of the {@link
 * ReleaseWaitRegistry} (keyed by znode name). A release or replace creates and deletes the child
 * {@link #SIGNAL} of the lock znode in its transaction, so a {@code NodeDeleted} of that child is
 * the announcement; grants and extends only change data, refusals change nothing, and they wake
 * nobody. Every wait of the name wakes.
 */
final class ReleaseEvents implements Watcher {
  /** The child a release or replace creates and deletes in its transaction. */
  static final String SIGNAL = "released";

  private final String folderPrefix; // "<locks folder>/"
  private final ReleaseWaitRegistry waits;

  ReleaseEvents(String locksFolder, ReleaseWaitRegistry waits) {
    this.folderPrefix = locksFolder + "/";
    this.waits = waits;
  }

  @Override
  public void process(WatchedEvent event) {
    String path = event.getPath();
    if (event.getType() != EventType.NodeDeleted
        || path == null
        || !path.startsWith(folderPrefix)) {
      return;
    }
    String rest = path.substring(folderPrefix.length()); // "<name>/released", or "<name>" by hand
    int slash = rest.indexOf('/');
    waits.wakeAll(slash < 0 ? rest : rest.substring(0, slash));
  }
}
