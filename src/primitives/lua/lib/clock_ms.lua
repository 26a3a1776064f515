-- A piece the scripts include, no script of its own.
-- clock_ms(): the server's clock in ms, what the leases in sorted sets of holders count in.
local function clock_ms()
  local t = redis.call('time')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
