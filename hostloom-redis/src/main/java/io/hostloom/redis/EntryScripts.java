package io.hostloom.redis;

/**
 * The Lua shared by the native views' scripts ({@link PermitScripts}, {@link ReadWriteScripts}),
 * whose entries live in a sorted set of owners scored by expiry (ms, server clock) beside a hash of
 * {@code <prefix><owner> -> token|data}: the server's now, number formatting, entry parsing and the
 * live entry that expires first.
 */
final class EntryScripts {
  static final String ENTRIES =
      """
      local t = redis.call('TIME')
      local nowUs = tonumber(t[1]) * 1000000 + tonumber(t[2])
      local now = math.floor(nowUs / 1000)
      local function num(x) return string.format('%.0f', x) end
      local function parse(v)
        if not v then return '0', '' end
        local a = string.find(v, '|', 1, true)
        if not a then return '0', '' end
        return string.sub(v, 1, a - 1), string.sub(v, a + 1)
      end
      local function firstEntry(z, h, prefix)
        local f = redis.call('ZRANGEBYSCORE', z, '(' .. num(now), '+inf',
          'WITHSCORES', 'LIMIT', 0, 1)
        if #f == 0 then return nil end
        local token, data = parse(redis.call('HGET', h, prefix .. f[1]))
        return {token, f[1], data, tonumber(f[2]) - now}
      end
      """;

  private EntryScripts() {}
}
