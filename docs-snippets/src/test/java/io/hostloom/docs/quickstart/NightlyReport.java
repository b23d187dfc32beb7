package io.hostloom.docs.quickstart;

// snippet:plain-java
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisLockBackend;
import java.util.Optional;

public class NightlyReport {
  public static void main(String[] args) {
    String uri = System.getProperty("redis.uri", "redis://localhost:6379");
    try (RedisLockBackend redis = RedisLockBackend.builder().uri(uri).build();
        DistributedLock locks = DistributedLock.create(LockingOptions.of("billing"), redis)) {
      Optional<LockHandle> report = locks.tryAcquire("nightly-report"); // one attempt, no wait
      if (report.isPresent()) {
        try (LockHandle held = report.get()) { // released at the end of the block
          System.out.println("running the report, fencing token " + held.fencingToken());
        }
      } else {
        System.out.println("another instance runs the report");
      }
    }
  }
}
// end:plain-java
