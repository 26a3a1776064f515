-- A piece the acquires include: ARGV[1], "token ttl fencing wait keep", split (the fencing
-- counter's life past a token: keep); told(): "1" pushed on self, for the BLPOP sent right
-- after a call that won.
local token, ttl, fencing, wait, keep = string.match(ARGV[1], '^(%x+) (%d+) ([01]) (%d+) (%d+)$')
ttl, wait = tonumber(ttl), tonumber(wait)
local function told() if self then redis.call('rpush', self, '1') redis.call('pexpire', self, 10000) end end
