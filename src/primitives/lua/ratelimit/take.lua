-- KEYS: one per limit. ARGV: reserve (us), then per limit "limit q s bq bs": a limit, the
-- cost of the permits asked (q + s / limit us) and the burst's (bq + bs / limit). Every
-- limit decided; written only when each admits within reserve. {1, wait..., tat} taken (each
-- limit's us until its permits are due, and what the first key now holds), {0, wait...}
-- refused (each limit's us until they would be due; 0 where it alone admits), nothing
-- changed.
--@include ratelimit/_rate.lua
local now, reserve = now_us(), tonumber(ARGV[1])
local waits, tats, ok = {}, {}, 1
for i = 1, #KEYS do
  local l, q, s, bq, bs = string.match(ARGV[i + 1], '^(%d+) (%d+) (%d+) (%d+) (%d+)$')
  l, q, s, bq, bs = tonumber(l), tonumber(q), tonumber(s), tonumber(bq), tonumber(bs)
  local a, r = tat(KEYS[i], l, now)
  a, r = a + q, r + s
  if r >= l then a, r = a + 1, r - l end
  local da, dr = a - bq, r - bs
  if dr < 0 then da, dr = da - 1, dr + l end
  local w = da - now
  if dr > 0 then w = w + 1 end
  if w < 0 then w = 0 end
  if w > reserve then ok = 0 end
  waits[i], tats[i] = w, {a, r}
end
if ok == 0 then return {0, unpack(waits)} end
for i = 1, #KEYS do
  tats[i] = set_tat(KEYS[i], tats[i][1], tats[i][2], now)
end
waits[#KEYS + 1] = tats[1]
return {1, unpack(waits)}
