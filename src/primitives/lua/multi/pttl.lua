-- KEYS: the keys. The shortest lease among them: -2 when one does not exist, -1 when none
-- has an expiry.
local m = -1
for i = 1, #KEYS do
  local t = redis.call('pttl', KEYS[i])
  if t == -2 then return -2 end
  if t >= 0 and (m < 0 or t < m) then m = t end
end
return m
