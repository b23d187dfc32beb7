package io.hostloom.testkit.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import io.hostloom.testkit.PlantedView;
import io.hostloom.testkit.SuiteFailures;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The reader-writer view suite has teeth: over views with one planted defect each (around the
 * in-memory backend's correct views) it fails, in the tests that name the defect. The same wrapper
 * without a defect passes ({@link #correctViews}), so the failures come from the defects.
 */
class ReadWriteViewsSuiteSelfTest {
  private static final int TESTS = 10;

  private static Set<String> failures(Class<?> suite) {
    return SuiteFailures.of(suite, TESTS);
  }

  @Test
  void correctViews() {
    assertThat(failures(Correct.class)).isEmpty();
  }

  @Test
  void catchesAWriterThatDoesNotWait() {
    // not aWaitingWriterBlocksNewReaders...: the defect's own release wakes the writer at once,
    // whose next attempt records it again, so a new reader is refused often but not always
    assertThat(failures(WriterDoesNotWait.class))
        .contains("theViewsAnswerWriterPreferenceAtomically");
  }

  @Test
  void catchesOneReaderTooMany() {
    assertThat(failures(OneReaderTooMany.class))
        .containsExactly("theViewsAnswerWriterPreferenceAtomically");
  }

  @Test
  void catchesReadTokensThatDoNotIncrease() {
    assertThat(failures(StaleReadTokens.class)).contains("tokensStrictlyIncreaseOverBothViews");
  }

  @Test
  void catchesARetriedReadThatTakesASecondPlace() {
    assertThat(failures(RetryTakesAnother.class)).contains("aRetriedReadAcquireIsIdempotent");
  }

  @Test
  void catchesAStrangerShownTheHoldersRecord() {
    assertThat(failures(StrangerSeesHolder.class))
        .containsExactly("extendAndReleaseOfAStrangerAreRefusedAsAbsent");
  }

  @Test
  void catchesEntriesThatNeverExpire() {
    assertThat(failures(NeverExpires.class))
        .containsExactly(
            "aCrashedWaitersEntryExpiresOnTheServerClock",
            "anExpiredReaderNeverCountsNorBlocksAWriter");
  }

  @Test
  void catchesViewsThatReplace() {
    assertThat(failures(Replaces.class)).containsExactly("replaceFailsWithKindOther");
  }

  @Test
  void catchesAReleaseThatWakesNobody() {
    assertThat(failures(Silent.class)).containsExactly("aReleaseWakesEveryWaitOfTheKey");
  }

  // ------------------------------------------------------------ the views and their defects

  enum Defect {
    NONE(PlantedView.CommonDefect.NONE),
    WRITER_DOES_NOT_WAIT(PlantedView.CommonDefect.NONE),
    ONE_READER_TOO_MANY(PlantedView.CommonDefect.NONE),
    STALE_READ_TOKENS(PlantedView.CommonDefect.NONE),
    RETRY_TAKES_ANOTHER(PlantedView.CommonDefect.NONE),
    STRANGER_SEES_HOLDER(PlantedView.CommonDefect.STRANGER_SEES_HOLDER),
    NEVER_EXPIRES(PlantedView.CommonDefect.NEVER_EXPIRES),
    REPLACES(PlantedView.CommonDefect.REPLACES),
    SILENT(PlantedView.CommonDefect.NONE);

    final PlantedView.CommonDefect common;

    Defect(PlantedView.CommonDefect common) {
      this.common = common;
    }
  }

  /** The in-memory backend, its views wrapped with one defect. */
  static final class Planted extends ForwardingLockBackend
      implements ReadWriteLeases, ReleaseSignal {
    private final InMemoryLockBackend memory;
    private final Defect defect;
    private final AtomicLong retries = new AtomicLong();

    Planted(Defect defect) {
      this(new InMemoryLockBackend(), defect);
    }

    private Planted(InMemoryLockBackend memory, Defect defect) {
      super(memory);
      this.memory = memory;
      this.defect = defect;
    }

    @Override
    public Optional<Views> readWriteViews(int maxReaders) {
      Views v =
          memory
              .readWriteViews(defect == Defect.ONE_READER_TOO_MANY ? maxReaders + 1 : maxReaders)
              .orElseThrow();
      LockBackend read =
          new PlantedView(v.read(), defect.common) {
            @Override
            protected String owner(String owner) {
              return defect == Defect.RETRY_TAKES_ANOTHER
                  ? owner + "#" + retries.incrementAndGet()
                  : owner;
            }

            @Override
            protected CompletableFuture<AcquireOutcome> answer(
                String key, String owner, AcquireOutcome o) {
              return CompletableFuture.completedFuture(
                  o.granted() && defect == Defect.STALE_READ_TOKENS
                      ? AcquireOutcome.granted(1)
                      : o);
            }
          };
      LockBackend write =
          new PlantedView(v.write(), defect.common) {
            @Override
            protected CompletableFuture<AcquireOutcome> answer(
                String key, String owner, AcquireOutcome o) {
              return !o.granted() && defect == Defect.WRITER_DOES_NOT_WAIT
                  ? delegate.release(key, owner).thenApply(r -> o) // drops the waiting entry
                  : CompletableFuture.completedFuture(o);
            }
          };
      return Optional.of(new Views(read, write));
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return defect == Defect.SILENT
          ? CompletableFuture.completedFuture(false)
          : memory.awaitRelease(key, maxWait);
    }
  }

  abstract static class PlantedSuite extends ReadWriteViewsSuite {
    private final Planted backend = new Planted(defect());

    abstract Defect defect();

    @Override
    protected LockBackend newBackend() {
      return backend;
    }

    @Override
    protected Duration expiryWait() {
      return Duration.ofSeconds(1);
    }
  }

  static class Correct extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.NONE;
    }
  }

  static class WriterDoesNotWait extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.WRITER_DOES_NOT_WAIT;
    }
  }

  static class OneReaderTooMany extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.ONE_READER_TOO_MANY;
    }
  }

  static class StaleReadTokens extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.STALE_READ_TOKENS;
    }
  }

  static class RetryTakesAnother extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.RETRY_TAKES_ANOTHER;
    }
  }

  static class StrangerSeesHolder extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.STRANGER_SEES_HOLDER;
    }
  }

  static class NeverExpires extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.NEVER_EXPIRES;
    }
  }

  static class Replaces extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.REPLACES;
    }
  }

  static class Silent extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.SILENT;
    }
  }
}
