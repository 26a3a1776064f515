-- KEYS: read. ARGV: token, ttl. 1 the reader's lease set to ttl from now, 0 not ours.
--@include lib/atleast.lua
--@include rwlock/_now.lua
local s = redis.call('zscore', KEYS[1], ARGV[1])
if not s or tonumber(s) <= now then return 0 end
redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
atleast(KEYS[1], ARGV[2])
return 1
