-- KEYS: write, read, writers, readers, wgrants, rwake, wfence[, self] (rwlock/_keys.lua).
-- ARGV: token, next token. 0 not ours (its lease ended), 1 released, 2 the last reader out
-- handed the lock to a waiting writer. Token '*' (RLOCK_TOKEN_ANY, forceUnlock()): every
-- reader out; 0 none was in.
--@include rwlock/_now.lua
--@include rwlock/_keys.lua
--@include rwlock/_handed.lua
--@include rwlock/_grant_writer.lua
if ARGV[1] == '*' then
  redis.call('zremrangebyscore', R, '-inf', now)
  if redis.call('del', R) == 0 then return 0 end
  if redis.call('exists', W) == 1 then return 1 end
  return grant_writer()
end
local s = redis.call('zscore', R, ARGV[1])
if not s then return 0 end
redis.call('zrem', R, ARGV[1])
if tonumber(s) <= now then return 0 end
if redis.call('exists', W) == 1 then return 1 end
return grant_writer()
