package io.hostloom.zookeeper;

import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import java.util.List;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * The session's persistent recursive watches on the lock folder and the view folders, turned into
 * wake-ups of the {@link ReleaseWaitRegistry} (keyed by znode name). A release or replace creates
 * and deletes the child {@link #SIGNAL} of the lock or view znode in its transaction, so a {@code
 * NodeDeleted} of that child is the announcement; grants and extends only change data, refusals
 * change nothing, and they wake nobody. Every wait of the name wakes (a lock and a view of one key
 * share the name: a release of one is a spurious wake-up of the other's waits, which hints allow).
 */
final class ReleaseEvents implements Watcher {
  /** The child a release or replace creates and deletes in its transaction. */
  static final String SIGNAL = "released";

  private final List<String> folderPrefixes; // "<folder>/"
  private final ReleaseWaitRegistry waits;

  /**
   * @param folders the folders whose children are lock or view znodes named by {@link NodeNames}
   */
  ReleaseEvents(List<String> folders, ReleaseWaitRegistry waits) {
    this.folderPrefixes = folders.stream().map(f -> f + "/").toList();
    this.waits = waits;
  }

  @Override
  public void process(WatchedEvent event) {
    String path = event.getPath();
    if (event.getType() != EventType.NodeDeleted || path == null) {
      return;
    }
    for (String prefix : folderPrefixes) {
      if (path.startsWith(prefix)) {
        String rest = path.substring(prefix.length()); // "<name>/released", or "<name>" by hand
        int slash = rest.indexOf('/');
        waits.wakeAll(slash < 0 ? rest : rest.substring(0, slash));
        return;
      }
    }
  }
}
