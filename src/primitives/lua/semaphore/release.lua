-- KEYS: holders, queue, waiters. ARGV: token, n (0: all), and optionally lost, the ticket of
-- an acquire of token whose reply never came. n of token's permits back (all it has, should
-- that be fewer), and the queue served. lost first leaves the queue (it is never served
-- after this), and with n > 0, n go back only if lost was what last gave token permits (else
-- none). The permits token has left, -1 none were ours (unknown, or its lease had ended).
--@include semaphore/_semaphore.lua
local now = clock_ms()
local tok, n, lost = ARGV[1], tonumber(ARGV[2]), ARGV[3]
if lost then
  redis.call('del', H .. '-self-' .. lost)
  if redis.call('hdel', W, lost) == 1 then redis.call('lrem', Q, 1, lost) end
  local mark = tonumber(redis.call('zscore', H, '%' .. tok))
  if mark then redis.call('zrem', H, '%' .. tok) end
  if n > 0 and mark ~= served(lost) then n = -1 end
end
local lease = tonumber(redis.call('zscore', H, tok))
if not lease and not lost then return -1 end
local mine = lease and have(tok) or 0
if n < 0 then n = 0 elseif n == 0 or n > mine then n = mine end
if n < mine then
  if n > 0 then redis.call('zincrby', H, n, '#' .. tok) end
elseif lease then redis.call('zrem', H, tok, '#' .. tok, '%' .. tok, '!' .. tok) end
local u = used() - n - purge(now)
local _, head
_, u, head = serve(now, u, nil)
if u <= 0 and not head then redis.call('del', H) else save(u) end
if not lease or lease < now then return -1 end
return mine - n
