package io.hostloom.testkit;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.Optional;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Tag;

/**
 * The five backend operations as Lincheck operations on two keys and three owners, with results
 * rendered as strings that {@link LockBackendLincheckSpec} reproduces. Subclasses supply the
 * backend (a fresh one per Lincheck scenario, as Lincheck creates a new test instance for each) on
 * {@link #clock}.
 *
 * <p>Data is derived from the owner ({@code d<owner>} on acquire, {@code r<owner>} on replace), so
 * "acquire by the owner keeps its data" and "replace stores new data" are visible in results.
 */
@Tag("lincheck") // run by the "lincheck" surefire execution only
@Param(name = "key", gen = IntGen.class, conf = "0:1")
@Param(name = "owner", gen = IntGen.class, conf = "0:2")
@Param(name = "lease", gen = IntGen.class, conf = "1:2")
public abstract class LockBackendLincheckOperations {
  /** One lease unit, and the step of the {@code tick} operation where there is one. */
  static final Duration UNIT = Duration.ofMillis(10);

  protected final ManualLockClock clock = new ManualLockClock();
  private final LockBackend backend;

  protected LockBackendLincheckOperations() {
    this.backend = newBackend(clock);
  }

  /** The backend under test, on {@code clock}. Called once per Lincheck scenario. */
  protected abstract LockBackend newBackend(ManualLockClock clock);

  /** The key for the generated key number; the spec must map keys the same way. */
  protected String keyName(int key) {
    return "k" + key;
  }

  @Operation
  public String acquire(
      @Param(name = "key") int key,
      @Param(name = "owner") int owner,
      @Param(name = "lease") int lease) {
    AcquireOutcome o =
        backend.acquire(keyName(key), "o" + owner, "d" + owner, UNIT.multipliedBy(lease)).join();
    return o.granted()
        ? "granted " + o.fencingToken()
        : "held by " + describe(o.holder().orElseThrow());
  }

  @Operation
  public String extend(
      @Param(name = "key") int key,
      @Param(name = "owner") int owner,
      @Param(name = "lease") int lease) {
    ExtendOutcome o = backend.extend(keyName(key), "o" + owner, UNIT.multipliedBy(lease)).join();
    return o.extended() ? "extended" : refusal(o.holder());
  }

  @Operation
  public String release(@Param(name = "key") int key, @Param(name = "owner") int owner) {
    ReleaseOutcome o = backend.release(keyName(key), "o" + owner).join();
    return o.released() ? "released" : refusal(o.holder());
  }

  private static String refusal(Optional<LeaseRecord> holder) {
    return holder.map(r -> "mismatch " + describe(r)).orElse("absent");
  }

  @Operation
  public String replace(
      @Param(name = "key") int key,
      @Param(name = "owner") int expected,
      @Param(name = "owner") int owner,
      @Param(name = "lease") int lease) {
    ReplaceOutcome o =
        backend
            .replace(
                keyName(key), "o" + expected, "o" + owner, "r" + owner, UNIT.multipliedBy(lease))
            .join();
    if (o.replaced()) {
      return "replaced " + o.fencingToken();
    }
    return o.current().map(r -> "mismatch " + describe(r)).orElse("absent");
  }

  @Operation
  public String read(@Param(name = "key") int key) {
    Optional<LeaseRecord> r = backend.read(keyName(key)).join();
    return r.map(LockBackendLincheckOperations::describe).orElse("free");
  }

  static String describe(LeaseRecord r) {
    return r.owner() + "/" + r.data() + "/" + r.fencingToken() + "/" + r.remaining().toMillis();
  }
}
