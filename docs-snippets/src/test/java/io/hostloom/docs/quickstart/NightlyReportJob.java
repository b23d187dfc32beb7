package io.hostloom.docs.quickstart;

// snippet:boot
import io.hostloom.locking.DistributedLock;
import org.springframework.stereotype.Component;

@Component
public class NightlyReportJob {
  private final DistributedLock locks; // the starter's lock, over hostloom.backend

  public NightlyReportJob(DistributedLock locks) {
    this.locks = locks;
  }

  public String run() {
    return locks
        .tryAcquire("nightly-report")
        .map(
            held -> {
              try (held) {
                return "running the report, fencing token " + held.fencingToken();
              }
            })
        .orElse("another instance runs the report");
  }
}
// end:boot
