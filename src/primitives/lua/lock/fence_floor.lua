-- KEYS: lock, fence. ARGV: floor, keep, token. While the lock holds token: raise the fencing
-- counter to at least floor (Redlock), keep it keep ms at least, and return 1; otherwise
-- (the lease ran out before the raise came) 0, and nothing changed: a raise that counts
-- came while the holder still had this master, so whoever takes it next comes after it.
--@include lib/atleast.lua
--@include lib/raise.lua
--@include lib/holds.lua
local v = redis.call('get', KEYS[1])
if not holds(v, ARGV[3]) then return 0 end
raise(KEYS[2], ARGV[1], ARGV[2])
return 1
