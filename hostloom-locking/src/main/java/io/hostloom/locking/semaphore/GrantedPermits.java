package io.hostloom.locking.semaphore;

import io.hostloom.locking.LossReason;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** The {@link Permits} of one acquisition: its permits' kernel handles, closed together. */
final class GrantedPermits implements Permits {
  private final String name;
  private final List<Permit> permits;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger held;
  private final AtomicBoolean[] counted; // per permit: counted down already

  GrantedPermits(String name, List<Permit> permits, AtomicInteger held) {
    this.name = name;
    this.permits = List.copyOf(permits);
    this.held = held;
    this.counted = new AtomicBoolean[this.permits.size()];
    boolean coordinated = isCoordinated();
    for (int i = 0; i < counted.length; i++) {
      counted[i] = new AtomicBoolean(!coordinated); // placeholders are never counted
      if (coordinated) {
        held.incrementAndGet();
        int permit = i;
        var unused = this.permits.get(i).lease().lost().thenRun(() -> countDown(permit));
      }
    }
  }

  private void countDown(int permit) {
    if (counted[permit].compareAndSet(false, true)) {
      held.decrementAndGet();
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<Permit> permits() {
    return permits;
  }

  @Override
  public boolean isHeld() {
    for (Permit p : permits) {
      if (!p.lease().isHeld()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public CompletableFuture<LossReason> lost() {
    CompletableFuture<?>[] each = new CompletableFuture<?>[permits.size()];
    for (int i = 0; i < each.length; i++) {
      each[i] = permits.get(i).lease().lost();
    }
    return CompletableFuture.anyOf(each).thenApply(LossReason.class::cast);
  }

  @Override
  public boolean isCoordinated() {
    return permits.get(0).lease().isCoordinated();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    CompletableFuture<?>[] releases = new CompletableFuture<?>[permits.size()];
    for (int i = 0; i < releases.length; i++) {
      releases[i] = permits.get(i).lease().closeAsync();
      countDown(i);
    }
    try {
      CompletableFuture.allOf(releases).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the releases complete in the background
    } catch (ExecutionException e) {
      // unreachable: closeAsync never completes exceptionally
    }
  }

  @Override
  public String toString() {
    return "Permits[" + name + ", slots=" + permits.stream().map(Permit::slot).toList() + "]";
  }
}
