-- The watchdog's batch renewal: the extend script over many keys at once. KEYS: n keys, then
-- their n fencing counters (a key's own name again where it has none). ARGV: n tokens, n
-- ttls, n fencing tokens (0: none), n keeps. One integer per key: 1 renewed, 0 not ours, 2
-- no key there, 3 no key there, set again to the token: a negative ttl (-ttl) asks for that,
-- for a master of a Redlock lock that lost the key (the watchdog counts the heal only where a
-- quorum of masters renewed in the same round; it sends a ttl of 0, which deletes the key
-- where it holds the token, to give back a heal that did not count). A heal with a fencing
-- token raises the counter, gone with the key, back to it and keeps it keep ms at least, as
-- extend_heal.lua does: a counter is never lowered. A key is a
-- mutex's (a string holding the token, marked or not (lock/acquire.lua): its lease is the key's), or the holders of a lock
-- shared by several (a sorted set of holder tokens, each scored with the ms its lease ends
-- by the server's clock, the key living as long as its longest lease). Run by the watchdog
-- thread on its own connections.
--@include lib/atleast.lua
--@include lib/raise.lua
--@include lib/clock_ms.lua
--@include lib/holds.lua
if #KEYS % 2 == 1 then return redis.error_reply('ERR renew: a fencing counter for each key') end
local n = #KEYS / 2
local out = {}
for i = 1, n do
  local v = redis.pcall('get', KEYS[i])
  local ttl = tonumber(ARGV[n + i])
  out[i] = 0
  if holds(v, ARGV[i]) then
    redis.call('pexpire', KEYS[i], math.abs(ttl))
    out[i] = 1
  elseif v == false then
    out[i] = 2
    if ttl < 0 then
      redis.call('set', KEYS[i], ARGV[i], 'PX', -ttl)
      out[i] = 3
      -- (a counter of another type, the user's doing, is left alone: it stops no other key's
      -- renewal)
      local f = KEYS[n + i]
      if tonumber(ARGV[2 * n + i]) > 0 and type(redis.pcall('get', f)) ~= 'table' then
        raise(f, ARGV[2 * n + i], ARGV[3 * n + i])
      end
    end
  elseif type(v) == 'table' and type(redis.pcall('zscore', KEYS[i], ARGV[i])) == 'string' then
    redis.call('zadd', KEYS[i], 'XX', clock_ms() + ttl, ARGV[i])
    atleast(KEYS[i], ttl)
    out[i] = 1
  end
end
return out
