package io.hostloom.micronaut.docs;

// snippet:micronaut
import io.hostloom.micronaut.WithLock;
import jakarta.inject.Singleton;

@Singleton
public class NightlyReportJob {
  // one attempt: while another instance runs the report, the call throws LockNotAcquiredException
  @WithLock(value = "nightly-report", lease = "10m", maxWait = "0s")
  public String run() {
    return "report written"; // the report itself
  }
}
// end:micronaut
