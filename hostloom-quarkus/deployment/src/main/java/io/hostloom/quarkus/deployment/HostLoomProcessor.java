package io.hostloom.quarkus.deployment;

import io.hostloom.quarkus.HostLoomLeaders;
import io.hostloom.quarkus.WithLock;
import io.hostloom.quarkus.internal.HostLoomMetrics;
import io.hostloom.quarkus.internal.HostLoomProducers;
import io.hostloom.quarkus.internal.HostLoomReadinessCheck;
import io.hostloom.quarkus.internal.HostLoomRuntime;
import io.hostloom.quarkus.internal.WithLockInterceptor;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.bootstrap.classloading.QuarkusClassLoader;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;

/**
 * The build steps: the core beans always; the readiness check only with quarkus-smallrye-health;
 * the meters only with quarkus-micrometer and io.hostloom:hostloom-micrometer; the leader electors
 * only with io.hostloom:hostloom-leadership. A bean whose integration is absent is never
 * registered, so none of its classes is loaded.
 */
class HostLoomProcessor {
  static final String FEATURE = "hostloom";

  @BuildStep
  FeatureBuildItem feature() {
    return new FeatureBuildItem(FEATURE);
  }

  @BuildStep
  void beans(Capabilities capabilities, BuildProducer<AdditionalBeanBuildItem> beans) {
    beans.produce(
        AdditionalBeanBuildItem.builder()
            .addBeanClasses(
                HostLoomRuntime.class,
                HostLoomProducers.class,
                WithLock.class,
                WithLockInterceptor.class)
            .setUnremovable()
            .build());
    if (capabilities.isPresent(Capability.SMALLRYE_HEALTH)) {
      beans.produce(AdditionalBeanBuildItem.unremovableOf(HostLoomReadinessCheck.class));
    }
    // quarkus-micrometer provides the metrics capability and Micrometer's registry type
    if (capabilities.isPresent(Capability.METRICS)
        && present("io.micrometer.core.instrument.MeterRegistry")
        && present("io.hostloom.micrometer.LockMetricsListener")) {
      beans.produce(AdditionalBeanBuildItem.unremovableOf(HostLoomMetrics.class));
    }
    if (present("io.hostloom.leadership.LeaderElector")) {
      beans.produce(AdditionalBeanBuildItem.unremovableOf(HostLoomLeaders.class));
    }
  }

  private static boolean present(String className) {
    return QuarkusClassLoader.isClassPresentAtRuntime(className);
  }
}
