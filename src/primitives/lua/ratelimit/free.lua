-- KEYS: the limit. ARGV: "limit bq bs" (the burst's cost). How much of the burst is free
-- now, {us, rest}: now + burst * T - tat, {0, 0} when none; changes nothing.
--@include ratelimit/_rate.lua
local l, bq, bs = string.match(ARGV[1], '^(%d+) (%d+) (%d+)$')
l, bq, bs = tonumber(l), tonumber(bq), tonumber(bs)
local now = now_us()
local a, r = tat(KEYS[1], l, now)
local da, dr = now + bq - a, bs - r
if dr < 0 then da, dr = da - 1, dr + l end
if da < 0 then return {0, 0} end
return {da, dr}
