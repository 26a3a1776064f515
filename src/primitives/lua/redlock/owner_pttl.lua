-- restore()'s look at one Redlock master (redlock.c): KEYS: lock. ARGV: token. The key's
-- PTTL when it holds token, else -3: a master where another token holds the key lends the
-- restored hold no lease, and the key cannot change hands between the two reads. The token
-- marked by a waiter of the vote (lock/acquire.lua's "+") is the holder's too.
--@include lib/holds.lua
local v = redis.call('get', KEYS[1])
if holds(v, ARGV[1]) then return redis.call('pttl', KEYS[1]) end
return -3
