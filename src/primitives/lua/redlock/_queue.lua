-- A piece Redlock's scripts include (after lib/atleast.lua): one master's queue of waiters.
-- queue: a sorted set of the waiters' tokens, each scored with its ticket, the waiter's
-- clock in microseconds when it began to wait, sent alike to every master: every master
-- orders the waiters it has the same way (ties by token), so the queues of two masters can
-- differ in who is on them (a join that did not reach one), never in the order of those on
-- both. lease: the same tokens scored with the ms, by this server's clock, that their place
-- ends by unless a round of theirs renews it (a waiter that died leaves the queue then).
-- The key is free to take only for the queue's head, or anyone when the queue is empty.
-- A waiter blocks on its own list (selfp .. its token) on one master; wake() pushes "wake"
-- there for the head when the key is free, as a release does.
--@include lib/clock_ms.lua
local function purge(queue, lease, now)
  local gone = redis.call('zrangebyscore', lease, '-inf', now, 'LIMIT', 0, 100)
  if #gone > 0 then
    redis.call('zrem', queue, unpack(gone))
    redis.call('zrem', lease, unpack(gone))
  end
end
local function head(queue)
  return redis.call('zrange', queue, 0, 0)[1]
end
local function join(queue, lease, token, ticket, now, ms)
  redis.call('zadd', queue, ticket, token)
  redis.call('zadd', lease, now + ms, token)
  atleast(queue, 2 * ms)
  atleast(lease, 2 * ms)
end
local function leave(queue, lease, token)
  redis.call('zrem', queue, token)
  redis.call('zrem', lease, token)
end
local function wake(lock, queue, selfp, but, ms)
  if redis.call('exists', lock) == 1 then return end
  local h = head(queue)
  if h and h ~= but then
    local s = selfp .. h
    if redis.call('llen', s) == 0 then
      redis.call('rpush', s, 'wake')
      redis.call('pexpire', s, ms)
    end
  end
end
