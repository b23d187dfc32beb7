package io.hostloom.testkit.wopi;

import io.hostloom.testkit.wopi.WopiHistory.Op;
import io.hostloom.testkit.wopi.WopiHistory.Request;
import java.util.Objects;

/**
 * The sequential WOPI lock model of one file: the state is the current lock id (null when not
 * locked), lock ids compare ordinally, and locks do not expire (histories checked against it run
 * well within the lock expiry). Each request's answer:
 *
 * <table>
 *   <caption>Requests</caption>
 *   <tr><th>request</th><th>when</th><th>answer</th><th>new state</th></tr>
 *   <tr><td>LOCK(id)</td><td>unlocked, or locked with id</td><td>200</td><td>id</td></tr>
 *   <tr><td>GET_LOCK</td><td>always</td><td>200, X-WOPI-Lock: current or ""</td><td>same</td></tr>
 *   <tr><td>REFRESH_LOCK(id)</td><td>locked with id</td><td>200</td><td>same</td></tr>
 *   <tr><td>UNLOCK(id)</td><td>locked with id</td><td>200</td><td>unlocked</td></tr>
 *   <tr><td>UnlockAndRelock(id, old)</td><td>locked with old</td><td>200</td><td>id</td></tr>
 *   <tr><td>any other case</td><td></td><td>409, X-WOPI-Lock: current or ""</td><td>same</td></tr>
 * </table>
 */
public final class WopiLockModel {
  private WopiLockModel() {}

  /** The state after {@code request} from {@code state} (null: unlocked). */
  public static String next(String state, Request request) {
    return succeeds(state, request) ? after(state, request) : state;
  }

  /**
   * Whether {@code op}'s recorded answer is the model's answer from {@code state}. An op without an
   * answer matches every state.
   */
  public static boolean answers(String state, Op op) {
    if (op.unknown()) {
      return true;
    }
    Request r = op.request();
    boolean ok = succeeds(state, r);
    if (op.status() != (ok ? 200 : 409)) {
      return false;
    }
    String current = state == null ? "" : state;
    if (!ok || r.kind() == WopiHistory.Kind.GET_LOCK) {
      return current.equals(op.reportedLock());
    }
    return true; // a 200 of a change carries no lock header worth checking
  }

  /** Whether {@code r} succeeds (200) from {@code state}. */
  public static boolean succeeds(String state, Request r) {
    return switch (r.kind()) {
      case LOCK -> state == null || state.equals(r.lock());
      case GET_LOCK -> true;
      case REFRESH_LOCK, UNLOCK -> Objects.equals(state, r.lock());
      case UNLOCK_AND_RELOCK -> Objects.equals(state, r.oldLock());
    };
  }

  private static String after(String state, Request r) {
    return switch (r.kind()) {
      case LOCK, UNLOCK_AND_RELOCK -> r.lock();
      case GET_LOCK, REFRESH_LOCK -> state;
      case UNLOCK -> null;
    };
  }
}
