package io.hostloom.zookeeper;

import io.hostloom.locking.spi.support.AsyncFailures;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;

/** What a ZooKeeper failure is: an answer code, or a lost connection or session. */
final class ZooKeeperFailures {
  private ZooKeeperFailures() {}

  /** A lost connection, an expired or moved session, or no answer in time: applied or not. */
  static boolean isConnectionProblem(Throwable failure) {
    if (unwrap(failure) instanceof KeeperException k) {
      Code c = k.code();
      return c == Code.CONNECTIONLOSS
          || c == Code.SESSIONEXPIRED
          || c == Code.OPERATIONTIMEOUT
          || c == Code.SESSIONMOVED
          || c == Code.REQUESTTIMEOUT;
    }
    return false;
  }

  /** The ZooKeeper answer code of {@code failure}, or {@code null} when it is none. */
  static Code code(Throwable failure) {
    return unwrap(failure) instanceof KeeperException k ? k.code() : null;
  }

  static Throwable unwrap(Throwable t) {
    return AsyncFailures.unwrap(t);
  }
}
