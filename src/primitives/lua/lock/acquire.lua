-- KEYS: lock, grants, waiters, fence[, self]. ARGV: token, ttl, fencing, wait, queued, keep
-- (the fencing counter's life past a token).
-- A key that holds our token already is ours: an acquire whose reply was lost, tried again
-- with the same token.
-- A grant is left on the list, not popped by a BLPOP, when the waiter it was meant for was not
-- blocked when the release pushed it: it died, or it is between two rounds (woken by a
-- "wake" or by its own "0", not back yet). The release counted one waiter out already: a
-- counted caller that takes the grant over is that one. A caller not counted takes it over
-- counting itself in first, in the place of the waiter the grant was meant for, who, alive,
-- believes itself counted: uncounted, a release would free the key while it blocks, and
-- nothing would wake it before its wait ends. That is when others are counted still; when
-- none is (the release deleted the count), a waiter that comes back counted in its own eyes
-- finds no count and counts itself again. (A dead waiter so stays counted while others wait:
-- a release may then hand the key over to nobody again, as the first after its death did,
-- and the next acquire takes that over at once.)
-- {1, token, fence} acquired (and "1" pushed on self, for the BLPOP sent right after this
-- call); the key's PTTL (an integer) not, and with wait > 0 the caller counted among the
-- waiters ("waiters" lives 500 to 1500 ms past the longest wait it covers): the caller blocks
-- until the holder's lease ends or its wait does (scripts.c: attempt_block()), the
-- {0, pttl, block} of the other acquires in one integer (Redis makes a table returned into
-- a reply of 4 objects, and writes it with a writev). queued: the caller is counted
-- already.
-- The mark: while waiters are counted, the key holds its holder's token and a "+" (set by a
-- waiter's round, by a hand-over that leaves waiters counted, by an acquire of a free key
-- with waiters counted), so that a release that finds its bare token knows nobody waits
-- without reading the count: the classic GET and DEL. A key taken by the plain SET NX
-- (lock.c: a key not found taken lately) while waiters are counted (they were woken,
-- not handed it) stays bare until one of them comes back and marks it; should the woken one
-- have died, an unfair lock's release still finds the count (lock/release.lua), and without
-- a release the others' rounds end when the lease they saw would (block below).
-- The key is read first: a waiter's round, the path this script mostly runs (a free key is
-- first tried with a plain SET), then costs one call less than a SET NX that fails. The
-- grants are looked at with LLEN before any LPOP: on a Redis out of memory, the first write
-- of an acquire that takes a free key or joins the waiters is one Redis refuses (SET, INCR),
-- and the script fails at once with OOM, having changed nothing.
-- That round (the key held by another, no grant left for nobody, a wait, no fencing) comes
-- first, before the functions of the general path are made (Redis makes each anew at every
-- call; with the integer reply, 6 us of Redis' 24 a round): the general path's calls, in its
-- order.
local holder, token, wait = redis.call('get', KEYS[1]), ARGV[1], tonumber(ARGV[4])
if holder and wait > 0 and ARGV[3] == '0' and holder ~= token and holder ~= token .. '+'
    and redis.call('llen', KEYS[2]) == 0 then
  local pttl, left = redis.call('pttl', KEYS[1]), redis.call('pttl', KEYS[3])
  if ARGV[5] == '0' or left == -2 then redis.call('incr', KEYS[3]) end
  if left < wait + 500 then redis.call('pexpire', KEYS[3], wait + 1500) end
  if string.byte(holder, -1) ~= 43 then redis.call('append', KEYS[1], '+') end
  return pttl
end
--@include lib/issue.lua
local lock, grants, waiters, fence, self = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local ttl, fencing, queued, keep = ARGV[2], ARGV[3] == '1', ARGV[5] == '1', ARGV[6]
local marked = holder and string.byte(holder, -1) == 43
if marked then holder = string.sub(holder, 1, -2) end
-- (the last waiter gone, the key bare again: the holder's release is the classic's)
local function leave()
  if queued and redis.call('decr', waiters) <= 0 then
    redis.call('del', waiters)
    if marked then redis.call('set', lock, holder, 'KEEPTTL') marked = false end
  end
end
local function won(t, f)
  leave()
  if fencing and f == 0 then f = issue(fence, keep) end
  if self then redis.call('rpush', self, '1') redis.call('pexpire', self, 10000) end
  return {1, t, f}
end
if not holder then
  local v = token
  if queued then
    if redis.call('decr', waiters) > 0 then v = token .. '+' else redis.call('del', waiters) end
    queued = false
  elseif redis.call('exists', waiters) == 1 then
    v = token .. '+'
  end
  redis.call('set', lock, v, 'PX', ttl)
  return won(token, 0)
end
if holder == token then redis.call('pexpire', lock, ttl) return won(token, 0) end
local g = redis.call('llen', grants) > 0
if g and not queued and redis.call('exists', waiters) == 1 then redis.call('incr', waiters) queued = true end
g = g and redis.call('lpop', grants)
while g do
  local t, f = string.match(g, '^(%x+) (%d+)')
  if t and holder == t then
    redis.call('pexpire', lock, ttl)
    queued = false
    return won(t, tonumber(f))
  end
  g = redis.call('lpop', grants)
end
local pttl = redis.call('pttl', lock)
if wait <= 0 then leave() return pttl end
local left = redis.call('pttl', waiters)
if not queued or left == -2 then redis.call('incr', waiters) end
if left < wait + 500 then redis.call('pexpire', waiters, wait + 1500) end
if fencing then redis.call('set', fence, '0', 'NX') atleast(fence, wait + 500) end
if not marked then redis.call('append', lock, '+') end
return pttl
