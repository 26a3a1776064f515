-- A piece the scripts of the lock (lock/) and the read-write lock (rwlock/) include.
-- issue(): the next fencing token of a key: the server's clock in microseconds, or one more
-- than the last token when that is not below it. The counter outlives its last token by
-- keep ms (FENCE_KEEP_MS past the lease), then expires: nothing is kept for ever, and the
-- token after the expiry is the clock, past every earlier token. By induction, each token is
-- at most the clock when it was issued (a script takes more than a microsecond of a
-- single-threaded server, so the clock moves on between two tokens), so the clock at the
-- next acquire is past it, counter or not. The counter keeps the sequence increasing should
-- the clock step back while it lives (an NTP step, a failover to a replica whose clock is
-- behind): a step back by more than keep ms after the counter expired is the one case it
-- does not cover. With Redlock a master's counter may be raised to another master's clock:
-- the same holds while the masters' clocks agree within keep ms. Tokens fit a double exactly
-- until the year 2255.
--@include lib/atleast.lua
local function issue(fence, keep)
  local t = redis.call('time')
  local f = tonumber(t[1]) * 1000000 + tonumber(t[2])
  local last = tonumber(redis.call('get', fence))
  if last and last >= f then f = last + 1 end
  redis.call('set', fence, string.format('%.0f', f), 'KEEPTTL')
  atleast(fence, keep)
  return f
end
