-- KEYS: holders. ARGV: limit. The permits free now to a caller of that count (within the
-- smallest count its holders named), counting those of ended leases free; changes
-- nothing.
--@include semaphore/_semaphore.lua
local now = clock_ms()
local limit, u, ended = tonumber(ARGV[1]), used(), {}
for _, h in ipairs(redis.call('zrangebyscore', H, '(0', now)) do
  u = u + (tonumber(redis.call('zscore', H, '#' .. h)) or 0)
  ended['!' .. h] = true
end
local counts = redis.call('zrangebyscore', H, '-inf', '(-5e15', 'WITHSCORES')
for i = 1, #counts, 2 do
  if not ended[counts[i]] then limit = math.min(limit, tonumber(counts[i + 1]) + 2^53) end
end
return math.max(limit - u, 0)
