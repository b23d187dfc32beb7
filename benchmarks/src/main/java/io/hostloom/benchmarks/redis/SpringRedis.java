package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Machine;
import io.lettuce.core.resource.ClientResources;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Spring Data Redis {@link LettuceConnectionFactory} with the common client settings, for the
 * Spring-based peers (Spring Integration, ShedLock). Each peer owns one.
 */
final class SpringRedis implements AutoCloseable {
  private final ClientResources resources;
  private final LettuceConnectionFactory factory;

  SpringRedis(ClientSettings settings) {
    this.resources = settings.lettuceResources();
    LettuceClientConfiguration client =
        LettuceClientConfiguration.builder()
            .clientResources(resources)
            .clientOptions(settings.lettuceOptions())
            .commandTimeout(settings.commandTimeout())
            .build();
    this.factory =
        new LettuceConnectionFactory(
            new RedisStandaloneConfiguration(settings.host(), settings.port()), client);
    factory.afterPropertiesSet();
    factory.start();
  }

  static String describe() {
    return "spring-data-redis "
        + Machine.version("org.springframework.data", "spring-data-redis")
        + " `LettuceConnectionFactory` with the common Lettuce client"
        + " options and resources, `shareNativeConnection` true (the default): one multiplexed"
        + " connection for all threads";
  }

  LettuceConnectionFactory factory() {
    return factory;
  }

  @Override
  public void close() {
    factory.destroy();
    var unused = resources.shutdown(0, 2, TimeUnit.SECONDS);
  }
}
