package io.hostloom.redis;

import io.hostloom.redis.LeaseScripts.Script;

/**
 * The Lua scripts of the permit view ({@link RedisPermitLeases}): a native semaphore is one sorted
 * set and one hash in one hash slot, each operation one script and one round trip.
 *
 * <ul>
 *   <li><b>holders</b> {@code <lease key>:holders}: sorted set, member = owner, score = expiry in
 *       server milliseconds ({@code TIME}). An entry whose score is at or before now is expired:
 *       never counted, never returned, removed by the next acquire.
 *   <li><b>permits</b> {@code <lease key>:permits}: hash, field {@code o:<owner>} = {@code
 *       <token>|<data>} of the owner's entry, field {@code n} = the permit count the live entries
 *       were granted with (a caller with another count is refused while any is live).
 *   <li><b>fence</b> (the lock's {@code :fence} suffix): the last token; a grant's token is the
 *       next one whose remainder modulo the permit count is the lowest slot no live entry has, so
 *       the slot needs no storage of its own. Seeded as the lock's counter is, from {@code TIME} in
 *       microseconds (and above every live entry's token), when missing.
 *   <li><b>waiter flag and channel</b>: the lock's, for the semaphore's key: a refused acquire of a
 *       caller that waits sets the flag; a release publishes while it exists.
 * </ul>
 *
 * <p>Both keys get a TTL that only grows, to the longest lease granted or extended, so a semaphore
 * whose holders all died disappears by itself; a release that leaves no entry deletes both (the
 * count is forgotten with the last holder). Commands: TIME, ZSCORE, ZADD, ZREM, ZCARD, ZRANGE,
 * ZRANGEBYSCORE, ZREMRANGEBYSCORE, HGET, HSET, HDEL, HGETALL, GET, SET PX, PTTL, PEXPIRE, DEL,
 * EXISTS, PUBLISH: all on Redis 6.2, 7.x and Valkey.
 */
final class PermitScripts {
  private PermitScripts() {}

  // now in server ms and µs; an entry's value token|data; TTLs of both keys only grow
  private static final String COMMON =
      EntryScripts.ENTRIES
          + """
      local function keep(z, h, lease)
        if redis.call('PTTL', z) < tonumber(lease) then
          redis.call('PEXPIRE', z, lease)
          redis.call('PEXPIRE', h, lease)
        end
      end
      """;

  /**
   * KEYS: holders, permits, fence, waiter flag. ARGV: owner, data, lease ms, fence ttl ms, wait
   * horizon ms ({@code 0}: nobody here waits), permit count. Reply: {@code {1, token}} granted
   * (new, or the owner's live entry refreshed), or {@code {0, token, owner, data, remaining ms}} of
   * the live entry that expires first.
   */
  static final Script ACQUIRE =
      Script.of(
          "permit-acquire",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local z, h, owner, lease, n = KEYS[1], KEYS[2], ARGV[1], ARGV[3], tonumber(ARGV[6])
              local field = 'o:' .. owner
              local mine = redis.call('ZSCORE', z, owner)
              if mine and tonumber(mine) > now then
                redis.call('ZADD', z, num(now + tonumber(lease)), owner)
                keep(z, h, lease)
                redis.call('PEXPIRE', KEYS[3], ARGV[4])
                return {1, (parse(redis.call('HGET', h, field)))}
              end
              local gone = redis.call('ZRANGEBYSCORE', z, '-inf', num(now))
              for i = 1, #gone do redis.call('HDEL', h, 'o:' .. gone[i]) end
              if #gone > 0 then redis.call('ZREMRANGEBYSCORE', z, '-inf', num(now)) end
              local live = redis.call('ZCARD', z)
              local stored = tonumber(redis.call('HGET', h, 'n'))
              if live >= n or (live > 0 and stored and stored ~= n) then
                if ARGV[5] ~= '0' and redis.call('PTTL', KEYS[4]) < tonumber(ARGV[5]) then
                  redis.call('SET', KEYS[4], '1', 'PX', ARGV[5])
                end
                local f = firstEntry(z, h, 'o:')
                return {0, f[1], f[2], f[3], f[4]}
              end
              local used, top = {}, 0
              if live > 0 then
                local all = redis.call('HGETALL', h)
                for i = 1, #all, 2 do
                  if string.sub(all[i], 1, 2) == 'o:' then
                    local tk = tonumber((parse(all[i + 1])))
                    if tk then
                      used[tk % n] = true
                      if tk > top then top = tk end
                    end
                  end
                end
              end
              local slot = 0
              while used[slot] do slot = slot + 1 end
              local last = tonumber(redis.call('GET', KEYS[3]))
              local base = last and last + 1 or nowUs
              if base <= top then base = top + 1 end
              local token = num(base + ((slot - base) % n))
              redis.call('SET', KEYS[3], token, 'PX', ARGV[4])
              redis.call('ZADD', z, num(now + tonumber(lease)), owner)
              redis.call('HSET', h, field, token .. '|' .. ARGV[2], 'n', ARGV[6])
              keep(z, h, lease)
              return {1, token}
              """);

  /**
   * KEYS: holders, permits, fence. ARGV: owner, lease ms, fence ttl ms. Reply: {@code {1}}
   * extended, {@code {0}} no live entry of the owner.
   */
  static final Script EXTEND =
      Script.of(
          "permit-extend",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local mine = redis.call('ZSCORE', KEYS[1], ARGV[1])
              if not mine or tonumber(mine) <= now then return {0} end
              redis.call('ZADD', KEYS[1], num(now + tonumber(ARGV[2])), ARGV[1])
              keep(KEYS[1], KEYS[2], ARGV[2])
              redis.call('PEXPIRE', KEYS[3], ARGV[3])
              return {1}
              """);

  /**
   * KEYS: holders, permits, waiter flag. ARGV: owner, release channel ({@code ""}: publish
   * nothing), announce mode ({@code a} always, {@code w} while the flag exists). Reply: {@code {1}}
   * released, {@code {0}} no live entry of the owner. The fence counter is left alone.
   */
  static final Script RELEASE =
      Script.of(
          "permit-release",
          LeaseScripts.PRELUDE
              + COMMON
              + LeaseScripts.ANNOUNCE
              + """
              local mine = redis.call('ZSCORE', KEYS[1], ARGV[1])
              if not mine or tonumber(mine) <= now then return {0} end
              redis.call('ZREM', KEYS[1], ARGV[1])
              redis.call('HDEL', KEYS[2], 'o:' .. ARGV[1])
              if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('DEL', KEYS[2]) end
              announce(KEYS[3], ARGV[2], ARGV[3], 'released')
              return {1}
              """);

  /**
   * KEYS: holders, permits. Reply: {@code {token, owner, data, remaining ms}} of the live entry
   * that expires first, or {@code {}}.
   */
  static final Script READ =
      Script.of(
          "permit-read",
          LeaseScripts.PRELUDE
              + COMMON
              + """
              local f = firstEntry(KEYS[1], KEYS[2], 'o:')
              if not f then return {} end
              return f
              """);
}
