package io.hostloom.integration;

import io.hostloom.leadership.ChangeType;
import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.LeadershipChange;
import io.hostloom.leadership.LeadershipListener;
import io.hostloom.leadership.LeadershipOptions;
import io.hostloom.locking.DistributedLock;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.event.DefaultLeaderEventPublisher;
import org.springframework.integration.leader.event.LeaderEventPublisher;

/**
 * Spring Integration leader election on {@code hostloom-leadership}: a {@link SmartLifecycle} that
 * runs a {@link LeaderElector} for the {@link Candidate}'s role and calls its {@code onGranted} /
 * {@code onRevoked} and publishes {@code OnGrantedEvent} / {@code OnRevokedEvent} (with a {@link
 * LeaderEventPublisher}, by default one over the application's event publisher), in place of {@code
 * LockRegistryLeaderInitiator}.
 *
 * <p><b>The term.</b> The {@link Context} given to the candidate and carried by the events is a
 * {@link TermContext}: {@link TermContext#term()} is the term's fencing token, strictly larger than
 * every earlier leader's of the role; guard the leader's writes with it.
 *
 * <p><b>No stuck hold</b> (the defect of {@code LockRegistryLeaderInitiator}, which keeps the lock
 * it took at grant after its heartbeat finds the lease lost): when leadership is lost the elector's
 * lease is given up and this instance stays a candidate; {@link Context#yield()} releases the lease
 * and waits the elector's retry interval before trying again, so another candidate takes over; a
 * graceful {@link #stop()} releases the lease and waits for the backend's answer, so a successor
 * leads at once; a stopped initiator can be started again (a new elector).
 *
 * <p><b>Threading.</b> Candidate callbacks and events run one at a time, in order, on the
 * initiator's own thread, never on the elector's timer; a callback that throws is logged and
 * ignored. {@code onGranted} that throws {@link InterruptedException} yields.
 */
