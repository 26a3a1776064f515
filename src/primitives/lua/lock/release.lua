-- KEYS: lock, grants, waiters, fence, wakes. ARGV: token, "next-token fair ttl keep" (fair: 0 or 1).
-- Each argument costs Redis work before the script runs (callgrind of redis-server 7.0: about
-- 1,000 instructions each: parsed, made a Lua string, put in ARGV, collected), and a
-- release nobody waits for needs only the token: what a hand-over needs goes packed in one
-- argument, split (string.match, about as costly as the arguments it saves) only there.
-- 0 not ours; else what free() (lib/free.lua) answers: 2 handed over to the longest waiter, 1
-- released (waking the waiters of locks over several keys, if any).
-- A release nobody waits for finds its bare token (acquire.lua: the mark), and deletes, as
-- the classic lock's GET and DEL; a marked key's release reads the count too; the Lua functions
-- and the packed argument of a hand-over are made and read only past that point. (An MGET
-- of the key and the count costs Redis 7 more than two GETs: its reply becomes a Lua
-- table.)
--@include lock/_release_keys.lua
local v = redis.call('get', lock)
if v == ARGV[1] then redis.call('del', lock) return 1 end
if v ~= ARGV[1] .. '+' then return 0 end
--@include lock/_release_free.lua
