-- A piece the scripts include (--@include lib/holds.lua), no script of its own.
-- holds(): whether v, a mutex key's value, says token holds it: the token bare, or marked
-- with the "+" that tells its release that waiters are counted (lock/acquire.lua); scripts.c's
-- rlock_reply_holds() reads a GET's reply the same way.
local function holds(v, token)
  return v == token or v == token .. '+'
end
