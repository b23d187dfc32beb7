package io.hostloom.testkit.semaphore;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.PermitLeases;
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
 * The permit view suite has teeth: over views with one planted defect each (around the in-memory
 * backend's correct view) it fails, in the tests that name the defect. The same wrapper without a
 * defect passes ({@link #aCorrectView}), so the failures come from the defects.
 */
class PermitViewSuiteSelfTest {
  private static final int TESTS = 9;

  private static Set<String> failures(Class<?> suite) {
    return SuiteFailures.of(suite, TESTS);
  }

  @Test
  void aCorrectView() {
    assertThat(failures(Correct.class)).isEmpty();
  }

  @Test
  void catchesAViewThatGrantsOneTooMany() {
    assertThat(failures(OneTooMany.class))
        .contains(
            "atMostPermitsLiveEntriesAndARefusalNamesTheFirstToExpire",
            "theSlotIsTheLowestFreeOneAndTokensStrictlyIncrease",
            "racingGrantsIntoTheLastPermitGetOneOfThem");
  }

  @Test
  void catchesARetryThatTakesASecondPermit() {
    assertThat(failures(RetryTakesAnother.class)).contains("aRetriedAcquireIsIdempotent");
  }

  @Test
  void catchesASilentSecondSemaphoreForAnotherCount() {
    assertThat(failures(SemaphorePerCount.class))
        .contains("aCountMismatchIsRefusedWithTheStoredData");
  }

  @Test
  void catchesAStrangerShownTheHoldersRecord() {
    assertThat(failures(StrangerSeesHolder.class))
        .containsExactly("extendAndReleaseAreOwnerChecked");
  }

  @Test
  void catchesPermitsThatNeverExpire() {
    assertThat(failures(NeverExpires.class)).contains("expiredPermitsComeBackOnTheServerClock");
  }

  @Test
  void catchesAViewThatReplaces() {
    assertThat(failures(Replaces.class)).containsExactly("replaceFailsWithKindOther");
  }

  @Test
  void catchesAReleaseThatWakesNobody() {
    assertThat(failures(Silent.class)).containsExactly("aReleaseWakesAWaitOfTheKey");
  }

  // ------------------------------------------------------------ the views and their defects

  enum Defect {
    NONE(PlantedView.CommonDefect.NONE),
    ONE_TOO_MANY(PlantedView.CommonDefect.NONE),
    RETRY_TAKES_ANOTHER(PlantedView.CommonDefect.NONE),
    SEMAPHORE_PER_COUNT(PlantedView.CommonDefect.NONE),
    STRANGER_SEES_HOLDER(PlantedView.CommonDefect.STRANGER_SEES_HOLDER),
    NEVER_EXPIRES(PlantedView.CommonDefect.NEVER_EXPIRES),
    REPLACES(PlantedView.CommonDefect.REPLACES),
    SILENT(PlantedView.CommonDefect.NONE);

    final PlantedView.CommonDefect common;

    Defect(PlantedView.CommonDefect common) {
      this.common = common;
    }
  }

  /** The in-memory backend, its permit view wrapped with one defect. */
  static final class Planted extends ForwardingLockBackend implements PermitLeases, ReleaseSignal {
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
    public Optional<LockBackend> permitView(int permits) {
      LockBackend view =
          memory.permitView(defect == Defect.ONE_TOO_MANY ? permits + 1 : permits).orElseThrow();
      return Optional.of(
          new PlantedView(view, defect.common) {
            @Override
            protected String key(String key) {
              return defect == Defect.SEMAPHORE_PER_COUNT ? key + "#" + permits : key;
            }

            @Override
            protected String owner(String owner) {
              return defect == Defect.RETRY_TAKES_ANOTHER
                  ? owner + "#" + retries.incrementAndGet()
                  : owner;
            }
          });
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return defect == Defect.SILENT
          ? CompletableFuture.completedFuture(false)
          : memory.awaitRelease(key, maxWait);
    }
  }

  abstract static class PlantedSuite extends PermitViewSuite {
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

  static class OneTooMany extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.ONE_TOO_MANY;
    }
  }

  static class RetryTakesAnother extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.RETRY_TAKES_ANOTHER;
    }
  }

  static class SemaphorePerCount extends PlantedSuite {
    @Override
    Defect defect() {
      return Defect.SEMAPHORE_PER_COUNT;
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
