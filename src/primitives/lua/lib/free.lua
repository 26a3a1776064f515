-- A piece the releases of the lock (lock/) and of a lock over several keys (multi/) include.
-- free(): a release of a key with waiters, n their count (> 0). A waiter of the mutex counts 1 in
-- it, a waiter of a lock over several keys (multi/) 2^32 (exact in a Lua number up to 2^21 of
-- them). With only the mutex's waiters and fair, the key goes straight to the longest of them: set
-- to nexttoken (ttl its lease), its count uncounted, the grant "token fence ttl" pushed on grants,
-- the key marked while others wait (lock/acquire.lua) (a fencing token issued when a fencing waiter
-- made the counter exist): 2. Otherwise the key is freed, and a "wake" pushed for each waiter of a
-- multi lock on wakes (each waits on every key's wakes and takes all of its keys or none) and on
-- grants one for the mutex's (each of them when fair, below), unless the list has them: the first
-- to try again takes it: 1. A multi waiter is never handed one key, and never blocks on grants: a
-- grant can wait there for a mutex waiter that is not blocked at that moment (woken by a "wake",
-- not yet back), which a multi waiter's BLPOP would pop and drop (the key then held by nobody for a
-- whole lease).
--@include lib/issue.lua
-- out: the caller counted one waiter out already (a DECR that read n, the count before it).
local function free(lock, grants, waiters, fence, wakes, n, nexttoken, fair, ttl, keep, out)
  local multi = math.floor(n / 4294967296)
  if fair == '1' and multi == 0 then
    local v = nexttoken
    if n > 1 then
      if not out then redis.call('decr', waiters) end
      v = nexttoken .. '+'
    else
      redis.call('del', waiters)
    end
    local f = 0
    if redis.call('exists', fence) == 1 then f = issue(fence, keep) end
    redis.call('set', lock, v, 'PX', ttl)
    redis.call('rpush', grants, nexttoken .. ' ' .. string.format('%.0f', f) .. ' ' .. ttl)
    redis.call('pexpire', grants, ttl)
    return 2
  end
  if out then redis.call('incr', waiters) end
  redis.call('del', lock)
  local function wake(list, want)
    local have = redis.call('llen', list)
    if have >= want then return end
    local w = {}
    for i = 1, want - have do w[i] = 'wake' end
    redis.call('rpush', list, unpack(w))
    redis.call('pexpire', list, ttl)
  end
  if multi > 0 then wake(wakes, math.min(multi, 1000)) end
  -- Fair, a key is freed with the mutex's waiters counted only for a multi waiter's sake: each
  -- of them is woken, as the multi waiters are. One alone could stall (or have died) before
  -- its next round while a newcomer's plain SET NX takes the key bare, and the fair release
  -- of a bare token reads no count (lock/release.lua): the others would sleep out the lease
  -- they saw (CONTRACT 3.6). Unfair, one is woken: that release reads the count.
  local mutex = n - multi * 4294967296
  if mutex > 0 then wake(grants, fair == '1' and math.min(mutex, 1000) or 1) end
  return 1
end
