package io.hostloom.redis;

import io.hostloom.redis.LeaseScripts.Script;

/**
 * The Lua scripts of the reader-writer views ({@link RedisReadWriteLeases}): a native reader-writer
 * lock is one sorted set and one hash in one hash slot, each operation one script and one round
 * trip.
 *
 * <ul>
 *   <li><b>readers</b> {@code <lease key>:readers}: sorted set, member = reader owner, score =
 *       expiry in server milliseconds ({@code TIME}). An entry whose score is at or before now is
 *       expired: never counted, never returned, removed by the next acquire.
 *   <li><b>entries</b> {@code <lease key>:rw}: hash, field {@code r:<owner>} = {@code
 *       <token>|<data>} of a reader; the writer entry in fields {@code wo} (owner), {@code wt}
 *       (token, {@code 0} while waiting), {@code wd} (data), {@code ws} ({@code h} holding, {@code
 *       w} waiting) and {@code we} (expiry, server ms). An expired writer entry is removed by the
 *       next acquire, extend or release that meets it.
 *   <li><b>fence</b> (the lock's {@code :fence} suffix): the last token, for reads and writes
 *       alike; every grant that adds an entry takes the next one. Seeded from {@code TIME} in
 *       microseconds (and above every live entry's token) when missing.
 *   <li><b>waiter flag and channel</b>: the lock's, for the reader-writer key: a refused acquire of
 *       a caller that waits sets the flag; a release (reader, holding or waiting writer) publishes
 *       {@code released-all} while it exists, which wakes every wait of the key in each process
 *       (readers and writers wait on one key: waking only the oldest could wake a reader that a
 *       waiting writer still refuses while the writer sleeps).
 * </ul>
 *
 * <p>Each key's TTL only grows, to the longest lease granted, extended or waited with, so a lock
 * whose holders all died disappears by itself; Redis deletes either key when its last field or
 * member goes. Commands: TIME, ZSCORE, ZADD, ZREM, ZCARD, ZRANGEBYSCORE, ZREMRANGEBYSCORE, HGET,
 * HMGET, HSET, HDEL, HGETALL, GET, SET PX, PTTL, PEXPIRE, EXISTS, PUBLISH: all on Redis 6.2, 7.x
 * and Valkey.
 */
final class ReadWriteScripts {
  private ReadWriteScripts() {}

  // now in server ms and µs; a reader's value token|data; TTLs only grow
  private static final String COMMON =
      EntryScripts.ENTRIES
          + """
      local function grow(k, lease)
        if redis.call('PTTL', k) < tonumber(lease) then redis.call('PEXPIRE', k, lease) end
      end
      local function writer(h, drop)
        local w = redis.call('HMGET', h, 'wo', 'wt', 'wd', 'ws', 'we')
        if not w[1] then return nil end
        local left = (tonumber(w[5]) or 0) - now
        if left <= 0 then
          if drop then redis.call('HDEL', h, 'wo', 'wt', 'wd', 'ws', 'we') end
          return nil
        end
        return {w[2], w[1], w[3], left, w[4]}
      end
      local function purge(z, h)
        local gone = redis.call('ZRANGEBYSCORE', z, '-inf', num(now))
        for i = 1, #gone do redis.call('HDEL', h, 'r:' .. gone[i]) end
        if #gone > 0 then redis.call('ZREMRANGEBYSCORE', z, '-inf', num(now)) end
      end
      local function flag(k, horizon)
        if horizon ~= '0' and redis.call('PTTL', k) < tonumber(horizon) then
          redis.call('SET', k, '1', 'PX', horizon)
        end
      end
      local function refused(r) return {0, r[1], r[2], r[3], r[4]} end
      local function nextToken(fence, ttl, h)
        local last = tonumber(redis.call('GET', fence))
        local token
        if last then
          token = last + 1
        else
          token = nowUs
          local all = redis.call('HGETALL', h)
          for i = 1, #all, 2 do
            local tk
            if string.sub(all[i], 1, 2) == 'r:' then tk = tonumber((parse(all[i + 1])))
            elseif all[i] == 'wt' then tk = tonumber(all[i + 1]) end
            if tk and tk >= token then token = tk + 1 end
          end
        end
        token = num(token)
        redis.call('SET', fence, token, 'PX', ttl)
        return token
      end
      """;

