-- KEYS: lock, grants, waiters, fence, wakes of each key. ARGV: token, "fair ttl keep", a fresh
-- token for each key (space-separated), what a hand-over of that key sets it to. Each key
-- still ours is released as the mutex's release does (free(); a bare token: nobody waits,
-- lock/acquire.lua). 1: all were ours; 0: some
-- were not (those that were are released all the same). Token '*' (RLOCK_TOKEN_ANY,
-- forceUnlock()): each key whoever holds it; 1: one was held.
--@include lib/free.lua
--@include lib/holds.lua
local token = ARGV[1]
local fair, ttl, keep = string.match(ARGV[2], '^([01]) (%d+) (%d+)$')
local ours, i = 0, 0
for nexttoken in string.gmatch(ARGV[3], '%x+') do
  local lock, waiters = KEYS[5 * i + 1], KEYS[5 * i + 3]
  local holder = redis.call('get', lock)
  if holder and (token == '*' or holds(holder, token)) then
    ours = ours + 1
    local n = 0
    if holder ~= token then n = tonumber(redis.call('get', waiters)) or 0 end
    if n <= 0 then redis.call('del', lock)
    else free(lock, KEYS[5 * i + 2], waiters, KEYS[5 * i + 4], KEYS[5 * i + 5], n, nexttoken, fair, ttl, keep) end
  end
  i = i + 1
end
if ours == i or (token == '*' and ours > 0) then return 1 end
return 0
