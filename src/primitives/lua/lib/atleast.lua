-- A piece the scripts include (--@include lib/atleast.lua), no script of its own.
-- atleast(): key lives at least ms more (a key without expiry gets one); with more, a key
-- found short of ms is given ms + more, so that the calls that follow within more ms find it
-- long enough and leave it (one command each, PTTL, instead of two).
local function atleast(key, ms, more)
  ms = tonumber(ms)
  if redis.call('pttl', key) < ms then redis.call('pexpire', key, ms + (more or 0)) end
end
