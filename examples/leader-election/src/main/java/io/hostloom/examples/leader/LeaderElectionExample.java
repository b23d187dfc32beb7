package io.hostloom.examples.leader;

import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.Leadership;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisLockBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Two instances ("a" and "b", each with its own Redis connection and lock, as two processes would
 * have) elect the leader of the role {@code report}: one leads, the other follows; when the leader
 * stops (it releases its lease), the follower takes over with a larger term, the fencing token its
 * writes carry.
 */
public final class LeaderElectionExample {
  private LeaderElectionExample() {}

  public static void main(String[] args) throws InterruptedException {
    run(System.getProperty("redis.uri", "redis://localhost:6379")).forEach(System.out::println);
  }

  /** Runs the election and returns what each step showed, one line per step. */
  public static List<String> run(String redisUri) throws InterruptedException {
    List<String> seen = new ArrayList<>();
    LockingOptions options = LockingOptions.of("leader-example");
    try (RedisLockBackend redisA = RedisLockBackend.builder().uri(redisUri).build();
        RedisLockBackend redisB = RedisLockBackend.builder().uri(redisUri).build();
        DistributedLock locksA = DistributedLock.create(options, redisA);
        DistributedLock locksB = DistributedLock.create(options, redisB)) {
      LeaderElector a = LeaderElector.builder(locksA, "report").build();
      LeaderElector b = LeaderElector.builder(locksB, "report").build();
      try {
        a.start();
        Leadership first = a.awaitLeadership(Duration.ofSeconds(10)).orElseThrow();
        seen.add("a leads, term " + first.term());
        b.start();
        seen.add("b follows: leader " + b.isLeader());

        a.stop(); // releases the lease at once: b takes over without waiting for it to expire
        Leadership second = b.awaitLeadership(Duration.ofSeconds(30)).orElseThrow();
        seen.add("a stopped, b leads, term " + second.term());
      } finally {
        a.stop();
        b.stop();
      }
    }
    return seen;
  }
}
