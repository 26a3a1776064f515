-- KEYS: holders. ARGV: token. The permits token holds under a lease that has not ended (0:
-- none); changes nothing.
--@include semaphore/_semaphore.lua
local lease = tonumber(redis.call('zscore', H, ARGV[1]))
if not lease or lease <= clock_ms() then return 0 end
return have(ARGV[1])
