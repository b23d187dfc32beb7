package io.hostloom.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisTestServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** withLock excludes across two lock instances over a real {@code redis-server}. */
class RedisReactiveLockTest {
  @Test
  void withLockExcludesAcrossTwoReactiveCallers() {
    try (RedisTestServer server = RedisTestServer.startNew();
        RedisLockBackend backend = RedisLockBackend.builder().uri(server.uri()).build();
        DistributedLock a = DistributedLock.create(LockingOptions.of("reactive"), backend);
        DistributedLock b = DistributedLock.create(LockingOptions.of("reactive"), backend)) {
      List<ReactiveLock> callers = List.of(ReactiveLock.of(a), ReactiveLock.of(b));
      LockOptions wait =
          LockOptions.builder()
              .lease(Duration.ofSeconds(10))
              .maxWait(Duration.ofSeconds(30))
              .retry(LockRetryPolicy.interval(10_000, Duration.ofMillis(5)))
              .build();
      AtomicInteger inside = new AtomicInteger();
      AtomicInteger maxInside = new AtomicInteger();
      int rounds = 10;

      Flux<Integer> all =
          Flux.range(0, rounds)
              .flatMap(
                  i ->
                      callers
                          .get(i % 2)
                          .withLock(
                              "orders",
                              wait,
                              h ->
                                  Mono.fromCallable(
                                          () ->
                                              maxInside.accumulateAndGet(
                                                  inside.incrementAndGet(), Math::max))
                                      .delayElement(Duration.ofMillis(10))
                                      .doFinally(s -> inside.decrementAndGet())
                                      .map(n -> i)),
                  rounds);

      StepVerifier.create(all)
          .expectNextCount(rounds)
          .expectComplete()
          .verify(Duration.ofSeconds(60));
      assertThat(maxInside.get()).isEqualTo(1);
      // every caller released; the handle is released without blocking (it arrives on a
      // backend thread, where the blocking close would wait for its own reply)
      StepVerifier.create(
              callers
                  .get(0)
                  .tryAcquire("orders")
                  .flatMap(h -> ReactiveLock.release(h).thenReturn(h.key())))
          .expectNext("orders")
          .expectComplete()
          .verify(Duration.ofSeconds(10));
    }
  }
}
