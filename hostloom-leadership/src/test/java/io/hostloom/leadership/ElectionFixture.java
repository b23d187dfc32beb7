package io.hostloom.leadership;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * Several instances of one role on one manual clock: each has its own lock (own owner tokens) and
 * its own fault-injecting backend in front of one shared fault-injecting backend (an outage for
 * all) in front of one in-memory backend.
 */
final class ElectionFixture implements AutoCloseable {
  static final String NAMESPACE = "app";
  static final String ROLE = "billing";
  static final String BACKEND_KEY = NAMESPACE + ":lock:leader:" + ROLE;

  final ManualLockClock clock = new ManualLockClock();

  /** The clock of every lock and elector (the backend keeps its own time on {@link #clock}). */
  final StallableClock timers = new StallableClock(clock);

  final InMemoryLockBackend memory = new InMemoryLockBackend(clock);
  final FaultInjectingLockBackend shared = new FaultInjectingLockBackend(memory);
  final List<Instance> instances = new ArrayList<>();

  /** One instance: its backend wrapper, lock, elector, what its listener saw and its logger. */
  record Instance(
      FaultInjectingLockBackend backend,
      DistributedLock lock,
      LeaderElector elector,
      List<LeadershipChange> changes,
      List<RenewalOutcome> renewals,
      RecordingLogger log) {
    List<ChangeType> types() {
      return changes.stream().map(LeadershipChange::type).toList();
    }
  }

  Instance add() {
    return add(LockingOptions.of(NAMESPACE), LeadershipOptions.DEFAULTS, b -> b);
  }

  Instance add(
      LockingOptions lockOptions,
      LeadershipOptions options,
      UnaryOperator<LeaderElector.Builder> customize) {
    FaultInjectingLockBackend own = new FaultInjectingLockBackend(shared);
    DistributedLock lock = DistributedLock.builder(lockOptions, own).clock(timers).build();
    RecordingLogger log = new RecordingLogger();
    List<LeadershipChange> changes = new CopyOnWriteArrayList<>();
    List<RenewalOutcome> renewals = new CopyOnWriteArrayList<>();
    LeaderElector elector =
        customize
            .apply(
                LeaderElector.builder(lock, ROLE)
                    .options(options)
                    .clock(timers)
                    .logger(log)
                    .listener(
                        new LeadershipListener() {
                          @Override
                          public void onChange(LeadershipChange change) {
                            changes.add(change);
                          }

                          @Override
                          public void onRenewal(LeadershipRenewal r) {
                            renewals.add(r.outcome());
                          }
                        }))
            .build();
    Instance i = new Instance(own, lock, elector, changes, renewals, log);
    instances.add(i);
    return i;
  }

  List<Instance> leaders() {
    List<Instance> out = new ArrayList<>();
    for (Instance i : instances) {
      if (i.elector.isLeader()) {
        out.add(i);
      }
    }
    return out;
  }

  Optional<LeaseRecord> record() {
    return memory.read(BACKEND_KEY).join();
  }

  void advance(Duration d) {
    clock.advance(d);
  }

  @Override
  public void close() {
    for (Instance i : instances) {
      i.elector.stop();
      i.lock.close();
    }
  }
}