public final class HostLoomLeaderInitiator
    implements SmartLifecycle, ApplicationEventPublisherAware {
  private static final Logger LOG = LoggerFactory.getLogger(HostLoomLeaderInitiator.class);

  private final DistributedLock lock;
  private final Candidate candidate;
  private final LeadershipOptions options;
  private LeaderEventPublisher publisher;
  private boolean publisherSet;
  private boolean autoStartup = true;
  private int phase = Integer.MAX_VALUE - 1000; // LockRegistryLeaderInitiator's
  private LeaderElector elector; // guarded by this
  private ExecutorService callbacks; // guarded by this
  private volatile TermContext context;

  /** An initiator with the default {@link LeadershipOptions}. */
  public HostLoomLeaderInitiator(DistributedLock lock, Candidate candidate) {
    this(lock, candidate, LeadershipOptions.DEFAULTS);
  }

  public HostLoomLeaderInitiator(
      DistributedLock lock, Candidate candidate, LeadershipOptions options) {
    this.lock = Objects.requireNonNull(lock, "lock");
    this.candidate = Objects.requireNonNull(candidate, "candidate");
    this.options = Objects.requireNonNull(options, "options");
    this.context = new TermContext(null, candidate.getRole(), 0);
  }

  /** Publishes the leader events with this publisher instead of the application's. */
  public void setLeaderEventPublisher(LeaderEventPublisher publisher) {
    this.publisher = publisher;
    this.publisherSet = true;
  }

  @Override
  public void setApplicationEventPublisher(ApplicationEventPublisher applicationEventPublisher) {
    if (!publisherSet) {
      this.publisher = new DefaultLeaderEventPublisher(applicationEventPublisher);
    }
  }

  public void setAutoStartup(boolean autoStartup) {
    this.autoStartup = autoStartup;
  }

  public void setPhase(int phase) {
    this.phase = phase;
  }

  /** The current term's context; not leading ({@code term() == 0}) when not leading. */
  public TermContext getContext() {
    return context;
  }

  /**
   * Becomes a candidate (a new elector; the first attempt at once, asynchronously). Idempotent
   * while running.
   */
  @Override
  public synchronized void start() {
    if (elector != null) {
      return;
    }
    ExecutorService exec =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "hostloom-leader-" + candidate.getRole());
              t.setDaemon(true);
              return t;
            });
    LeaderElector e =
        LeaderElector.builder(lock, candidate.getRole())
            .options(options)
            .listener(
                new LeadershipListener() {
                  @Override
                  public void onChange(LeadershipChange change) {
                    exec.execute(() -> deliver(change));
                  }
                })
            .build();
    callbacks = exec;
    elector = e;
    e.start();
  }

  /**
   * Stops being a candidate: ends the term when leading, releases the lease and waits for the
   * backend's answer, then delivers the last {@code onRevoked}. Never throws.
   */
  @Override
  public void stop() {
    LeaderElector e;
    ExecutorService exec;
    synchronized (this) {
      e = elector;
      exec = callbacks;
      elector = null;
      callbacks = null;
    }
    if (e == null) {
      return;
    }
    e.stop();
    exec.shutdown();
    try {
      if (!exec.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("leader callbacks of role '{}' did not end within 30 s", candidate.getRole());
      }
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return elector != null;
  }

  @Override
  public boolean isAutoStartup() {
    return autoStartup;
  }

  @Override
  public int getPhase() {
    return phase;
  }

  private void deliver(LeadershipChange change) {
    if (change.type() == ChangeType.ACQUIRED) {
      TermContext c = new TermContext(this, change.role(), change.term());
      context = c;
      try {
        candidate.onGranted(c);
      } catch (InterruptedException ie) {
        c.yield();
      } catch (RuntimeException ex) {
        LOG.warn("onGranted of role '{}' failed", change.role(), ex);
      }
      publish(p -> p.publishOnGranted(this, c, change.role()));
      return;
    }
    TermContext c = context;
    if (c.term() != change.term()) {
      return; // an end without a delivered start cannot happen; ignore it
    }
    context = new TermContext(null, change.role(), 0);
    try {
      candidate.onRevoked(c);
    } catch (RuntimeException ex) {
      LOG.warn("onRevoked of role '{}' failed", change.role(), ex);
    }
    publish(p -> p.publishOnRevoked(this, c, change.role()));
  }

  private void publish(java.util.function.Consumer<LeaderEventPublisher> event) {
    LeaderEventPublisher p = publisher;
    if (p == null) {
      return;
    }
    try {
      event.accept(p);
    } catch (RuntimeException ex) {
      LOG.warn("a leader event of role '{}' failed", candidate.getRole(), ex);
    }
  }

  private synchronized boolean leads(long term) {
    if (elector == null) {
      return false;
    }
    return elector.leadership().map(l -> l.term() == term && l.isCurrent()).orElse(false);
  }

  private synchronized void resign(long term) {
    if (leads(term)) {
      elector.resign();
    }
  }

  @Override
  public String toString() {
    return "HostLoomLeaderInitiator[role=" + candidate.getRole() + ", " + context + "]";
  }

  /**
   * One term of leadership as Spring Integration's {@link Context}: {@link #isLeader()} while this
   * term lasts, {@link #yield()} ends it (releasing the lease), {@link #term()} is its fencing
   * token.
   */
  public static final class TermContext implements Context {
    private final HostLoomLeaderInitiator initiator;
    private final String role;
    private final long term;

    TermContext(HostLoomLeaderInitiator initiator, String role, long term) {
      this.initiator = initiator;
      this.role = role;
      this.term = term;
    }

    /** The term's fencing token; {@code 0} for the not-leading context. */
    public long term() {
      return term;
    }

    @Override
    public boolean isLeader() {
      return initiator != null && initiator.leads(term);
    }

    /** Steps down when this term is still current (another candidate can then lead). */
    @Override
    public void yield() {
      if (initiator != null) {
        initiator.resign(term);
      }
    }

    @Override
    public String getRole() {
      return role;
    }

    @Override
    public String toString() {
      return "TermContext[role=" + role + ", term=" + term + ", leader=" + isLeader() + "]";
    }
  }
}
