-- KEYS: holders, queue, waiters, self. ARGV: token, n, limit, ttl, wait, ticket, blocking
-- (a BLPOP on self follows), fresh (the ticket's first call: it cannot have been served, and
-- nothing is on self yet). {1, token, permits token has now} taken (and "1" pushed on self
-- when blocking); {0, pttl of the first lease or -2, block ms} not, and with wait > 0 the
-- ticket queued (or its deadline moved), with wait 0 the ticket left the queue. A later call
-- empties self (what an earlier round left there) and, when the ticket was served already
-- (a grant its BLPOP was not there to take, or a win or grant whose reply was lost) and
-- token's lease has not ended, wins with the permits token has, taking none again (the
-- lease ttl from now). A ticket lives 1000 ms
-- past its round's end: a waiter later than that loses its place (it comes back as a
-- newcomer: takes what is free when nobody waits, else queues at the back), a dead one holds
-- the head of the queue that long at most. A ticket's record is "n ttl deadline token
-- limit": the limit its waiter names is what the queue is served by while it is the head.
-- The queue and the records expire together, given a little more than the wait each time
-- they need more (their PTTLs are equal: they are only ever given one together).
--@include semaphore/_semaphore.lua
local self = KEYS[4]
local token, n, limit, ttl, wait, ticket = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]
local function won(have)
  if ARGV[7] == '1' then redis.call('rpush', self, '1') redis.call('pexpire', self, 10000) end
  return {1, token, math.max(have, n)}
end
local now = clock_ms()
if ARGV[8] ~= '1' then
  redis.call('del', self)
  if tonumber(redis.call('zscore', H, '%' .. token)) == served(ticket) then
    local lease = tonumber(redis.call('zscore', H, token))
    if lease and lease > now then
      if lease < now + ttl then redis.call('zadd', H, now + ttl, token) atleast(H, ttl, ttl) end
      return won(have(token))
    end
  end
end
local function first()
  local f = redis.call('zrangebyscore', H, '(0', '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  return f[2] and tonumber(f[2])
end
local lease = first()
local u = used()
if lease and lease <= now then
  u = u - purge(now)
  lease = first()
end
local u0 = u
local given, head, rec
given, u, head, rec = serve(now, u, ticket)
if given then save(u) return won(given) end
local queued = rec ~= nil
if not queued and not head and fits(n, limit, u) then
  local have = take(token, n, ttl, now, ticket, limit)
  save(u + n)
  return won(have)
end
if u > u0 then lease = first() end
local pttl = -2
if lease then pttl = lease - now end
if wait <= 0 then
  if queued then
    redis.call('lrem', Q, 1, ticket)
    redis.call('hdel', W, ticket)
    u = select(2, serve(now, u, nil))
  end
  save(u)
  return {0, pttl, 0}
end
local block = wait
if pttl >= 0 and pttl + 1 < block then block = pttl + 1 end
if head and head[1] ~= ticket and head[2] - now + 1 < block then block = math.max(head[2] - now + 1, 1) end
redis.call('hset', W, ticket, n .. ' ' .. ttl .. ' ' .. string.format('%.0f', now + block + 1000) .. ' ' .. token .. ' ' .. limit)
if not queued then redis.call('rpush', Q, ticket) end
local keep = block + 2000
if not head or redis.call('pttl', W) < keep then
  redis.call('pexpire', Q, 2 * keep)
  redis.call('pexpire', W, 2 * keep)
end
save(u)
return {0, pttl, block}
