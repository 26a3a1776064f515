-- A piece every semaphore script includes.
-- The Lua every semaphore script shares: KEYS holders, queue, waiters. A script reads the
-- count of permits held in all once, keeps it in a local as it changes, and writes it back
-- once at its end (a release that serves the next waiter changes it by nothing).
-- used(): the count as stored; save(u): u stored, unless it is what is stored.
-- purge(now): the holders whose lease ended gone; the permits they had.
-- fits(n, limit, u): whether n more permits fit when u are held, within limit (the caller's
-- count) and the smallest count a holder named (read once per script, and only when some
-- are held and n fits limit: no command where nothing is held or limit already refuses).
-- take(): n permits to tok for ticket tk, its lease ttl from now (a longer one it has is
-- kept), limit its count; the permits tok has now (the count held is the caller's to raise
-- by n).
-- served(tk): the score of "%" token when ticket tk gave it permits; have(tok): the permits
-- tok has.
-- serve(): the queue served from its head while the head's permits fit (u: the count held
-- now): credited to the head's holder and "g <permits it has now>" pushed on its own list,
-- but for me (the caller's ticket, or nil), whose permits the caller's reply tells. A head
-- left waiting whose round blocks past the end of a lease given here (a shorter ttl than
-- the lease it counted on: a waiter that died once served holds its permits only that long)
-- gets "0" pushed on its list: it tries again, and blocks until that lease ends at most. Returns
-- the permits me was given (false: not served), the count held after, the head left ({ticket,
-- deadline}; nil: the queue is empty) and me's record as found (nil: me was not queued, or
-- left the queue). The queue is read a few tickets at a time, their records in the same
-- HMGET.
--@include lib/atleast.lua
--@include lib/clock_ms.lua
local H, Q, W = KEYS[1], KEYS[2], KEYS[3]
local stored
local function used() stored = -(tonumber(redis.call('zscore', H, '#used')) or 0) return stored end
local function save(u) if u ~= stored then redis.call('zadd', H, -u, '#used') stored = u end end
local function purge(now)
  local m = 0
  for _, h in ipairs(redis.call('zrangebyscore', H, '(0', now)) do
    m = m - (tonumber(redis.call('zscore', H, '#' .. h)) or 0)
    redis.call('zrem', H, h, '#' .. h, '%' .. h, '!' .. h)
  end
  return m
end
local least
local function fits(n, limit, u)
  if n > limit - u then return false end
  if u <= 0 then return true end
  if not least then
    local f = redis.call('zrange', H, 0, 0, 'WITHSCORES')
    least = f[2] and tonumber(f[2]) < -5e15 and tonumber(f[2]) + 2^53 or math.huge
  end
  return n <= least - u
end
local function served(tk) return -(tonumber(string.sub(tk, 1, 13), 16) + 1) end
local function have(tok) return -(tonumber(redis.call('zscore', H, '#' .. tok)) or 0) end
local function take(tok, n, ttl, now, tk, limit)
  local have = -tonumber(redis.call('zincrby', H, -n, '#' .. tok))
  redis.call('zadd', H, served(tk), '%' .. tok, limit - 2^53, '!' .. tok)
  if least and limit < least then least = limit end
  local lease = have > n and tonumber(redis.call('zscore', H, tok))
  if not lease or lease < now + ttl then redis.call('zadd', H, now + ttl, tok) end
  atleast(H, ttl, ttl)
  return have
end
local function drop(ts, k)
  redis.call('ltrim', Q, k, -1)
  redis.call('hdel', W, unpack(ts, 1, k))
end
local function push(w, v)
  local s = H .. '-self-' .. w
  redis.call('rpush', s, v)
  redis.call('pexpire', s, 10000)
end
local function serve(now, u, me)
  local given, rec, soonest = false, nil, nil
  while true do
    local ts = redis.call('lrange', Q, 0, 3)
    local nt = #ts
    if nt == 0 then return given, u, nil, rec end
    if me then ts[nt + 1] = me end
    local rs = redis.call('hmget', W, unpack(ts))
    if me then rec = rs[nt + 1] or nil ts[nt + 1] = nil end
    for i = 1, nt do
      local w = ts[i]
      local n, ttl, dl, tok, limit = string.match(rs[i] or '', '^(%d+) (%d+) (%d+) (%x+) (%d+)$')
      if n and tonumber(dl) >= now then
        if not fits(tonumber(n), tonumber(limit), u) then
          if i > 1 then drop(ts, i - 1) end
          if soonest and w ~= me and soonest + 1 < tonumber(dl) - 1000 then push(w, '0') end
          return given, u, {w, tonumber(dl)}, rec
        end
        local have = take(tok, tonumber(n), tonumber(ttl), now, w, tonumber(limit))
        u = u + tonumber(n)
        if not soonest or now + tonumber(ttl) < soonest then soonest = now + tonumber(ttl) end
        if w == me then given = have else push(w, 'g ' .. have) end
      end
      if w == me then rec = nil end
    end
    drop(ts, nt)
  end
end
