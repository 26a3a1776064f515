-- KEYS: lock, grants, waiters of each of the n keys[, self]. ARGV: token, ttl, wait, queued,
-- n. As the mutex's acquire: {1, token, 0} all taken (and "1" pushed on self); {0, pttl,
-- block} none, pttl the shortest lease of the keys held by others, and with wait > 0 the
-- caller counted (queued: already) in every key's waiters, and each key others hold
-- marked (lock/acquire.lua: the mark; a key set here is marked where waiters are counted).
--@include lib/atleast.lua
--@include lib/holds.lua
local token, ttl, wait, queued, n = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] == '1', tonumber(ARGV[5])
local self = KEYS[3 * n + 1]
local function leave()
  if not queued then return end
  for i = 0, n - 1 do
    if redis.call('decrby', KEYS[3 * i + 3], 4294967296) <= 0 then
      redis.call('del', KEYS[3 * i + 3])
      local h = redis.call('get', KEYS[3 * i + 1])
      if h and string.byte(h, -1) == 43 then redis.call('set', KEYS[3 * i + 1], string.sub(h, 1, -2), 'KEEPTTL') end
    end
  end
end
local pttl
local held = {}
for i = 0, n - 1 do
  local h = redis.call('get', KEYS[3 * i + 1])
  if h and not holds(h, token) then
    held[i] = string.byte(h, -1) ~= 43
    local t = redis.call('pttl', KEYS[3 * i + 1])
    if not pttl or (t >= 0 and (pttl < 0 or t < pttl)) then pttl = t end
  end
end
if not pttl then
  leave()
  for i = 0, n - 1 do
    local v = token
    if redis.call('exists', KEYS[3 * i + 3]) == 1 then v = token .. '+' end
    redis.call('set', KEYS[3 * i + 1], v, 'PX', ttl)
  end
  if self then redis.call('rpush', self, '1') redis.call('pexpire', self, 10000) end
  return {1, token, 0}
end
if wait <= 0 then leave() return {0, pttl, 0} end
local block = wait
if pttl >= 0 and pttl + 1 < block then block = pttl + 1 end
for i = 0, n - 1 do
  if not queued then redis.call('incrby', KEYS[3 * i + 3], 4294967296) end
  atleast(KEYS[3 * i + 3], wait + 500, 1000)
  if held[i] then redis.call('append', KEYS[3 * i + 1], '+') end
end
return {0, pttl, block}
