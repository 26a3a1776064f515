-- A piece the read-write lock's scripts include.
-- wake_writer(): a "wake" for the writer blocked longest, when one waits: its round, planned
-- against what kept it out then, is planned again against the readers in now.
local function wake_writer()
  local m = redis.call('zrange', WQ, -1, -1, 'WITHSCORES')
  if m[2] and tonumber(m[2]) > now then
    redis.call('rpush', WG, 'wake')
    redis.call('pexpire', WG, 1000)
  end
end
