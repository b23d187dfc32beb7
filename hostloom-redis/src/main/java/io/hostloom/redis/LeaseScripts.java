package io.hostloom.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The five Lua scripts, one per backend operation; each runs atomically and is the operation's only
 * round trip. Lease hash fields: {@code o} owner, {@code d} data, {@code t} fencing token.
 *
 * <p>Rules shared by all scripts:
 *
 * <ul>
 *   <li>A lease whose {@code PTTL} is 0 expires in this very millisecond: the contract says a
 *       record whose expiry is at or before the server's now is expired, so it is treated as
 *       absent.
 *   <li>Tokens come from {@code max(counter + 1, TIME in microseconds)}: the counter makes them
 *       strictly increase while it exists, the server clock keeps them increasing when it is lost
 *       (restart without persistence, eviction, expiry of an idle counter).
 *   <li>{@code TIME} before a write is allowed with effects replication, the only mode of Redis 7
 *       and the default since Redis 5; the guarded {@code redis.replicate_commands()} call also
 *       selects it on a 6.2 server configured with {@code lua-replicate-commands no}.
 *   <li>Commands: HMGET, HSET (several fields), PTTL, PEXPIRE, DEL, EXISTS, GET, SET PX, TIME,
 *       PUBLISH: all on Redis 6.2, 7.x and Valkey.
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

  private static final String PRELUDE =
      "if redis.replicate_commands then redis.replicate_commands() end\n";

  // KEYS[1] fence counter, floor = the token being replaced (or nil), ttl = counter PX
  private static final String NEXT_TOKEN =
      """
      local function nextToken(fence, ttl, floor)
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
        local last = tonumber(redis.call('GET', fence) or '0') or 0
        if floor then last = math.max(last, tonumber(floor) or 0) end
        local token = string.format('%.0f', math.max(last + 1, now))
        redis.call('SET', fence, token, 'PX', ttl)
        return token
      end
      """;

  /**
   * KEYS: lease, fence. ARGV: owner, data, lease ms, fence ttl ms. Reply: {@code {1, token}}
   * granted (new, or the owner's live lease refreshed), or {@code {0, token, owner, data, pttl}}.
   */
  static final Script ACQUIRE =
      Script.of(
          "acquire",
          PRELUDE
              + NEXT_TOKEN
              + """
              local cur = redis.call('HMGET', KEYS[1], 'o', 'd', 't')
              if cur[1] then
                local ttl = redis.call('PTTL', KEYS[1])
                if ttl ~= 0 then
                  if cur[1] == ARGV[1] then
                    redis.call('PEXPIRE', KEYS[1], ARGV[3])
                    redis.call('PEXPIRE', KEYS[2], ARGV[4])
                    return {1, cur[3]}
                  end
                  return {0, cur[3], cur[1], cur[2], ttl}
                end
              end
              local token = nextToken(KEYS[2], ARGV[4], cur[3])
              redis.call('HSET', KEYS[1], 'o', ARGV[1], 'd', ARGV[2], 't', token)
              redis.call('PEXPIRE', KEYS[1], ARGV[3])
              return {1, token}
              """);

  /**
   * KEYS: lease, fence. ARGV: owner, lease ms, fence ttl ms. Reply: {@code {1}} extended, {@code
   * {2, token, owner, data, pttl}} another owner's live lease, {@code {0}} absent or expired.
   */
  static final Script EXTEND =
      Script.of(
          "extend",
          PRELUDE
              + """
              local cur = redis.call('HMGET', KEYS[1], 'o', 'd', 't')
              if not cur[1] then return {0} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {0} end
              if cur[1] ~= ARGV[1] then return {2, cur[3], cur[1], cur[2], ttl} end
              redis.call('PEXPIRE', KEYS[1], ARGV[2])
              redis.call('PEXPIRE', KEYS[2], ARGV[3])
              return {1}
              """);

  /**
   * KEYS: lease, done (this call's own, see {@link RedisKeyLayout#doneKey}). ARGV: owner, release
   * channel ({@code ""}: publish nothing), done ttl ms. Reply: {@code {1}} released, {@code {2,
   * token, owner, data, pttl}} another owner's live lease, {@code {0}} absent or expired. The fence
   * counter is left alone: tokens survive the release. The done key marks that this call released,
   * so the same call re-sent by Lettuce after a reconnect answers {@code {1}} again, whatever
   * happened to the key in between.
   */
  static final Script RELEASE =
      Script.of(
          "release",
          PRELUDE
              + """
              if redis.call('EXISTS', KEYS[2]) == 1 then return {1} end
              local cur = redis.call('HMGET', KEYS[1], 'o', 'd', 't')
              if not cur[1] then return {0} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {0} end
              if cur[1] ~= ARGV[1] then return {2, cur[3], cur[1], cur[2], ttl} end
              redis.call('DEL', KEYS[1])
              redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
              if ARGV[2] ~= '' then redis.call('PUBLISH', ARGV[2], 'released') end
              return {1}
              """);

  /**
   * KEYS: lease, fence, done (this call's own). ARGV: expected owner, new owner, new data, lease
   * ms, fence ttl ms, release channel, done ttl ms. Reply: {@code {1, token}} replaced, {@code {2,
   * token, owner, data, pttl}} another owner's live lease, {@code {0}} absent or expired. A re-sent
   * call (see {@link #RELEASE}) answers its first {@code {1, token}}.
   */
  static final Script REPLACE =
      Script.of(
          "replace",
          PRELUDE
              + NEXT_TOKEN
              + """
              local done = redis.call('GET', KEYS[3])
              if done then return {1, done} end
              local cur = redis.call('HMGET', KEYS[1], 'o', 'd', 't')
              if not cur[1] then return {0} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {0} end
              if cur[1] ~= ARGV[1] then return {2, cur[3], cur[1], cur[2], ttl} end
              local token = nextToken(KEYS[2], ARGV[5], cur[3])
              redis.call('HSET', KEYS[1], 'o', ARGV[2], 'd', ARGV[3], 't', token)
              redis.call('PEXPIRE', KEYS[1], ARGV[4])
              redis.call('SET', KEYS[3], token, 'PX', ARGV[7])
              if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[6], 'replaced') end
              return {1, token}
              """);

  /** KEYS: lease. Reply: {@code {token, owner, data, pttl}} or {@code {}}. */
  static final Script READ =
      Script.of(
          "read",
          PRELUDE
              + """
              local cur = redis.call('HMGET', KEYS[1], 'o', 'd', 't')
              if not cur[1] then return {} end
              local ttl = redis.call('PTTL', KEYS[1])
              if ttl == 0 then return {} end
              return {cur[3], cur[1], cur[2], ttl}
              """);
}
