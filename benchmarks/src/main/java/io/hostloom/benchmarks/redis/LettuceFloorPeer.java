package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Machine;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor: the least any Redis lock can do per cycle, two round trips on raw Lettuce: {@code SET
 * key token NX PX lease}, then a compare-and-delete script ({@code EVALSHA}). No fencing, no holder
 * record, no release signal, no lease accounting.
 */
final class LettuceFloorPeer implements LockPeer {
  private static final String COMPARE_AND_DELETE =
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end"
          + " return 0";

  private final ClientSettings settings;
  private final ClientResources resources;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private final RedisCommands<String, String> commands;
  private final String sha;
  private final SetArgs setArgs;
  private final AtomicLong tokens = new AtomicLong();

  LettuceFloorPeer(ClientSettings settings) {
    this.settings = settings;
    this.resources = settings.lettuceResources();
    this.client = settings.lettuceClient(resources);
    this.connection = client.connect();
    this.commands = connection.sync();
    this.sha = commands.scriptLoad(COMPARE_AND_DELETE);
    this.setArgs = SetArgs.Builder.nx().px(settings.lease().toMillis());
  }

  @Override
  public String name() {
    return "Lettuce floor";
  }

  @Override
  public List<String> configuration() {
    return List.of(
        "raw Lettuce "
            + Machine.version("io.lettuce", "lettuce-core")
            + " synchronous API on one multiplexed connection, the common client"
            + " options",
        "acquire `SET key token NX PX 30000`, release `EVALSHA` of"
            + " `if get(key) == token then del(key)`: two round trips, nothing else",
        "hand-off: not measured (no waiting of its own)");
  }

  @Override
  public String waitingMode() {
    return "polling every " + settings.pollInterval().toMillis() + " ms (harness)";
  }

  @Override
  public Contender contender(int index) {
    return new Contender() {
      private String heldKey;
      private String heldToken;

      @Override
      public boolean tryLock(String key) {
        String token = index + ":" + tokens.incrementAndGet();
        if ("OK".equals(commands.set(key, token, setArgs))) {
          heldKey = key;
          heldToken = token;
          return true;
        }
        return false;
      }

      @Override
      public boolean lock(String key, Duration maxWait) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (!tryLock(key)) {
          if (System.nanoTime() - deadline >= 0) {
            return false;
          }
          LockSupport.parkNanos(settings.pollInterval().toNanos());
        }
        return true;
      }

      @Override
      public void unlock() {
        Long deleted =
            commands.evalsha(sha, ScriptOutputType.INTEGER, new String[] {heldKey}, heldToken);
        heldKey = null;
        heldToken = null;
        if (deleted == null || deleted != 1L) {
          throw new IllegalStateException("floor release found another owner");
        }
      }
    };
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
    var unused = resources.shutdown(0, 2, TimeUnit.SECONDS);
  }
}
