-- A piece the releases include. What a release does once it may: delete the key, or hand it over (free()).
-- Fair (the default), the count is read by the DECR that counts the longest waiter out, one
-- command less than a GET before it (free() counts it back in when the key is not handed
-- over: a waiter of a lock over several keys is counted; a DECR of no count, -1, deleted).
local nexttoken, fair, ttl, keep = string.match(ARGV[2], '^(%x+) ([01]) (%d+) (%d+)$')
local n, out
if fair == '1' then
  n, out = redis.call('decr', waiters) + 1, true
  if n <= 0 then redis.call('del', waiters) end
else
  n = tonumber(redis.call('get', waiters)) or 0
end
if n <= 0 then redis.call('del', lock) return 1 end
--@include lib/free.lua
return free(lock, grants, waiters, fence, wakes, n, nexttoken, fair, ttl, keep, out)
