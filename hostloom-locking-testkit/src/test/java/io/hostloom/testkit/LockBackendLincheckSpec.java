package io.hostloom.testkit;

import java.util.HashMap;
import java.util.Map;

/**
 * The sequential specification of a lock backend for Lincheck: one record per key (owner, data,
 * expiry, token), one fencing counter, and time in milliseconds moved by {@link #tick()}. Method
 * names, parameters and result strings mirror {@link LockBackendLincheckOperations}.
 */
public class LockBackendLincheckSpec {
  /**
   * The model on a single key, for scenarios in which time passes: fencing tokens only have to
   * increase per key, and a backend that reads its clock per key (as every distributed backend
   * does) need not order grants of different keys by time.
   */
  public static class SingleKey extends LockBackendLincheckSpec {
    @Override
    protected String keyName(int key) {
      return "k";
    }
  }

  private record Entry(String owner, String data, long expiresAt, long token) {}

  private static final long UNIT_MILLIS = LockBackendLincheckOperations.UNIT.toMillis();

  private final Map<String, Entry> leases = new HashMap<>();
  private long now;
  private long tokens;

  /** The key for the generated key number, as {@link LockBackendLincheckOperations#keyName}. */
  protected String keyName(int key) {
    return "k" + key;
  }

  private Entry live(String key) {
    Entry e = leases.get(key);
    return e != null && e.expiresAt > now ? e : null;
  }

  private String describe(Entry e) {
    return e.owner + "/" + e.data + "/" + e.token + "/" + (e.expiresAt - now);
  }

  public String acquire(int key, int owner, int lease) {
    String k = keyName(key);
    Entry e = live(k);
    long end = now + UNIT_MILLIS * lease;
    if (e != null && !e.owner.equals("o" + owner)) {
      return "held by " + describe(e);
    }
    if (e != null) {
      leases.put(k, new Entry(e.owner, e.data, end, e.token));
      return "granted " + e.token;
    }
    leases.put(k, new Entry("o" + owner, "d" + owner, end, ++tokens));
    return "granted " + tokens;
  }

  public String extend(int key, int owner, int lease) {
    String k = keyName(key);
    Entry e = live(k);
    if (e == null || !e.owner.equals("o" + owner)) {
      return refusal(e);
    }
    leases.put(k, new Entry(e.owner, e.data, now + UNIT_MILLIS * lease, e.token));
    return "extended";
  }

  public String release(int key, int owner) {
    String k = keyName(key);
    Entry e = live(k);
    if (e == null || !e.owner.equals("o" + owner)) {
      return refusal(e);
    }
    leases.remove(k);
    return "released";
  }

  private String refusal(Entry e) {
    return e == null ? "absent" : "mismatch " + describe(e);
  }

  public String replace(int key, int expected, int owner, int lease) {
    String k = keyName(key);
    Entry e = live(k);
    if (e == null) {
      return "absent";
    }
    if (!e.owner.equals("o" + expected)) {
      return "mismatch " + describe(e);
    }
    leases.put(k, new Entry("o" + owner, "r" + owner, now + UNIT_MILLIS * lease, ++tokens));
    return "replaced " + tokens;
  }

  public String read(int key) {
    Entry e = live(keyName(key));
    return e == null ? "free" : describe(e);
  }

  public void tick() {
    now += UNIT_MILLIS;
  }
}
