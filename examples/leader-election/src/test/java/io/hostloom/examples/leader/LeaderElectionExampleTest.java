package io.hostloom.examples.leader;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.redis.RedisServerProcess;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The example against a real {@code redis-server}: one leader, then a failover to a newer term. */
class LeaderElectionExampleTest {

  @Test
  void oneInstanceLeadsAndTheOtherTakesOverWithALargerTermWhenItStops() throws Exception {
    List<String> seen = LeaderElectionExample.run(RedisServerProcess.shared().uri());

    assertThat(seen).hasSize(3);
    assertThat(seen.get(0)).startsWith("a leads, term ");
    assertThat(seen.get(1)).isEqualTo("b follows: leader false");
    assertThat(seen.get(2)).startsWith("a stopped, b leads, term ");
    long first = Long.parseLong(seen.get(0).substring("a leads, term ".length()));
    long second = Long.parseLong(seen.get(2).substring("a stopped, b leads, term ".length()));
    assertThat(second).isGreaterThan(first);
  }
}
