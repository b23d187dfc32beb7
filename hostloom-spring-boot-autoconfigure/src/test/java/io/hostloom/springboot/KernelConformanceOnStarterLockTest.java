package io.hostloom.springboot;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.testkit.kernel.KernelConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * Contract 111: the kernel's ten conformance scenarios pass for a lock resolved from a Spring
 * context built by the starter (one context per "instance", all over the suite's shared backend and
 * manual clock, which the contexts receive as user beans).
 */
class KernelConformanceOnStarterLockTest extends KernelConformanceSuite {
  private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

  @Override
  protected DistributedLock newLock(LockBackend backend, LockClock clock) {
    AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
    TestPropertyValues.of("hostloom.locking.namespace=conformance").applyTo(ctx);
    ctx.registerBean("sharedBackend", LockBackend.class, () -> backend);
    ctx.registerBean("suiteClock", LockClock.class, () -> clock);
    ctx.register(
        HostLoomAutoConfiguration.class,
        MemoryBackendAutoConfiguration.class,
        HostLoomWopiAutoConfiguration.class);
    ctx.refresh();
    contexts.add(ctx);
    return ctx.getBean(DistributedLock.class);
  }

  @AfterEach
  void closeContexts() {
    contexts.forEach(AnnotationConfigApplicationContext::close);
    contexts.clear();
  }
}
