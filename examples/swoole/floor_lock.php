<?php
/*
 * The floor of bench/swoole.php and bench/swoole_one.php, flash_sale.php's --lock=floor: the
 * least an owner-checked FIFO lock costs on Redis (issue 30). Not a lock to use: no lease on
 * the queue, no dead waiters, no fencing.
 */

declare(strict_types=1);

// Take: SET NX, or RPUSH our token on the queue; then a BLPOP on a grant list of our own (a
// win pushes on it too: the BLPOP goes in the same write). KEYS: lock, queue, our grant list.
// ARGV: token, ttl
const FLOOR_ACQUIRE = <<<'LUA'
if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  redis.call('rpush', KEYS[3], '1')
  return 1
end
redis.call('rpush', KEYS[2], ARGV[1])
return 0
LUA;
// Give: the owner check, then LPOP the next waiter, SET it as owner and RPUSH its grant, or
// DEL when nobody waits. KEYS: lock, queue. ARGV: token, ttl (a grant list is the lock's
// name, ":grant:" and the waiter's token)
const FLOOR_RELEASE = <<<'LUA'
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
local nxt = redis.call('lpop', KEYS[2])
if nxt then
  redis.call('set', KEYS[1], nxt, 'PX', ARGV[2])
  redis.call('rpush', KEYS[1] .. ':grant:' .. nxt, '1')
  return 2
end
redis.call('del', KEYS[1])
return 1
LUA;

