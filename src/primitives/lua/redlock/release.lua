-- Redlock's release on one master (redlock.c; the queue: _queue.lua). KEYS: lock, queue,
-- lease, grants, waiters. ARGV: token ("*": whoever holds it, RLock::forceUnlock()), ticket
-- ("0": none; else we give back a master of a vote we lost and stay on the queue with it),
-- lease ms, self prefix. 1 released, 0 not ours. Without a ticket the token leaves the queue
-- too: a holder that won on a quorum may still be on the queue of a master it did not win
-- (where it would be the head that never comes).
-- The key is freed, never handed over: the queue's head is woken (its own list), takes it
-- in its next round there, and holds the lock once it took a quorum of masters. A waiter of
-- the vote without a queue ('fair' => false: lock/acquire.lua's count of waiters) is woken
-- on grants, as the one-server release wakes its waiters.
--@include lib/atleast.lua
--@include redlock/_queue.lua
--@include lib/holds.lua
local lock, queue, lease, grants, waiters = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local token, ticket, ms, selfp = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4]
local v = redis.call('get', lock)
local r = 0
if v and (token == '*' or holds(v, token)) then
  redis.call('del', lock)
  r = 1
end
if ticket ~= '0' or redis.call('exists', queue) == 1 then
  local now = clock_ms()
  purge(queue, lease, now)
  if ticket ~= '0' then join(queue, lease, token, ticket, now, ms) else leave(queue, lease, token) end
  wake(lock, queue, selfp, token, ms)
end
if r == 1 and (tonumber(redis.call('get', waiters)) or 0) > 0 and redis.call('llen', grants) == 0 then
  redis.call('rpush', grants, 'wake')
  redis.call('pexpire', grants, ms)
end
return r
