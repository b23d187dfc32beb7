package io.hostloom.quarkus.internal;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockedCallable;
import io.hostloom.quarkus.WithLock;
import io.quarkus.arc.ArcInvocationContext;
import io.quarkus.runtime.configuration.DurationConverter;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** {@link WithLock}: {@code DistributedLock.executeWithLock} around the method. */
@WithLock("")
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE + 200)
public class WithLockInterceptor {
  private final DistributedLock lock;
  private final Map<Method, LockOptions> options = new ConcurrentHashMap<>();

  WithLockInterceptor(DistributedLock lock) {
    this.lock = lock;
  }

  @AroundInvoke
  Object around(InvocationContext context) throws Exception {
    WithLock binding = binding(context);
    LockOptions o = options.computeIfAbsent(context.getMethod(), m -> options(binding));
    return lock.executeWithLock(
        binding.value(), o, (LockedCallable<Object, Exception>) h -> context.proceed());
  }

  private static WithLock binding(InvocationContext context) {
    WithLock b = ArcInvocationContext.findIterceptorBinding(context, WithLock.class);
    if (b == null) {
      throw new IllegalStateException("no @WithLock on " + context.getMethod());
    }
    return b;
  }

  static LockOptions options(WithLock w) {
    LockOptions.Builder b = LockOptions.builder();
    if (!w.lease().isBlank()) {
      b.lease(DurationConverter.parseDuration(w.lease().strip()));
    }
    if (!w.maxWait().isBlank()) {
      b.maxWait(DurationConverter.parseDuration(w.maxWait().strip()));
    }
    if (!w.autoExtend().isBlank()) {
      b.autoExtend(Boolean.parseBoolean(w.autoExtend().strip()));
    }
    return b.build();
  }
}
