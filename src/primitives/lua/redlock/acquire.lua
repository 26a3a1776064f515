-- Redlock's acquire on one master, waiters in order (redlock.c; the queue: _queue.lua).
-- KEYS: lock, queue, lease, fence, self. ARGV: token, ttl, fencing, wait (1: join the queue,
-- or stay on it, when not won; 0: leave it), ticket, lease ms, keep (the fencing counter's
-- life past a token), self prefix (selfp .. a token: that waiter's own list).
-- Won when the key holds our token already (an acquire whose reply was lost, tried again),
-- or is free and the queue is empty or has us at its head (once we joined it: our ticket
-- may be the earliest, a join that missed this master before): {1, token, fence}, and we
-- leave the queue. Else {0, pttl, place}: place 1 the head, 0 not on the queue (wait 0). A newcomer
-- never takes a free key that a queue waits for: it joins the queue's tail. A round clears
-- our own list (a wake pushed before this round is answered by it), and wakes the head
-- when the key is free (its wake may have gone to a waiter whose place has just ended).
--@include lib/issue.lua
--@include redlock/_queue.lua
--@include lib/holds.lua
local lock, queue, lease, fence, self = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local token, ttl, fencing, wait, ticket = ARGV[1], ARGV[2], ARGV[3] == '1', ARGV[4] == '1', ARGV[5]
local ms, keep, selfp = tonumber(ARGV[6]), ARGV[7], ARGV[8]
-- (an empty queue, the uncontended case, costs no more than looking whether it exists)
redis.call('del', self)
local holder = redis.call('get', lock)
local function won()
  local f = 0
  if fencing then f = issue(fence, keep) end
  return {1, token, f}
end
if holds(holder, token) then
  redis.call('pexpire', lock, ttl)
  leave(queue, lease, token)
  return won()
end
local now, first = clock_ms(), nil
if redis.call('exists', queue) == 1 then
  purge(queue, lease, now)
  first = head(queue)
end
if not holder and not first then
  redis.call('set', lock, token, 'PX', ttl)
  return won()
end
if wait then
  join(queue, lease, token, ticket, now, ms)
  first = head(queue)
end
if not holder and first == token then
  redis.call('set', lock, token, 'PX', ttl)
  leave(queue, lease, token)
  return won()
end
local place = 0
if wait then place = redis.call('zrank', queue, token) + 1 else leave(queue, lease, token) end
if not holder then wake(lock, queue, selfp, token, ms) end
return {0, redis.call('pttl', lock), place}
