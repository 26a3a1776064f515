-- A piece the scripts include (--@include lib/raise.lua, after lib/atleast.lua), no script of
-- its own.
-- raise(): the fencing counter up to fence, never lowered (a token issued since stays the
-- last), and kept keep ms at least: a Redlock win's on each master it holds
-- (lock/fence_floor.lua), a heal's on a master that lost the key with it
-- (lock/extend_heal.lua, lock/renew.lua).
local function raise(counter, fence, keep)
  if (tonumber(redis.call('get', counter)) or 0) < tonumber(fence) then redis.call('set', counter, fence, 'KEEPTTL') end
  atleast(counter, keep)
end
