package io.hostloom.springboot.scheduling;

import java.lang.reflect.Method;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Proxies beans with {@link ExclusiveSchedule} methods (as ShedLock's method proxy does), after
 * validating every such method so that a misconfigured one fails start-up naming it. Ordered before
 * Spring's {@code ScheduledAnnotationBeanPostProcessor}, so the scheduler calls the proxy.
 */
final class ExclusiveSchedulePostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {
  private static final long serialVersionUID = 1L;

  private final transient ExclusiveScheduleInterceptor interceptor;

  ExclusiveSchedulePostProcessor(ExclusiveScheduleInterceptor interceptor) {
    this.interceptor = interceptor;
    this.advisor =
        new DefaultPointcutAdvisor(
            new AnnotationMatchingPointcut(null, ExclusiveSchedule.class, true), interceptor);
    setBeforeExistingAdvisors(true);
    setProxyTargetClass(true);
    setOrder(Ordered.LOWEST_PRECEDENCE - 100);
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> type = AopUtils.getTargetClass(bean);
    ReflectionUtils.doWithMethods(
        type,
        (Method m) -> {
          if (AnnotatedElementUtils.hasAnnotation(m, ExclusiveSchedule.class)) {
            try {
              interceptor.optionsOf(m);
            } catch (ExclusiveScheduleConfigurationException e) {
              throw new BeanCreationException(beanName, e.getMessage(), e);
            }
          }
        });
    return super.postProcessAfterInitialization(bean, beanName);
  }
}
