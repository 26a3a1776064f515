-- A piece the releases include. What a release does once it may: delete the key, or hand it over (free()).
-- Fair (the default), the count is read by the DECR that counts the longest waiter out, one
-- command less than a GET before it (free() counts it back in when the key is not handed
-- over: a waiter of a lock over several keys is counted; a DECR of no count, -1, deleted).
local nexttoken, fair, ttl, keep = string.match(ARGV[2], '^(%x+) ([01]) (%d+) (%d+)$')
-- A Redis out of memory (maxmemory) refuses a DECR as a script's first write, not a DEL: the
-- count is then read by a GET, as before the DECR, and the first write is free()'s DEL of a
-- last waiter's count, so that the holder can still hand the key over.
local n, out
local d = fair == '1' and redis.pcall('decr', waiters)
if type(d) == 'number' then
  n, out = d + 1, true
  -- The hand-over to the longest of several waiters of the mutex alone, no fencing counter:
  -- the path a contended release mostly runs, what free() does there, without making it and
  -- the functions it includes (4 us of Redis' 32 a hand-over).
  if n > 1 and n < 4294967296 and redis.call('exists', fence) == 0 then
    redis.call('set', lock, nexttoken .. '+', 'PX', ttl)
    redis.call('rpush', grants, nexttoken .. ' 0 ' .. ttl)
    redis.call('pexpire', grants, ttl)
    return 2
  end
  if n <= 0 then redis.call('del', waiters) end
else
  n = tonumber(redis.call('get', waiters)) or 0
end
if n <= 0 then redis.call('del', lock) return 1 end
--@include lib/free.lua
return free(lock, grants, waiters, fence, wakes, n, nexttoken, fair, ttl, keep, out)
