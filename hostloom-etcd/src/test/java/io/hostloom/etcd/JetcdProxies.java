package io.hostloom.etcd;

import io.etcd.jetcd.Watch;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Thin proxies over real jetcd clients, to force an interleaving or record what the backend did
 * while every request still goes to the server.
 */
final class JetcdProxies {
  private JetcdProxies() {}

  /** A proxy of {@code type} answering through {@code handler}. */
  @SuppressWarnings("unchecked")
  static <T> T proxy(Class<T> type, InvocationHandler handler) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }

  /** Calls {@code m} on {@code target}, throwing what it throws. */
  static Object call(Object target, Method m, Object[] args) throws Throwable {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /**
   * {@code watch}, adding to {@code watchers} one flag per watcher it opens, set when that watcher
   * is closed; {@code beforeWatch} runs inside each {@code watch()} call, before the real one.
   */
  static Watch recording(Watch watch, List<AtomicBoolean> watchers, Runnable beforeWatch) {
    return proxy(
        Watch.class,
        (p, m, args) -> {
          if (!m.getName().equals("watch")) {
            return call(watch, m, args);
          }
          beforeWatch.run();
          AtomicBoolean closed = new AtomicBoolean();
          watchers.add(closed);
          Watch.Watcher w = (Watch.Watcher) call(watch, m, args);
          return proxy(
              Watch.Watcher.class,
              (wp, wm, wargs) -> {
                if (wm.getName().equals("close")) {
                  closed.set(true);
                }
                return call(w, wm, wargs);
              });
        });
  }

  /**
   * {@code watch}, holding back each watcher's created-notify (etcd's confirmation) until {@code
   * confirm} completes; every other response passes at once.
   */
  static Watch holdingConfirmation(Watch watch, CompletableFuture<Void> confirm) {
    return proxy(
        Watch.class,
        (p, m, args) -> {
          if (m.getName().equals("watch") && args[args.length - 1] instanceof Watch.Listener l) {
            Object[] held = args.clone();
            held[args.length - 1] =
                Watch.listener(
                    r -> {
                      if (r.isCreatedNotify()) {
                        var unused = confirm.thenRun(() -> l.onNext(r));
                      } else {
                        l.onNext(r);
                      }
                    },
                    l::onError,
                    l::onCompleted);
            return call(watch, m, held);
          }
          return call(watch, m, args);
        });
  }
}
