-- KEYS: lock. ARGV: token, ttl. 1 extended, 0 not ours.
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
