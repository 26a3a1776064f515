-- Redlock's extend on one master. KEYS: lock, fence. ARGV: token, ttl, fence (0: none),
-- keep. 1 extended; 2 healed: the key was gone (the master restarted without persistence,
-- or lost it in a failover), so it is set again to token, and the fencing counter, which
-- went with it, raised back to fence; 0 someone else holds it (never overwritten). The
-- caller counts a heal only when a quorum of masters extended in the same call, and
-- releases it otherwise (redlock.c).
--@include lib/atleast.lua
--@include lib/raise.lua
--@include lib/holds.lua
local v = redis.call('get', KEYS[1])
if holds(v, ARGV[1]) then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
if v then return 0 end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
if tonumber(ARGV[3]) > 0 then raise(KEYS[2], ARGV[3], ARGV[4]) end
return 2
