-- KEYS: lock. ARGV: token, ttl. 1 extended, 0 not ours.
-- (the token, or the token marked: lock/acquire.lua)
local v = redis.call('get', KEYS[1])
if v == ARGV[1] or v == ARGV[1] .. '+' then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
