-- A piece the read-write lock's scripts include.
-- An acquire that cannot get in: {0, left, 0} with wait 0 (the caller's mark removed, and
-- gone() called when there was one), else the caller marked as waiting in set Q under id,
-- and {0, left, block}: block until what blocks it ends (left ms, when known), or the
-- wait.
local function blocked(Q, id, left, gone)
  if wait <= 0 then
    if redis.call('zrem', Q, id) == 1 and gone then gone() end
    return {0, left, 0}
  end
  local block = wait
  if left >= 0 and left + 1 < block then block = left + 1 end
  redis.call('zadd', Q, now + block + 1000, id)
  atleast(Q, block + 1000, 1000)
  return {0, left, block}
end
