package io.hostloom.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.leadership.testing.ScriptedLeaderElection;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The lock guard works without {@code hostloom-leadership} on the class path: this module's classes
 * are loaded again by a loader that hides every leadership type.
 */
class KernelOnlyTest {

  /** Runs one occurrence through a lock guard; loaded by {@link NoLeadershipLoader}. */
  public static final class LockRun implements Supplier<String> {
    @Override
    public String get() {
      try (DistributedLock lock =
          DistributedLock.create(LockingOptions.of("app"), new InMemoryLockBackend())) {
        RunResult r = ScheduleGuard.of(lock, ScheduleOptions.of("report")).run(claim -> {});
        return r.outcome() + " " + (r.fencingToken() > 0);
      }
    }
  }

  /** Uses leadership types; loaded by {@link NoLeadershipLoader} it must fail (self-test). */
  public static final class LeaderRun implements Supplier<String> {
    @Override
    public String get() {
      return LeaderScheduleGuard.of(new ScriptedLeaderElection("r"), ScheduleOptions.of("report"))
          .name();
    }
  }

  /** Child-first for this module's package, refusing leadership types. */
  private static final class NoLeadershipLoader extends URLClassLoader {
    NoLeadershipLoader(URL... urls) {
      super(urls, KernelOnlyTest.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (name.startsWith("io.hostloom.leadership.")) {
        throw new ClassNotFoundException(name);
      }
      if (!name.startsWith("io.hostloom.scheduling.")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static Supplier<String> load(Class<?> type) throws Exception {
    NoLeadershipLoader loader =
        new NoLeadershipLoader(
            ScheduleGuard.class.getProtectionDomain().getCodeSource().getLocation(),
            KernelOnlyTest.class.getProtectionDomain().getCodeSource().getLocation());
    Class<?> c = loader.loadClass(type.getName());
    assertThat(c.getClassLoader()).isSameAs(loader);
    return (Supplier<String>) c.getDeclaredConstructor().newInstance();
  }

  @Test
  void aLockGuardRunsWithoutLeadershipClasses() throws Exception {
    assertThat(load(LockRun.class).get()).isEqualTo("SUCCEEDED true");
  }

  @Test
  void theLoaderReallyHidesLeadership() throws Exception {
    assertThatThrownBy(() -> load(LeaderRun.class).get())
        .isInstanceOf(NoClassDefFoundError.class)
        .hasMessageContaining("io/hostloom/leadership/");
  }
}
