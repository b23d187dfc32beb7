package io.hostloom.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The Lua scripts, one per backend operation (and a lean release); each runs atomically and is the
 * operation's only round trip.
 *
 * <p><b>Lease value.</b> One string, {@code <token>|<owner byte length>|<owner><data>}, written
 * with {@code SET ... PX}: a grant is one write, a release or refusal one read, and the holder's
 * record (owner, data, token) comes back from the same {@code GET} that refused the call. The
 * length prefix makes any owner and data bytes safe (no separator is searched inside them). A value
 * not of that form (written by another library on a compatibility layout's key) reads as owner =
 * the value, data {@code ""}, token 0.
 *
 * <p>Rules shared by all scripts:
 *
 * <ul>
 *   <li>A lease whose {@code PTTL} is 0 expires in this very millisecond: the contract says a
 *       record whose expiry is at or before the server's now is expired, so it is treated as
 *       absent.
 *   <li>Tokens are one {@code INCR} of the key's counter. Only when the counter is new ({@code
 *       INCR} answered 1: first grant, or the counter was lost) is it seeded from the server clock,
 *       {@code max(TIME in microseconds, token of a lease still there + 1)}: every earlier token
 *       was at most the clock when issued (a grant is a script run, longer than a microsecond), so
 *       the seed is larger unless the clock went back. A fence TTL of {@code 0} means "no fencing
 *       tokens": no counter, every grant reports token 1.
 *   <li>Waiter flag {@code :w}: a refused acquire whose caller waits (its {@code ARGV} wait horizon
 *       is positive) sets it, never shortening it, for as long as the caller's waits can last.
 *       Release and replace publish on the release channel only while it exists (or always, when
 *       told so), so a release nobody waits for costs one {@code EXISTS}, no {@code PUBLISH}. Both
 *       are scripts, so a refusal that set the flag and a release that read it are ordered on the
 *       server: the release either ran before the refusal (the refused caller saw the new holder)
 *       or after it (it sees the flag and publishes).
 *   <li>{@code TIME} before a write is allowed with effects replication, the only mode of Redis 7
 *       and the default since Redis 5; the guarded {@code redis.replicate_commands()} call also
 *       selects it on a 6.2 server configured with {@code lua-replicate-commands no}.
 *   <li>Commands: GET, SET PX, PTTL, PEXPIRE, DEL, EXISTS, INCR, TIME, PUBLISH: all on Redis 6.2,
 *       7.x and Valkey.
 * </ul>
 */
final class LeaseScripts {
  private LeaseScripts() {}

  /** One script, with the SHA-1 that {@code EVALSHA} names it by. */
  record Script(String name, String source, String sha1) {
    static Script of(String name, String lua) {
      byte[] bytes = lua.getBytes(StandardCharsets.UTF_8);
      try {
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        return new Script(name, lua, sha);
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every JVM has SHA-1", e);
      }
    }
  }

  static final String PRELUDE = "if redis.replicate_commands then redis.replicate_commands() end\n";

  // the lease value: token, owner, data
  private static final String PARSE =
      """
      local function parse(v)
        if not string.find(v, '^%d+|%d+|') then return '0', v, '' end
        local a = string.find(v, '|', 1, true)
        local b = string.find(v, '|', a + 1, true)
        local n = tonumber(string.sub(v, a + 1, b - 1))
        return string.sub(v, 1, a - 1), string.sub(v, b + 1, b + n), string.sub(v, b + n + 1)
      end
      local function value(token, owner, data)
        return token .. '|' .. #owner .. '|' .. owner .. data
      end
      """;

  // fence: the counter key; ttl: its PX ('0': no fencing tokens); floor: a lease's token or nil
  private static final String NEXT_TOKEN =
      """
      local function nextToken(fence, ttl, floor)
        if ttl == '0' then return '1' end
        local token = redis.call('INCR', fence)
        if token ~= 1 then
          redis.call('PEXPIRE', fence, ttl)
          return string.format('%.0f', token)
        end
        local t = redis.call('TIME')
        token = math.max(tonumber(t[1]) * 1000000 + tonumber(t[2]), (tonumber(floor) or 0) + 1)
        token = string.format('%.0f', token)
        redis.call('SET', fence, token, 'PX', ttl)
        return token
      end
      """;

  // channel '' publishes nothing; mode 'a' publishes on every change, 'w' while the flag exists
  static final String ANNOUNCE =
      """
      local function announce(flag, channel, mode, message)
        if channel == '' then return end
        if mode == 'a' or redis.call('EXISTS', flag) == 1 then
          redis.call('PUBLISH', channel, message)
        end
      end
      """;

  /**
   * KEYS: lease, fence, waiter flag. ARGV: owner, data, lease ms, fence ttl ms ({@code 0}: no
   * tokens), wait horizon ms ({@code 0}: nobody here waits). Reply: {@code {1, token}} granted
   * (new, or the owner's live lease refreshed), or {@code {0, token, owner, data, pttl}}.
   */
  static final Script ACQUIRE =
      Script.of(
          "acquire",
          PRELUDE
              + PARSE
              + NEXT_TOKEN
              + """
              local v = redis.call('GET', KEYS[1])
              local floor = nil
              if v then
                local token, owner, data = parse(v)
                local ttl = redis.call('PTTL', KEYS[1])
                if ttl ~= 0 then
                  if owner == ARGV[1] then
                    redis.call('PEXPIRE', KEYS[1], ARGV[3])
                    if ARGV[4] ~= '0' then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
                    return {1, token}
                  end
                  if ARGV[5] ~= '0' and redis.call('PTTL', KEYS[3]) < tonumber(ARGV[5]) then
                    redis.call('SET', KEYS[3], '1', 'PX', ARGV[5])
                  end
                  return {0, token, owner, data, ttl}
                end
                floor = token
              end
              local token = nextToken(KEYS[2], ARGV[4], floor)
              redis.call('SET', KEYS[1], value(token, ARGV[1], ARGV[2]), 'PX', ARGV[3])
              return {1, token}
              """);

