package io.hostloom.kotlin

import io.hostloom.locking.DistributedLock
import io.hostloom.locking.LockOptions
import io.hostloom.locking.LockRetryPolicy
import io.hostloom.locking.LockingOptions
import io.hostloom.redis.RedisLockBackend
import io.hostloom.redis.RedisServerProcess
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.async
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** withLock excludes across two lock instances (two backends) over a real `redis-server`. */
internal class RedisCoroutineLockTest {
  private val redis = RedisServerProcess.shared()

  @Test
  fun withLockExcludesAcrossTwoLockInstancesAndManyCoroutines() {
    RedisLockBackend.builder().uri(redis.uri()).build().use { b1 ->
      RedisLockBackend.builder().uri(redis.uri()).build().use { b2 ->
        DistributedLock.create(LockingOptions.of("coroutines"), b1).use { l1 ->
          DistributedLock.create(LockingOptions.of("coroutines"), b2).use { l2 ->
            val wait =
              LockOptions.builder()
                .lease(Duration.ofSeconds(10))
                .maxWait(Duration.ofSeconds(30))
                .retry(LockRetryPolicy.interval(10_000, Duration.ofMillis(5)))
                .build()
            val inside = AtomicInteger()
            val maxInside = AtomicInteger()
            val tokens = mutableListOf<Long>() // appended inside the critical section
            val rounds = 20

            runBlocking(Dispatchers.Default) {
              withTimeout(60_000) {
                (0 until rounds)
                  .map { i ->
                    async {
                      (if (i % 2 == 0) l1 else l2).withLock("orders", wait) { h ->
                        maxInside.accumulateAndGet(inside.incrementAndGet(), ::maxOf)
                        tokens.add(h.fencingToken())
                        delay(5) // suspends, holding the lock
                        inside.decrementAndGet()
                      }
                    }
                  }
                  .awaitAll()
              }
            }

            assertThat(maxInside).hasValue(1)
            assertThat(tokens).hasSize(rounds).isSorted().doesNotHaveDuplicates()
            runBlocking {
              val next = l1.awaitTryAcquire("orders")
              assertThat(next).`as`("every coroutine released").isNotNull()
              next!!.awaitRelease()
            }
          }
        }
      }
    }
  }
}
