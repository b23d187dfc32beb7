package io.hostloom.micronaut;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockOptions;
import io.micronaut.aop.MethodInterceptor;
import io.micronaut.aop.MethodInvocationContext;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.annotation.AnnotationValue;
import io.micronaut.core.convert.ConversionService;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;

/** The around advice of {@link WithLock}: {@link DistributedLock#executeWithLock} on its key. */
@Singleton
public class WithLockInterceptor implements MethodInterceptor<Object, Object> {
  private final DistributedLock lock;
  private final ConversionService conversion;

  public WithLockInterceptor(DistributedLock lock, ConversionService conversion) {
    this.lock = lock;
    this.conversion = conversion;
  }

  @Override
  public Object intercept(MethodInvocationContext<Object, Object> context) {
    AnnotationValue<WithLock> a =
        context
            .findAnnotation(WithLock.class)
            .orElseThrow(() -> new IllegalStateException("no @WithLock on " + context));
    String key = a.stringValue().orElseThrow();
    LockOptions.Builder options = LockOptions.builder();
    duration(a, "lease", context).ifPresent(options::lease);
    duration(a, "maxWait", context).ifPresent(options::maxWait);
    return lock.executeWithLock(key, options.build(), h -> context.proceed());
  }

  private Optional<Duration> duration(
      AnnotationValue<WithLock> a, String member, MethodInvocationContext<?, ?> context) {
    String text = a.stringValue(member).orElse("").strip();
    if (text.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        conversion
            .convert(text, Duration.class)
            .orElseThrow(
                () ->
                    new ConfigurationException(
                        "@WithLock("
                            + member
                            + " = \""
                            + text
                            + "\") on "
                            + context.getExecutableMethod()
                            + " is not a duration (e.g. 30s, 500ms, PT30S)")));
  }
}
