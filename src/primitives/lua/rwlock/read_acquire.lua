-- KEYS: write, read, writers, readers, wgrants, rwake, wfence[, self] (rwlock/_keys.lua).
-- ARGV: "token ttl fencing wait keep", the token of this process' writer ('' none).
-- In when the caller is in "read" already (let in by a writer's release, or taken before),
-- when this process holds the write side, or when no writer holds it or waits. Answers as
-- the mutex's acquire does ({1, token, fence}: the write side's last fencing token).
--@include lib/atleast.lua
--@include rwlock/_now.lua
--@include rwlock/_keys.lua
--@include rwlock/_args.lua
--@include rwlock/_blocked.lua
local function won()
  redis.call('zadd', R, now + ttl, token)
  atleast(R, ttl)
  redis.call('zrem', RQ, token)
  told()
  return {1, token, fencing == '1' and (tonumber(redis.call('get', F)) or 0) or 0}
end
local s = redis.call('zscore', R, token)
if s and tonumber(s) > now then return won() end
local writer = redis.call('get', W)
if writer and writer == ARGV[2] then return won() end
if writer then return blocked(RQ, token, redis.call('pttl', W)) end
redis.call('zremrangebyscore', WQ, '-inf', now)
local first = redis.call('zrange', WQ, 0, 0, 'WITHSCORES')
if #first == 0 then return won() end
return blocked(RQ, token, math.floor(tonumber(first[2]) - now))
