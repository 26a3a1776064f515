-- A piece the read-write lock's scripts include.
-- A release that lets a waiting writer in, when one waits and nobody is in: "write" set to
-- the next token, with the lease handed() gives the latest mark's writer (the writer
-- blocked longest pops the grant; a dead one blocks nobody, so the grant goes unclaimed
-- only when no live writer is blocked). The one writer waiting has its mark cut to that
-- lease too: should it have died there, new readers wait for it no longer. With readers
-- still in, the longest of them a reader let in and not back yet (who may have died
-- there), a waiting writer plans its round again.
--@include rwlock/_wake_writer.lua
local function grant_writer()
  redis.call('zremrangebyscore', R, '-inf', now)
  local last = redis.call('zrange', R, -1, -1, 'WITHSCORES')
  if #last > 0 then
    if string.find(last[2], '.', 1, true) then wake_writer() end
    return 1
  end
  redis.call('zremrangebyscore', WQ, '-inf', now)
  local latest = redis.call('zrange', WQ, -2, -1, 'WITHSCORES')
  if #latest == 0 then return 1 end
  local lease = handed(latest[#latest])
  if #latest == 2 then redis.call('zadd', WQ, now + lease, latest[1]) end
  redis.call('set', W, ARGV[2], 'PX', lease)
  redis.call('rpush', WG, ARGV[2] .. ' 0 ' .. lease)
  redis.call('pexpire', WG, lease)
  return 2
end
