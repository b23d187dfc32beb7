package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.wopi.WopiLockConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** WOPI lock semantics over Redis with the lean settings (a LOCK of a free file: one SET NX PX). */
class RedisLeanWopiConformanceTest extends WopiLockConformanceSuite {
  private final List<RedisLockBackend> opened = new ArrayList<>();

  @Override
  protected LockBackend newBackend() {
    RedisLockBackend b =
        RedisLockBackend.builder()
            .uri(RedisServerProcess.shared().uri())
            .fencingTokens(false)
            .releaseNotifications(false)
            .build();
    opened.add(b);
    return b;
  }

  @AfterEach
  void closeBackends() {
    opened.forEach(RedisLockBackend::close);
    opened.clear();
  }
}
