package io.hostloom.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
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

  /** Runs {@code script}; {@code output} makes a fresh reply parser per command sent. */
  <T> CompletableFuture<T> run(
      LeaseScripts.Script script,
      Supplier<CommandOutput<String, String, T>> output,
      List<String> keys,
      List<String> argv) {
    return link.get()
        .thenCompose(
            l -> {
              BaseRedisAsyncCommands<String, String> async = ours(l.async());
              return bounded(
                      async.dispatch(
                          CommandType.EVALSHA, output.get(), args(script.sha1(), keys, argv)))
                  .exceptionallyCompose(
                      t ->
                          isNoScript(t)
                              ? bounded(
                                  async.dispatch(
                                      CommandType.EVAL,
                                      output.get(),
                                      args(script.source(), keys, argv)))
                              : CompletableFuture.failedFuture(t));
            });
  }

  /** One {@code PING}, connecting first if needed. */
  CompletableFuture<String> ping() {
    return link.get()
        .thenCompose(
            l ->
                bounded(
                    ours(l.async())
                        .dispatch(CommandType.PING, new StatusOutput<>(Wtf8Codec.INSTANCE))));
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

  // The command's own future, failing with TimeoutException after the command timeout; a timed-out
  // command is cancelled so Lettuce drops its late reply (and never sends it if still queued).
  private <T> CompletableFuture<T> bounded(CompletionStage<T> command) {
    CompletableFuture<T> lettuce = command.toCompletableFuture();
    CompletableFuture<T> result = new CompletableFuture<>();
    var unused =
        lettuce.whenComplete(
            (v, t) -> {
              if (t != null) {
                result.completeExceptionally(t);
              } else {
                result.complete(v);
              }
            });
    return result
        .orTimeout(commandTimeout.toNanos(), TimeUnit.NANOSECONDS)
        .whenComplete(
            (v, t) -> {
              if (!lettuce.isDone()) {
                lettuce.cancel(false);
              }
            });
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