  /**
   * KEYS: readers, entries, fence, waiter flag. ARGV: owner, data, lease ms, fence ttl ms, wait
   * horizon ms ({@code 0}: nobody here waits), most readers. Reply: {@code {1, token}} granted
   * (new, or the owner's live reader entry refreshed), or {@code {0, token, owner, data, remaining
   * ms}} of the writer entry, or (readers full) of the reader entry that expires first.
   */
  static final Script READ_ACQUIRE =
      Script.of(
          "rw-read-acquire",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local z, h, owner, lease = KEYS[1], KEYS[2], ARGV[1], ARGV[3]
              local field = 'r:' .. owner
              local mine = redis.call('ZSCORE', z, owner)
              if mine and tonumber(mine) > now then
                redis.call('ZADD', z, num(now + tonumber(lease)), owner)
                grow(z, lease)
                grow(h, lease)
                redis.call('PEXPIRE', KEYS[3], ARGV[4])
                return {1, (parse(redis.call('HGET', h, field)))}
              end
              purge(z, h)
              local w = writer(h, true)
              if w then
                flag(KEYS[4], ARGV[5])
                return refused(w)
              end
              if redis.call('ZCARD', z) >= tonumber(ARGV[6]) then
                flag(KEYS[4], ARGV[5])
                return refused(firstEntry(z, h, 'r:'))
              end
              local token = nextToken(KEYS[3], ARGV[4], h)
              redis.call('ZADD', z, num(now + tonumber(lease)), owner)
              redis.call('HSET', h, field, token .. '|' .. ARGV[2])
              grow(z, lease)
              grow(h, lease)
              return {1, token}
              """);

  /**
   * KEYS: readers, entries, fence, waiter flag. ARGV: owner, data, lease ms, fence ttl ms, wait
   * horizon ms. Reply: {@code {1, token}} granted (new, or the owner's holding entry refreshed), or
   * {@code {0, token, owner, data, remaining ms}} of another owner's writer entry, or of the reader
   * entry that expires first (then the owner's entry is waiting, with expiry now + lease).
   */
  static final Script WRITE_ACQUIRE =
      Script.of(
          "rw-write-acquire",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local z, h, owner, lease = KEYS[1], KEYS[2], ARGV[1], ARGV[3]
              local expiry = num(now + tonumber(lease))
              local w = writer(h, true)
              if w and w[2] ~= owner then
                flag(KEYS[4], ARGV[5])
                return refused(w)
              end
              if w and w[5] == 'h' then
                redis.call('HSET', h, 'we', expiry)
                grow(h, lease)
                redis.call('PEXPIRE', KEYS[3], ARGV[4])
                return {1, w[1]}
              end
              purge(z, h)
              if redis.call('ZCARD', z) > 0 then
                redis.call('HSET', h, 'wo', owner, 'wt', '0', 'wd', ARGV[2], 'ws', 'w', 'we', expiry)
                grow(h, lease)
                flag(KEYS[4], ARGV[5])
                return refused(firstEntry(z, h, 'r:'))
              end
              local token = nextToken(KEYS[3], ARGV[4], h)
              redis.call('HSET', h, 'wo', owner, 'wt', token, 'wd', ARGV[2], 'ws', 'h', 'we', expiry)
              grow(h, lease)
              return {1, token}
              """);

  /**
   * KEYS: readers, entries, fence. ARGV: owner, lease ms, fence ttl ms. Reply: {@code {1}}
   * extended, {@code {0}} no live reader entry of the owner.
   */
  static final Script READ_EXTEND =
      Script.of(
          "rw-read-extend",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local mine = redis.call('ZSCORE', KEYS[1], ARGV[1])
              if not mine or tonumber(mine) <= now then return {0} end
              redis.call('ZADD', KEYS[1], num(now + tonumber(ARGV[2])), ARGV[1])
              grow(KEYS[1], ARGV[2])
              grow(KEYS[2], ARGV[2])
              redis.call('PEXPIRE', KEYS[3], ARGV[3])
              return {1}
              """);

  /**
   * KEYS: entries, fence. ARGV: owner, lease ms, fence ttl ms. Reply: {@code {1}} extended, {@code
   * {0}} no live holding writer entry of the owner.
   */
  static final Script WRITE_EXTEND =
      Script.of(
          "rw-write-extend",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local w = writer(KEYS[1], true)
              if not w or w[2] ~= ARGV[1] or w[5] ~= 'h' then return {0} end
              redis.call('HSET', KEYS[1], 'we', num(now + tonumber(ARGV[2])))
              grow(KEYS[1], ARGV[2])
              redis.call('PEXPIRE', KEYS[2], ARGV[3])
              return {1}
              """);

  /**
   * KEYS: readers, entries, waiter flag. ARGV: owner, release channel ({@code ""}: publish
   * nothing), announce mode. Reply: {@code {1}} released, {@code {0}} no live reader entry of the
   * owner.
   */
  static final Script READ_RELEASE =
      Script.of(
          "rw-read-release",
          LeaseScripts.PRELUDE
              + COMMON
              + LeaseScripts.ANNOUNCE
              + """
              local mine = redis.call('ZSCORE', KEYS[1], ARGV[1])
              if not mine or tonumber(mine) <= now then return {0} end
              redis.call('ZREM', KEYS[1], ARGV[1])
              redis.call('HDEL', KEYS[2], 'r:' .. ARGV[1])
              announce(KEYS[3], ARGV[2], ARGV[3], 'released-all')
              return {1}
              """);

  /**
   * KEYS: entries, waiter flag. ARGV: owner, release channel, announce mode. Reply: {@code {1}} the
   * owner's live writer entry (holding or waiting) removed, {@code {0}} none.
   */
  static final Script WRITE_RELEASE =
      Script.of(
          "rw-write-release",
          LeaseScripts.PRELUDE
              + COMMON
              + LeaseScripts.ANNOUNCE
              + """
              local w = writer(KEYS[1], true)
              if not w or w[2] ~= ARGV[1] then return {0} end
              redis.call('HDEL', KEYS[1], 'wo', 'wt', 'wd', 'ws', 'we')
              announce(KEYS[2], ARGV[2], ARGV[3], 'released-all')
              return {1}
              """);

  /**
   * KEYS: readers, entries. Reply: {@code {token, owner, data, remaining ms}} of the reader entry
   * that expires first, or {@code {}}.
   */
  static final Script READ_READ =
      Script.of(
          "rw-read-read",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local f = firstEntry(KEYS[1], KEYS[2], 'r:')
              if not f then return {} end
              return f
              """);

  /**
   * KEYS: entries. Reply: {@code {token, owner, data, remaining ms}} of the live writer entry
   * (holding, or waiting with token 0), or {@code {}}.
   */
  static final Script WRITE_READ =
      Script.of(
          "rw-write-read",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local w = writer(KEYS[1], false)
              if not w then return {} end
              return {w[1], w[2], w[3], w[4]}
              """);
}
