-- KEYS: the limit. ARGV: what the take script said the key held after taking n permits
-- ("us rest"), "limit q s" (their cost). The permits given back when nobody took any after
-- them (the key still holds that): 1, else 0 (the ones taken since are due when they were
-- told, so giving these back would admit more than the limit around then).
--@include ratelimit/_rate.lua
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
local a, r = string.match(ARGV[1], '^(%d+) (%d+)$')
local l, q, s = string.match(ARGV[2], '^(%d+) (%d+) (%d+)$')
a, r, l, q, s = tonumber(a), tonumber(r), tonumber(l), tonumber(q), tonumber(s)
a, r = a - q, r - s
if r < 0 then a, r = a - 1, r + l end
local now = now_us()
if a < now or (a == now and r == 0) then redis.call('del', KEYS[1]) else set_tat(KEYS[1], a, r, now) end
return 1
