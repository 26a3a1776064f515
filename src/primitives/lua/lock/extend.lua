-- KEYS: lock. ARGV: token, ttl. 1 extended, 0 not ours.
--@include lib/holds.lua
local v = redis.call('get', KEYS[1])
if holds(v, ARGV[1]) then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