  /**
   * KEYS: lease, fence. ARGV: owner, lease ms, fence ttl ms ({@code 0}: no tokens). Reply: {@code
   * {1}} extended, {@code {2, token, owner, data, pttl}} another owner's live lease, {@code {0}}
   * absent or expired.
   */
  static final Script EXTEND =
      Script.of(
          "extend",
          PRELUDE
              + PARSE
              + """
              local v = redis.call('GET', KEYS[1])
              if not v then return {0} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {0} end
              local token, owner, data = parse(v)
              if owner ~= ARGV[1] then return {2, token, owner, data, ttl} end
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              if ARGV[3] ~= '0' then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
              return {1}
              """);

  /**
   * KEYS: lease, waiter flag. ARGV: owner, release channel ({@code ""}: publish nothing), announce
   * mode ({@code a} always, {@code w} while the flag exists). Reply: {@code {1}} released, {@code
   * {2, token, owner, data, pttl}} another owner's live lease, {@code {0}} absent or expired. The
   * fence counter is left alone: tokens survive the release.
   */
  static final Script RELEASE =
      Script.of(
          "release",
          PRELUDE
              + PARSE
              + ANNOUNCE
              + """
              local v = redis.call('GET', KEYS[1])
              if not v then return {0} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {0} end
              local token, owner, data = parse(v)
              if owner ~= ARGV[1] then return {2, token, owner, data, ttl} end
              redis.call('DEL', KEYS[1])
              announce(KEYS[2], ARGV[2], ARGV[3], 'released')
              return {1}
              """);

  /**
   * {@link #RELEASE} without a release channel, for the lean settings (no tokens, no
   * notifications): KEYS: lease. ARGV: owner. Same replies. The caller's own unfenced lease ({@code
   * 1|n|owner...}) is recognised by its prefix, so the common case runs no parsing: GET, PTTL (a
   * lease expiring in this millisecond is expired, and a refusal carries the holder's remaining
   * lease), DEL. No {@code TIME} before the write, so no prelude.
   */
  static final Script RELEASE_UNANNOUNCED =
      Script.of(
          "release-unannounced",
          PARSE
              + """
              local v = redis.call('GET', KEYS[1])
              if not v then return {0} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {0} end
              local mine = '1|' .. #ARGV[1] .. '|' .. ARGV[1]
              if string.sub(v, 1, #mine) ~= mine then
                local token, owner, data = parse(v)
                if owner ~= ARGV[1] then return {2, token, owner, data, ttl} end
              end
              redis.call('DEL', KEYS[1])
              return {1}
              """);

  /**
   * KEYS: lease, fence, waiter flag. ARGV: expected owner, new owner, new data, lease ms, fence ttl
   * ms ({@code 0}: no tokens), release channel, announce mode (see {@link #RELEASE}). Reply: {@code
   * {1, token}} replaced, {@code {2, token, owner, data, pttl}} another owner's live lease, {@code
   * {0}} absent or expired.
   */
  static final Script REPLACE =
      Script.of(
          "replace",
          PRELUDE
              + PARSE
              + NEXT_TOKEN
              + ANNOUNCE
              + """
              local v = redis.call('GET', KEYS[1])
              if not v then return {0} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {0} end
              local token, owner, data = parse(v)
              if owner ~= ARGV[1] then return {2, token, owner, data, ttl} end
              token = nextToken(KEYS[2], ARGV[5], token)
              redis.call('SET', KEYS[1], value(token, ARGV[2], ARGV[3]), 'PX', ARGV[4])
              announce(KEYS[3], ARGV[6], ARGV[7], 'replaced')
              return {1, token}
              """);

  /** KEYS: lease. Reply: {@code {token, owner, data, pttl}} or {@code {}}. */
  static final Script READ =
      Script.of(
          "read",
          PRELUDE
              + PARSE
              + """
              local v = redis.call('GET', KEYS[1])
              if not v then return {} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {} end
              local token, owner, data = parse(v)
              return {token, owner, data, ttl}
              """);

  /**
   * Every script, for a warm-up's {@code SCRIPT LOAD} (the lock's six, then the permits', then the
   * reader-writer views').
   */
  static final List<Script> ALL =
      List.of(
          ACQUIRE,
          EXTEND,
          RELEASE,
          REPLACE,
          READ,
          RELEASE_UNANNOUNCED,
          PermitScripts.ACQUIRE,
          PermitScripts.EXTEND,
          PermitScripts.RELEASE,
          PermitScripts.READ,
          ReadWriteScripts.READ_ACQUIRE,
          ReadWriteScripts.READ_EXTEND,
          ReadWriteScripts.READ_RELEASE,
          ReadWriteScripts.READ_READ,
          ReadWriteScripts.WRITE_ACQUIRE,
          ReadWriteScripts.WRITE_EXTEND,
          ReadWriteScripts.WRITE_RELEASE,
          ReadWriteScripts.WRITE_READ);
}
