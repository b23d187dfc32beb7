package io.hostloom.benchmarks.faces;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * Lettuce making the minimum commands a correct lock needs, one string key per lock whose value is
 * the owner (the WOPI lock id) with a PX expiry: acquire/lock = {@code SET NX PX}; release/unlock =
 * a script deleting the key only if its value is the caller's; refresh = a script moving the expiry
 * only if the value is the caller's; relock = a script replacing the value only if it is the old
 * lock id; get lock = {@code GET}. One command (one round trip) per operation; no fencing token, no
 * holder record on refusal, no release signal.
 */
final class RawRedisFace implements Face {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final long KERNEL_LEASE_MS = 30_000;
  private static final long WOPI_LEASE_MS = 30 * 60_000;
  private static final String DEL_IF =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
  private static final String PEXPIRE_IF =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2])"
          + " end return 0";
  private static final String REPLACE_IF =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX',"
          + " ARGV[3]) return 1 end return 0";

  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private final RedisCommands<String, String> redis;
  private final CommandCounter counter;
  private final String delIf;
  private final String pexpireIf;
  private final String replaceIf;

  RawRedisFace(RedisClient client, CommandCounter counter) {
    this.client = client;
    this.counter = counter;
    this.connection = client.connect();
    this.redis = connection.sync();
    this.delIf = redis.scriptLoad(DEL_IF);
    this.pexpireIf = redis.scriptLoad(PEXPIRE_IF);
    this.replaceIf = redis.scriptLoad(REPLACE_IF);
  }

  private static String key(String k) {
    return "raw:" + k;
  }

  private void create(String k, String owner, long px) {
    if (!"OK".equals(redis.set(key(k), owner, SetArgs.Builder.nx().px(px)))) {
      throw new IllegalStateException("held");
    }
  }

  private void ifOwner(String sha, String k, String... args) {
    Long r = redis.evalsha(sha, ScriptOutputType.INTEGER, new String[] {key(k)}, args);
    if (r == null || r == 0) {
      throw new IllegalStateException("not the owner");
    }
  }

  @Override
  public void acquire(String k) {
    create(k, OWNER, KERNEL_LEASE_MS);
  }

  @Override
  public void release(String k) {
    ifOwner(delIf, k, OWNER);
  }

  @Override
  public void lock(String file, String lockId) {
    create(file, lockId, WOPI_LEASE_MS);
  }

  @Override
  public void refresh(String file, String lockId) {
    ifOwner(pexpireIf, file, lockId, Long.toString(WOPI_LEASE_MS));
  }

  @Override
  public String getLock(String file) {
    String v = redis.get(key(file));
    return v == null ? "" : v;
  }

  @Override
  public void relock(String file, String newLockId, String oldLockId) {
    ifOwner(replaceIf, file, oldLockId, newLockId, Long.toString(WOPI_LEASE_MS));
  }

  @Override
  public void unlock(String file, String lockId) {
    ifOwner(delIf, file, lockId);
  }

  @Override
  public long roundTrips() {
    return counter.count();
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
  }
}
