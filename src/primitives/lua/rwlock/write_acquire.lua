-- KEYS: write, read, writers, readers, wgrants, rwake, wfence[, self] (rwlock/_keys.lua).
-- ARGV: "token ttl fencing wait keep", the caller's own token (its waiting mark; a grant
-- it popped is the token). In when "write" holds the token (a grant popped), when a grant
-- nobody took is on wgrants, or when no writer holds it and no reader is in. A writer that
-- gives up behind readers, its mark the last one, lets the waiting readers in.
--@include lib/issue.lua
--@include rwlock/_now.lua
--@include rwlock/_keys.lua
--@include rwlock/_args.lua
--@include rwlock/_blocked.lua
--@include rwlock/_readers_in.lua
local function won(tok)
  redis.call('pexpire', W, ttl)
  redis.call('zrem', WQ, ARGV[2])
  local f = 0
  if fencing == '1' then f = issue(F, keep) end
  told()
  return {1, tok, f}
end
local function gave_up()
  redis.call('zremrangebyscore', WQ, '-inf', now)
  if redis.call('zcard', WQ) == 0 then readers_in() end
end
local writer = redis.call('get', W)
if writer == token then return won(token) end
if writer then
  local g = redis.call('llen', WG) > 0 and redis.call('lpop', WG)
  while g do
    if string.match(g, '^(%x+) ') == writer then return won(writer) end
    g = redis.call('lpop', WG)
  end
  return blocked(WQ, ARGV[2], redis.call('pttl', W))
end
redis.call('zremrangebyscore', R, '-inf', now)
local last = redis.call('zrange', R, -1, -1, 'WITHSCORES')
if #last == 0 then redis.call('set', W, token, 'PX', ttl) return won(token) end
return blocked(WQ, ARGV[2], math.floor(tonumber(last[2]) - now), gave_up)
