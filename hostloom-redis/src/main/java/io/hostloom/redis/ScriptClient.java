package io.hostloom.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.BaseRedisAsyncCommands;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;
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
   * What a script's reply means. {@code replayed} says that the command was written more than once:
   * Lettuce re-sent it after a reconnect, so its first run may have taken effect and this reply may
   * describe the state that run left (a release answering "absent" after it released).
   */
  @FunctionalInterface
  interface Parser<T, R> {
    R parse(T reply, boolean replayed);
  }

  /**
   * Runs {@code script}; {@code output} makes a fresh reply parser per command sent, {@code parse}
   * turns the reply into the answer. The returned future completes on a Lettuce I/O thread (or the
   * timer's, on timeout) with that answer, or exceptionally with a {@link
   * io.hostloom.locking.spi.LockBackendException} of {@code operation} (a {@code parse} failure
   * included).
   */
  <T, R> CompletableFuture<R> run(
      String operation,
      LeaseScripts.Script script,
      Supplier<CommandOutput<String, String, T>> output,
      List<String> keys,
      List<String> argv,
      Parser<T, R> parse) {
    return onLink(operation, l -> send(l, operation, script, output, keys, argv, parse));
  }

  /**
   * Sends one plain command ({@code type} with {@code args}, never re-sent as anything else), with
   * the same bound, failure mapping and replay flag as {@link #run}.
   */
  <T, R> CompletableFuture<R> command(
      String operation,
      CommandType type,
      CommandOutput<String, String, T> output,
      WrittenArgs args,
      Parser<T, R> parse) {
    return onLink(
        operation,
        l -> {
          Call<T, R> call = new Call<>(l, commandTimeout, operation, parse);
          call.send(type, output, args, null);
          return call;
        });
  }

  private <R> CompletableFuture<R> onLink(
      String operation, Function<Link, CompletableFuture<R>> send) {
    Link open = link.now();
    if (open != null) { // the common case: no future chain for the connection
      return send.apply(open);
    }
    CompletableFuture<R> result = new CompletableFuture<>();
    var unused =
        link.get()
            .whenComplete(
                (l, t) -> {
                  if (t != null) {
                    result.completeExceptionally(RedisFailures.map(operation, t));
                    return;
                  }
                  var unused2 =
                      send.apply(l)
                          .whenComplete(
                              (r, f) -> {
                                if (f != null) {
                                  result.completeExceptionally(f);
                                } else {
                                  result.complete(r);
                                }
                              });
                });
    return result;
  }

  /**
   * Connects now (if not yet connected) and loads {@code scripts} with {@code SCRIPT LOAD} (on a
   * Cluster: on the node Lettuce sends keyless commands to), so their first use is one round trip;
   * completes when all are loaded.
   */
  CompletableFuture<Void> warmUp(List<LeaseScripts.Script> scripts) {
    return link.get()
        .thenCompose(
            l -> {
              CompletableFuture<?>[] loads = new CompletableFuture<?>[scripts.size()];
              for (int i = 0; i < loads.length; i++) {
                Call<String, String> call =
                    new Call<>(l, commandTimeout, "warm-up", (reply, replayed) -> reply);
                WrittenArgs args = new WrittenArgs();
                args.add("LOAD").add(scripts.get(i).source());
                call.send(CommandType.SCRIPT, new StatusOutput<>(Wtf8Codec.INSTANCE), args, null);
                loads[i] = call;
              }
              return CompletableFuture.allOf(loads);
            });
  }

  private <T, R> CompletableFuture<R> send(
      Link l,
      String operation,
      LeaseScripts.Script script,
      Supplier<CommandOutput<String, String, T>> output,
      List<String> keys,
      List<String> argv,
      Parser<T, R> parse) {
    Call<T, R> call = new Call<>(l, commandTimeout, operation, parse);
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
              Call<String, String> call =
                  new Call<>(l, commandTimeout, "ping", (reply, replayed) -> reply);
              call.send(CommandType.PING, new StatusOutput<>(Wtf8Codec.INSTANCE), null, null);
              return call;
            });
  }

  /** Closes the connection if it is ours; later calls fail {@code UNAVAILABLE}. */
  CompletableFuture<Void> close() {
    return link.close();
  }

  // the script (or its SHA-1) goes out as UTF-8 text; keys and values through our codec
  private static WrittenArgs args(String script, List<String> keys, List<String> argv) {
    WrittenArgs args = new WrittenArgs();
    args.add(script).add(keys.size()).addKeys(keys).addValues(argv);
    return args;
  }

  /**
   * A command's arguments that count how often they were written to a connection: Lettuce encodes a
   * command each time it writes it, so a count above one means it was re-sent after a reconnect.
   * This is what lets release and replace do without a per-call replay key on the server: only a
   * re-sent call needs a second look, and the client knows which calls were re-sent.
   */
  static final class WrittenArgs extends CommandArgs<String, String> {
    private final AtomicInteger writes = new AtomicInteger();

    WrittenArgs() {
      super(Wtf8Codec.INSTANCE);
    }

    @Override
    public void encode(ByteBuf buf) {
      writes.incrementAndGet();
      super.encode(buf);
    }

    int writes() {
      return writes.get();
    }

    // CommandArgs.toString() encodes to print: a log line must not count as a write
    @Override
    public String toString() {
      return "WrittenArgs[" + count() + " arguments]";
    }
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
  private static final class Call<T, R> extends CompletableFuture<R>
      implements TimerTask, BiConsumer<T, Throwable> {
    private final Link link;
    private final Duration commandTimeout;
    private final String operation;
    private final Parser<T, R> parse;
    private final Timeout timer;
    private volatile CompletableFuture<T> command;
    private volatile Runnable onNoScript; // the EVAL resend, or null
    private volatile WrittenArgs first; // the EVALSHA's arguments
    private volatile WrittenArgs last; // the EVAL's, after NOSCRIPT

    Call(Link link, Duration commandTimeout, String operation, Parser<T, R> parse) {
      this.link = link;
      this.commandTimeout = commandTimeout;
      this.operation = operation;
      this.parse = parse;
      this.timer =
          link.connection()
              .getResources()
              .timer()
              .newTimeout(this, commandTimeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    void send(
        CommandType type,
        CommandOutput<String, String, T> output,
        WrittenArgs args,
        Runnable onNoScript) {
      this.onNoScript = onNoScript;
      if (first == null) {
        first = args;
      } else {
        last = args;
      }
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
        try {
          complete(parse.parse(reply, replayed()));
        } catch (RuntimeException e) { // a reply of an unexpected shape, or an answer in doubt
          completeExceptionally(RedisFailures.map(operation, e));
        }
        return;
      }
      Runnable resend = onNoScript;
      if (resend != null && isNoScript(failure) && !isDone()) {
        resend.run();
        return;
      }
      timer.cancel();
      completeExceptionally(RedisFailures.map(operation, failure));
    }

    // written more than once: the EVALSHA re-sent (its first run may have taken effect even if the
    // re-sent one then met a server without the script), or the EVAL re-sent
    private boolean replayed() {
      WrittenArgs a = first;
      WrittenArgs b = last;
      return (a != null && a.writes() > 1) || (b != null && b.writes() > 1);
    }

    /** The command timeout passed. */
    @Override
    public void run(Timeout t) {
      if (completeExceptionally(
          RedisFailures.map(
              operation, new TimeoutException("no reply within " + commandTimeout)))) {
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
