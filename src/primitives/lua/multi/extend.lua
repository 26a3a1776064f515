-- KEYS: the keys. ARGV: token, ttl. 1: every key held token and lives ttl ms from now; 0:
-- one did not, and nothing changed.
--@include lib/holds.lua
for i = 1, #KEYS do
  local v = redis.call('get', KEYS[i])
  if not holds(v, ARGV[1]) then return 0 end
end
for i = 1, #KEYS do redis.call('pexpire', KEYS[i], ARGV[2]) end
return 1
