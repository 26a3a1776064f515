-- A piece the releases include. What a release does once it may: delete the key, or hand it over (free()).
local n = tonumber(redis.call('get', waiters)) or 0
if n <= 0 then redis.call('del', lock) return 1 end
--@include lib/free.lua
local nexttoken, fair, ttl, keep = string.match(ARGV[2], '^(%x+) ([01]) (%d+) (%d+)$')
return free(lock, grants, waiters, fence, wakes, n, nexttoken, fair, ttl, keep)
