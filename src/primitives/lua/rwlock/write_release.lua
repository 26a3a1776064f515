-- KEYS: write, read, writers, readers, wgrants, rwake, wfence[, self] (rwlock/_keys.lua).
-- ARGV: token, next token. 0 not ours, 1 released, 2 let the waiting readers in (all of
-- them; a waiting writer, whose round was planned against our lease, plans it again), or
-- else handed the lock to a waiting writer. Token '*' (RLOCK_TOKEN_ANY, forceUnlock()):
-- whoever writes; 0 nobody did.
--@include lib/atleast.lua
--@include rwlock/_now.lua
--@include rwlock/_keys.lua
--@include rwlock/_readers_in.lua
--@include rwlock/_grant_writer.lua
local writer = redis.call('get', W)
if not writer or (ARGV[1] ~= '*' and writer ~= ARGV[1]) then return 0 end
redis.call('del', W)
if readers_in() then wake_writer() return 2 end
return grant_writer()
