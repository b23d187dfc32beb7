package io.hostloom.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Sends the lease scripts (and {@code PING}) over one lazily opened connection, each command
 * bounded by the command timeout. A script goes out as {@code EVALSHA}; only a {@code NOSCRIPT}
 * answer (the script cannot have run) makes it resend the source with {@code EVAL}. Failures are
 * Lettuce's own exceptions or {@link java.util.concurrent.TimeoutException}; {@link RedisFailures}
 * gives them a kind.
 */
final class ScriptClient {
  /** The connection and its async commands, used only through {@code dispatch}. */
  record Link(StatefulConnection<?, ?> connection, BaseRedisAsyncCommands<?, ?> async) {}

  private final LazyConnection<Link> link;
  private final Duration commandTimeout;

  ScriptClient(LazyConnection<Link> link, Duration commandTimeout) {
    this.link = link;
    this.commandTimeout = commandTimeout;
  }

  /**
   * Runs {@code script}; {@code output} makes a fresh reply parser per command sent. The returned
   * future completes on a Lettuce I/O thread (or the timer's, on timeout) with the raw reply.
   */
  <T> CompletableFuture<T> run(
      LeaseScripts.Script script,
      Supplier<CommandOutput<String, String, T>> output,
      List<String> keys,
      List<String> argv) {
    Link open = link.now();
    if (open != null) { // the common case: no future chain for the connection
      return send(open, script, output, keys, argv);
    }
    return link.get().thenCompose(l -> send(l, script, output, keys, argv));
  }

  private <T> CompletableFuture<T> send(
      Link l,
      LeaseScripts.Script script,
      Supplier<CommandOutput<String, String, T>> output,
      List<String> keys,
      List<String> argv) {
    Call<T> call = new Call<>(l, commandTimeout);
    call.send(
        CommandType.EVALSHA,
        output.get(),
        args(script.sha1(), keys, argv),
        () -> call.send(CommandType.EVAL, output.get(), args(script.source(), keys, argv), null));
    return call;
  }

  /** One {@code PING}, connecting first if needed. */
  CompletableFuture<String> ping() {
    return link.get()
        .thenCompose(
            l -> {
              Call<String> call = new Call<>(l, commandTimeout);
              call.send(CommandType.PING, new StatusOutput<>(Wtf8Codec.INSTANCE), null, null);
              return call;
            });
  }

  /** Closes the connection if it is ours; later calls fail {@code UNAVAILABLE}. */
  CompletableFuture<Void> close() {
    return link.close();
  }

  // the script (or its SHA-1) goes out as UTF-8 text; keys and values through our codec
  private static CommandArgs<String, String> args(
      String script, List<String> keys, List<String> argv) {
    return new CommandArgs<>(Wtf8Codec.INSTANCE)
        .add(script)
        .add(keys.size())
        .addKeys(keys)
        .addValues(argv);
  }

  /**
   * One call: the command (and, after {@code NOSCRIPT}, its {@code EVAL} resend) and the bound on
   * both. Completes with the reply, the command's failure, or a {@link TimeoutException}; a
   * timed-out command is cancelled, so Lettuce drops its late reply (and never sends it if still
   * queued). The bound runs on Lettuce's wheel timer: arming and cancelling it is a queue insert
   * with no thread to wake, where a JDK scheduled executor signals its thread whenever a timer
   * becomes its earliest (with one command in flight: every command). It fires within a timer tick
   * (100 ms by default) after the command timeout.
   */
  private static final class Call<T> extends CompletableFuture<T>
      implements TimerTask, BiConsumer<T, Throwable> {
    private final Link link;
    private final Duration commandTimeout;
    private final Timeout timer;
    private volatile CompletableFuture<T> command;
    private volatile Runnable onNoScript; // the EVAL resend, or null

    Call(Link link, Duration commandTimeout) {
      this.link = link;
      this.commandTimeout = commandTimeout;
      this.timer =
          link.connection()
              .getResources()
              .timer()
              .newTimeout(this, commandTimeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    void send(
        CommandType type,
        CommandOutput<String, String, T> output,
        CommandArgs<String, String> args,
        Runnable onNoScript) {
      this.onNoScript = onNoScript;
      BaseRedisAsyncCommands<String, String> async = ours(link.async());
      CompletableFuture<T> c =
          (args == null ? async.dispatch(type, output) : async.dispatch(type, output, args))
              .toCompletableFuture();
      command = c;
      if (isDone()) {
        c.cancel(false); // timed out while this was being sent
        return;
      }
      var unused = c.whenComplete(this);
    }

    /** The command completed. */
    @Override
    public void accept(T reply, Throwable failure) {
      if (failure == null) {
        timer.cancel();
        complete(reply);
        return;
      }
      Runnable resend = onNoScript;
      if (resend != null && isNoScript(failure) && !isDone()) {
        resend.run();
        return;
      }
      timer.cancel();
      completeExceptionally(failure);
    }

    /** The command timeout passed. */
    @Override
    public void run(Timeout t) {
      if (completeExceptionally(new TimeoutException("no reply within " + commandTimeout))) {
        CompletableFuture<T> c = command;
        if (c != null && !c.isDone()) {
          c.cancel(false);
        }
      }
    }
  }

  private static boolean isNoScript(Throwable t) {
    Throwable c = RedisFailures.unwrap(t);
    return c instanceof RedisNoScriptException
        || (c.getMessage() != null && c.getMessage().startsWith("NOSCRIPT"));
  }

  // dispatch encodes with the CommandArgs' codec and decodes with the output's codec, both ours;
  // the connection's own key and value types are never used, so any connection will do
  @SuppressWarnings("unchecked")
  private static BaseRedisAsyncCommands<String, String> ours(BaseRedisAsyncCommands<?, ?> async) {
    return (BaseRedisAsyncCommands<String, String>) async;
  }
}
