package io.hostloom.springboot;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.backend.BackendDefinition;
import io.hostloom.wopi.WopiLockComparer;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.util.ClassUtils;

/**
 * Validates every {@code hostloom.*} setting once all bean definitions are known and before any
 * bean is created, and registers the result as the {@link HostLoomSettings} bean. Running this
 * early means an invalid configuration fails start-up with the one {@link
 * HostLoomConfigurationException} message, never with a missing-bean error from whichever bean
 * happened to need the lock backend first.
 */
final class HostLoomSettingsRegistrar
    implements BeanFactoryPostProcessor, EnvironmentAware, Ordered {
  static final String BEAN_NAME = "hostloomSettings";
  private static final Logger log = LoggerFactory.getLogger(HostLoomSettingsRegistrar.class);

  private Environment environment;

  @Override
  public void setEnvironment(Environment environment) {
    this.environment = environment;
  }

  @Override
  public int getOrder() {
    return Ordered.LOWEST_PRECEDENCE;
  }

  @Override
  public void postProcessBeanFactory(ConfigurableListableBeanFactory beans) {
    if (beans.containsSingleton(BEAN_NAME)) {
      return;
    }
    Binder binder = Binder.get(environment);
    HostLoomProperties properties =
        binder.bind("hostloom", HostLoomProperties.class).orElseGet(HostLoomProperties::new);
    ClassLoader loader = beans.getBeanClassLoader();
    List<String> userBackends =
        Arrays.stream(beans.getBeanNamesForType(LockBackend.class, true, false))
            .filter(n -> !n.equals(HostLoomSettings.BACKEND_BEAN))
            .toList();
    boolean userComparer =
        Arrays.stream(beans.getBeanNamesForType(WopiLockComparer.class, true, false))
            .anyMatch(n -> !n.equals(HostLoomSettings.COMPARER_BEAN));
    HostLoomSettings settings =
        HostLoomSettings.validate(
            properties,
            binder,
            new HostLoomSettings.Context(
                SpringFactoriesLoader.forDefaultResourceLocation(loader)
                    .load(BackendDefinition.class),
                userBackends,
                userComparer,
                type -> hasBeanOfType(beans, type, loader),
                c -> ClassUtils.isPresent(c, loader)));
    if (settings.backend().isPresent() && !userBackends.isEmpty()) {
      log.warn(
          "hostloom.backend={} is ignored: the application defines LockBackend bean {}",
          settings.backend().get().name(),
          userBackends.get(0));
    }
    beans.registerSingleton(BEAN_NAME, settings);
  }

  private static boolean hasBeanOfType(
      ConfigurableListableBeanFactory beans, String type, ClassLoader loader) {
    return ClassUtils.isPresent(type, loader)
        && beans.getBeanNamesForType(ClassUtils.resolveClassName(type, loader), true, false).length
            > 0;
  }
}
