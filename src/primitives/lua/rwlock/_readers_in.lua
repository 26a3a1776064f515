-- A piece the read-write lock's scripts include.
-- readers_in(): every waiting reader let in (with the lease handed() gives it) and woken;
-- false when none waits. A reader let in and not back yet is scored with half a ms more
-- than its lease's end (a reader's own leases are whole ms): a release can tell it from
-- the readers in.
--@include rwlock/_handed.lua
local function readers_in()
  redis.call('zremrangebyscore', RQ, '-inf', now)
  local rs = redis.call('zrange', RQ, 0, -1, 'WITHSCORES')
  if #rs == 0 then return false end
  local longest = 1
  for i = 1, #rs, 2 do
    local lease = handed(rs[i + 1])
    redis.call('zadd', R, string.format('%d.5', now + lease), rs[i])
    if lease > longest then longest = lease end
  end
  atleast(R, longest)
  redis.call('del', RQ, RG)
  for i = 1, #rs, 2 do redis.call('rpush', RG, 'wake') end
  redis.call('pexpire', RG, longest)
  return true
end
