package io.hostloom.springboot.scheduling;

import io.hostloom.springboot.scheduling.ExclusiveScheduleResolver.Resolved;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.core.annotation.AnnotatedElementUtils;

/** Runs an {@link ExclusiveSchedule} method through its schedule's guard. */
final class ExclusiveScheduleInterceptor implements MethodInterceptor {
  private final ExclusiveScheduleResolver resolver;
  // looked up on first use: resolving it while post-processors are being registered would make
  // the registry a bean "not eligible for getting processed by all BeanPostProcessors"
  private final Supplier<ExclusiveScheduleRegistry> registry;
  private final Map<Method, Resolved> options = new ConcurrentHashMap<>();

  ExclusiveScheduleInterceptor(
      ExclusiveScheduleResolver resolver, Supplier<ExclusiveScheduleRegistry> registry) {
    this.resolver = resolver;
    this.registry = registry;
  }

  /**
   * Resolves (and so validates) the annotation of {@code method}, once; a leader role is checked by
   * the registry once every bean exists.
   */
  Resolved optionsOf(Method method) {
    return options.computeIfAbsent(
        method,
        m -> {
          Resolved r =
              resolver.resolve(
                  m, AnnotatedElementUtils.findMergedAnnotation(m, ExclusiveSchedule.class));
          registry.get().expect(r);
          return r;
        });
  }

  @Override
  public Object invoke(MethodInvocation invocation) {
    Class<?> target =
        invocation.getThis() == null ? null : AopUtils.getTargetClass(invocation.getThis());
    Method method = AopUtils.getMostSpecificMethod(invocation.getMethod(), target);
    registry
        .get()
        .run(
            optionsOf(method),
            claim -> {
              try {
                invocation.proceed();
              } catch (Exception | Error e) {
                throw e;
              } catch (Throwable t) {
                throw new IllegalStateException(t);
              }
            });
    return null;
  }
}
