-- KEYS: lock, grants, waiters, fence, wakes. ARGV: token, "next-token fair ttl keep" (fair: 0
-- or 1), and "1" for a lock with 'fair' => false.
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
-- With 'fair' => false (ARGV[3] given) a bare token may still have waiters: a release woke
-- one and freed the key, and a newcomer's plain SET NX took it before the woken one came back
-- to mark it. Should that one stall or die, nothing else would wake the others before the
-- lease they saw ends: the unfair release looks for the count, and wakes (CONTRACT 3.6). A
-- fair key is handed over while only mutex waiters are counted; freed for a multi waiter's
-- sake, it wakes each of them (lib/free.lua).
local v = redis.call('get', lock)
if v == ARGV[1] and not (ARGV[3] and redis.call('exists', waiters) == 1) then redis.call('del', lock) return 1 end
-- (lib/holds.lua's test, without making the function)
if v ~= ARGV[1] and v ~= ARGV[1] .. '+' then return 0 end
--@include lock/_release_free.lua
