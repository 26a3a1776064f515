-- A piece every rate limiter script includes. now_us(): the server's clock in us. tat(key, limit, now): the
-- TAT stored at key as {us, rest} (rest below limit, should another limit have written it),
-- now when there is none or it has passed. set_tat(key, a, r, now): store TAT {a, r} (in the
-- future) at key, expiring then; returns what it stored.
if redis.replicate_commands then redis.replicate_commands() end
local function now_us()
  local t = redis.call('time')
  return tonumber(t[1]) * 1000000 + tonumber(t[2])
end
local function tat(key, limit, now)
  local a, r = string.match(redis.call('get', key) or '', '^(%d+) (%d+)$')
  a, r = tonumber(a), tonumber(r)
  if a and (a > now or (a == now and r > 0)) then return a, math.min(r, limit - 1) end
  return now, 0
end
local function set_tat(key, a, r, now)
  local v, ttl = string.format('%.0f %d', a, r), a - now
  if r > 0 then ttl = ttl + 1 end
  redis.call('set', key, v, 'PX', math.ceil(ttl / 1000))
  return v
end
