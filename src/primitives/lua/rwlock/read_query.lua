-- KEYS: read. ARGV: token, or '*' (RLOCK_TOKEN_ANY) for any reader. With a token: 1 its lease
-- runs, else 0. With '*': the longest lease left in ms, -2 when no reader is in.
--@include rwlock/_now.lua
if ARGV[1] ~= '*' then
  local s = redis.call('zscore', KEYS[1], ARGV[1])
  return (s and tonumber(s) > now) and 1 or 0
end
local last = redis.call('zrange', KEYS[1], -1, -1, 'WITHSCORES')
if #last == 0 or tonumber(last[2]) <= now then return -2 end
return math.floor(tonumber(last[2]) - now)
