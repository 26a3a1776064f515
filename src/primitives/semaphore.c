/* The semaphore on one Redis server: N permits, each holder's with a lease; acquire,
 * release, the wait, first come first served.
 *
 * The keys, companions of the semaphore's lock key L (scripts.c names them; they share L's
 * hash slot):
 * - holders, a sorted set: each holder token scored with the ms its lease ends by the
 *   server's clock (the convention the watchdog's renew script keeps, so it renews a
 *   semaphore's holders unchanged), and, scored negative so that a range of leases (0, now]
 *   never meets them: "#" token -> -(permits the holder has), "#used" -> -(permits held in
 *   all), "%" token -> the ticket that last gave the holder permits (-(its first 13 hex
 *   digits + 1): exact in a double), so that an acquire whose reply was lost and that is
 *   sent again (lock.c waits on through a dropped connection; the object's next acquire)
 *   finds itself served and takes nothing twice, and "!" token -> the semaphore's permits as
 *   that holder names them, less 2^53 (below every other score, exact in a double): the
 *   smallest of them bounds every admission while that holder holds (rolling deploys, a
 *   mistaken count: a semaphore never admits more than any of its holders' counts). The key
 *   lives at least as long as the longest lease: when it expires every lease has ended, and
 *   nothing else is left.
 * - holders "-queue", a list of tickets (one per waiting acquire() call) in order of arrival,
 *   and holders "-waiters", a hash: ticket -> "n ttl deadline token limit" (how many permits,
 *   the lease to give, when the ticket dies unless its waiter comes back, the holder to
 *   credit, the semaphore's permits as the waiter names them: what the queue is served by
 *   while it is the head).
 * - holders "-self-" ticket: the list the waiter of that ticket BLPOPs on.
 *
 * Every script first gives back the permits of holders whose lease ended, then serves the
 * queue from its head while the head's permits fit (within its own count and within the
 * smallest count of the holders, fits()): it credits them to the head's holder
 * and pushes "g <permits that holder has now>" on the head's own list; the waiter owns them
 * the moment its BLPOP returns (as a lock is handed over). A head that does not fit stops
 * the queue: a waiter for 3 is not starved by a stream of 1-permit takers, and a newcomer
 * takes permits only when nobody waits. A waiter waits through lock.c's rlock_lock_wait():
 * its acquire script and its BLPOP in one write, no polling; it wakes itself when the first
 * lease ends (the holder may have crashed), a lease given later that ends sooner wakes the
 * head (serve()), and a dead waiter's ticket is dropped once its deadline passed: a waiter
 * that died in the queue delays the next by its round and a second, or, served first, by
 * its own lease.
 *
 * What a contended section costs Redis: the waiter's acquire (8 commands in its script, the
 * ticket queued), its BLPOP, and the holder's release (16: its permits back, the head
 * served); 27 commands in all. */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/semaphore.h"
#include "src/primitives/scripts.h"
#include "src/transport/route.h"

/* The Lua every semaphore script shares: KEYS holders, queue, waiters. A script reads the
 * count of permits held in all once, keeps it in a local as it changes, and writes it back
 * once at its end (a release that serves the next waiter changes it by nothing).
 * used(): the count as stored; save(u): u stored, unless it is what is stored.
 * purge(now): the holders whose lease ended gone; the permits they had.
 * fits(n, limit, u): whether n more permits fit when u are held, within limit (the caller's
 * count) and the smallest count a holder named (read once per script, and only when some
 * are held and n fits limit: no command where nothing is held or limit already refuses).
 * take(): n permits to tok for ticket tk, its lease ttl from now (a longer one it has is
 * kept), limit its count; the permits tok has now (the count held is the caller's to raise
 * by n).
 * served(tk): the score of "%" token when ticket tk gave it permits; have(tok): the permits
 * tok has.
 * serve(): the queue served from its head while the head's permits fit (u: the count held
 * now): credited to the head's holder and "g <permits it has now>" pushed on its own list,
 * but for me (the caller's ticket, or nil), whose permits the caller's reply tells. A head
 * left waiting whose round blocks past the end of a lease given here (a shorter ttl than
 * the lease it counted on: a waiter that died once served holds its permits only that long)
 * gets "0" pushed on its list: it tries again, and blocks until that lease ends at most. Returns
 * the permits me was given (false: not served), the count held after, the head left ({ticket,
 * deadline}; nil: the queue is empty) and me's record as found (nil: me was not queued, or
 * left the queue). The queue is read a few tickets at a time, their records in the same
 * HMGET. */
#define LUA_SEMAPHORE RLOCK_LUA_ATLEAST RLOCK_LUA_CLOCK_MS \
	"local H, Q, W = KEYS[1], KEYS[2], KEYS[3]\n" \
	"local stored\n" \
	"local function used() stored = -(tonumber(redis.call('zscore', H, '#used')) or 0) return stored end\n" \
	"local function save(u) if u ~= stored then redis.call('zadd', H, -u, '#used') stored = u end end\n" \
	"local function purge(now)\n" \
	"  local m = 0\n" \
	"  for _, h in ipairs(redis.call('zrangebyscore', H, '(0', now)) do\n" \
	"    m = m - (tonumber(redis.call('zscore', H, '#' .. h)) or 0)\n" \
	"    redis.call('zrem', H, h, '#' .. h, '%' .. h, '!' .. h)\n" \
	"  end\n" \
	"  return m\n" \
	"end\n" \
	"local least\n" \
	"local function fits(n, limit, u)\n" \
	"  if n > limit - u then return false end\n" \
	"  if u <= 0 then return true end\n" \
	"  if not least then\n" \
	"    local f = redis.call('zrange', H, 0, 0, 'WITHSCORES')\n" \
	"    least = f[2] and tonumber(f[2]) < -5e15 and tonumber(f[2]) + 2^53 or math.huge\n" \
	"  end\n" \
	"  return n <= least - u\n" \
	"end\n" \
	"local function served(tk) return -(tonumber(string.sub(tk, 1, 13), 16) + 1) end\n" \
	"local function have(tok) return -(tonumber(redis.call('zscore', H, '#' .. tok)) or 0) end\n" \
	"local function take(tok, n, ttl, now, tk, limit)\n" \
	"  local have = -tonumber(redis.call('zincrby', H, -n, '#' .. tok))\n" \
	"  redis.call('zadd', H, served(tk), '%' .. tok, limit - 2^53, '!' .. tok)\n" \
	"  if least and limit < least then least = limit end\n" \
	"  local lease = have > n and tonumber(redis.call('zscore', H, tok))\n" \
	"  if not lease or lease < now + ttl then redis.call('zadd', H, now + ttl, tok) end\n" \
	"  atleast(H, ttl, ttl)\n" \
	"  return have\n" \
	"end\n" \
	"local function drop(ts, k)\n" \
	"  redis.call('ltrim', Q, k, -1)\n" \
	"  redis.call('hdel', W, unpack(ts, 1, k))\n" \
	"end\n" \
	"local function push(w, v)\n" \
	"  local s = H .. '-self-' .. w\n" \
	"  redis.call('rpush', s, v)\n" \
	"  redis.call('pexpire', s, 10000)\n" \
	"end\n" \
	"local function serve(now, u, me)\n" \
	"  local given, rec, soonest = false, nil, nil\n" \
	"  while true do\n" \
	"    local ts = redis.call('lrange', Q, 0, 3)\n" \
	"    local nt = #ts\n" \
	"    if nt == 0 then return given, u, nil, rec end\n" \
	"    if me then ts[nt + 1] = me end\n" \
	"    local rs = redis.call('hmget', W, unpack(ts))\n" \
	"    if me then rec = rs[nt + 1] or nil ts[nt + 1] = nil end\n" \
	"    for i = 1, nt do\n" \
	"      local w = ts[i]\n" \
	"      local n, ttl, dl, tok, limit = string.match(rs[i] or '', '^(%d+) (%d+) (%d+) (%x+) (%d+)$')\n" \
	"      if n and tonumber(dl) >= now then\n" \
	"        if not fits(tonumber(n), tonumber(limit), u) then\n" \
	"          if i > 1 then drop(ts, i - 1) end\n" \
	"          if soonest and w ~= me and soonest + 1 < tonumber(dl) - 1000 then push(w, '0') end\n" \
	"          return given, u, {w, tonumber(dl)}, rec\n" \
	"        end\n" \
	"        local have = take(tok, tonumber(n), tonumber(ttl), now, w, tonumber(limit))\n" \
	"        u = u + tonumber(n)\n" \
	"        if not soonest or now + tonumber(ttl) < soonest then soonest = now + tonumber(ttl) end\n" \
	"        if w == me then given = have else push(w, 'g ' .. have) end\n" \
	"      end\n" \
	"      if w == me then rec = nil end\n" \
	"    end\n" \
	"    drop(ts, nt)\n" \
	"  end\n" \
	"end\n"

/* KEYS: holders, queue, waiters, self. ARGV: token, n, limit, ttl, wait, ticket, blocking
 * (a BLPOP on self follows), fresh (the ticket's first call: it cannot have been served, and
 * nothing is on self yet). {1, token, permits token has now} taken (and "1" pushed on self
 * when blocking); {0, pttl of the first lease or -2, block ms} not, and with wait > 0 the
 * ticket queued (or its deadline moved), with wait 0 the ticket left the queue. A later call
 * empties self (what an earlier round left there) and, when the ticket was served already
 * (a grant its BLPOP was not there to take, or a win or grant whose reply was lost) and
 * token's lease has not ended, wins with the permits token has, taking none again (the
 * lease ttl from now). A ticket lives 1000 ms
 * past its round's end: a waiter later than that loses its place (it comes back as a
 * newcomer: takes what is free when nobody waits, else queues at the back), a dead one holds
 * the head of the queue that long at most. A ticket's record is "n ttl deadline token
 * limit": the limit its waiter names is what the queue is served by while it is the head.
 * The queue and the records expire together, given a little more than the wait each time
 * they need more (their PTTLs are equal: they are only ever given one together). */
static rlock_script script_acquire = { .source = LUA_SEMAPHORE
	"local self = KEYS[4]\n"
	"local token, n, limit, ttl, wait, ticket = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6]\n"
	"local function won(have)\n"
	"  if ARGV[7] == '1' then redis.call('rpush', self, '1') redis.call('pexpire', self, 10000) end\n"
	"  return {1, token, math.max(have, n)}\n"
	"end\n"
	"local now = clock_ms()\n"
	"if ARGV[8] ~= '1' then\n"
	"  redis.call('del', self)\n"
	"  if tonumber(redis.call('zscore', H, '%' .. token)) == served(ticket) then\n"
	"    local lease = tonumber(redis.call('zscore', H, token))\n"
	"    if lease and lease > now then\n"
	"      if lease < now + ttl then redis.call('zadd', H, now + ttl, token) atleast(H, ttl, ttl) end\n"
	"      return won(have(token))\n"
	"    end\n"
	"  end\n"
	"end\n"
	"local function first()\n"
	"  local f = redis.call('zrangebyscore', H, '(0', '+inf', 'WITHSCORES', 'LIMIT', 0, 1)\n"
	"  return f[2] and tonumber(f[2])\n"
	"end\n"
	"local lease = first()\n"
	"local u = used()\n"
	"if lease and lease <= now then\n"
	"  u = u - purge(now)\n"
	"  lease = first()\n"
	"end\n"
	"local u0 = u\n"
	"local given, head, rec\n"
	"given, u, head, rec = serve(now, u, ticket)\n"
	"if given then save(u) return won(given) end\n"
	"local queued = rec ~= nil\n"
	"if not queued and not head and fits(n, limit, u) then\n"
	"  local have = take(token, n, ttl, now, ticket, limit)\n"
	"  save(u + n)\n"
	"  return won(have)\n"
	"end\n"
	"if u > u0 then lease = first() end\n"
	"local pttl = -2\n"
	"if lease then pttl = lease - now end\n"
	"if wait <= 0 then\n"
	"  if queued then\n"
	"    redis.call('lrem', Q, 1, ticket)\n"
	"    redis.call('hdel', W, ticket)\n"
	"    u = select(2, serve(now, u, nil))\n"
	"  end\n"
	"  save(u)\n"
	"  return {0, pttl, 0}\n"
	"end\n"
	"local block = wait\n"
	"if pttl >= 0 and pttl + 1 < block then block = pttl + 1 end\n"
	"if head and head[1] ~= ticket and head[2] - now + 1 < block then block = math.max(head[2] - now + 1, 1) end\n"
	"redis.call('hset', W, ticket, n .. ' ' .. ttl .. ' ' .. string.format('%.0f', now + block + 1000) .. ' ' .. token .. ' ' .. limit)\n"
	"if not queued then redis.call('rpush', Q, ticket) end\n"
	"local keep = block + 2000\n"
	"if not head or redis.call('pttl', W) < keep then\n"
	"  redis.call('pexpire', Q, 2 * keep)\n"
	"  redis.call('pexpire', W, 2 * keep)\n"
	"end\n"
	"save(u)\n"
	"return {0, pttl, block}\n"
};

/* KEYS: holders, queue, waiters. ARGV: token, n (0: all), and optionally lost, the ticket of
 * an acquire of token whose reply never came. n of token's permits back (all it has, should
 * that be fewer), and the queue served. lost first leaves the queue (it is never served
 * after this), and with n > 0, n go back only if lost was what last gave token permits (else
 * none). The permits token has left, -1 none were ours (unknown, or its lease had ended). */
static rlock_script script_release = { .source = LUA_SEMAPHORE
	"local now = clock_ms()\n"
	"local tok, n, lost = ARGV[1], tonumber(ARGV[2]), ARGV[3]\n"
	"if lost then\n"
	"  redis.call('del', H .. '-self-' .. lost)\n"
	"  if redis.call('hdel', W, lost) == 1 then redis.call('lrem', Q, 1, lost) end\n"
	"  local mark = tonumber(redis.call('zscore', H, '%' .. tok))\n"
	"  if mark then redis.call('zrem', H, '%' .. tok) end\n"
	"  if n > 0 and mark ~= served(lost) then n = -1 end\n"
	"end\n"
	"local lease = tonumber(redis.call('zscore', H, tok))\n"
	"if not lease and not lost then return -1 end\n"
	"local mine = lease and have(tok) or 0\n"
	"if n < 0 then n = 0 elseif n == 0 or n > mine then n = mine end\n"
	"if n < mine then\n"
	"  if n > 0 then redis.call('zincrby', H, n, '#' .. tok) end\n"
	"elseif lease then redis.call('zrem', H, tok, '#' .. tok, '%' .. tok, '!' .. tok) end\n"
	"local u = used() - n - purge(now)\n"
	"local _, head\n"
	"_, u, head = serve(now, u, nil)\n"
	"if u <= 0 and not head then redis.call('del', H) else save(u) end\n"
	"if not lease or lease < now then return -1 end\n"
	"return mine - n\n"
};

/* KEYS: holders. ARGV: limit. The permits free now to a caller of that count (within the
 * smallest count its holders named), counting those of ended leases free; changes
 * nothing. */
static rlock_script script_available = { .source = LUA_SEMAPHORE
	"local now = clock_ms()\n"
	"local limit, u, ended = tonumber(ARGV[1]), used(), {}\n"
	"for _, h in ipairs(redis.call('zrangebyscore', H, '(0', now)) do\n"
	"  u = u + (tonumber(redis.call('zscore', H, '#' .. h)) or 0)\n"
	"  ended['!' .. h] = true\n"
	"end\n"
	"local counts = redis.call('zrangebyscore', H, '-inf', '(-5e15', 'WITHSCORES')\n"
	"for i = 1, #counts, 2 do\n"
	"  if not ended[counts[i]] then limit = math.min(limit, tonumber(counts[i + 1]) + 2^53) end\n"
	"end\n"
	"return math.max(limit - u, 0)\n"
};

/* KEYS: holders. ARGV: token. The permits token holds under a lease that has not ended (0:
 * none); changes nothing. */
static rlock_script script_holds = { .source = LUA_SEMAPHORE
	"local lease = tonumber(redis.call('zscore', H, ARGV[1]))\n"
	"if not lease or lease <= clock_ms() then return 0 end\n"
	"return have(ARGV[1])\n"
};

void rlock_semaphore_minit(void)
{
	rlock_script_init(&script_acquire);
	rlock_script_init(&script_release);
	rlock_script_init(&script_available);
	rlock_script_init(&script_holds);
}

/* The role of the holders' key among the semaphore's companions. */
#define HOLDERS "semaphore"

zend_string *rlock_semaphore_key(zend_string *full)
{
	return rlock_keys_companion(full, HOLDERS);
}

zend_string *rlock_semaphore_name(zend_string *key)
{
	return rlock_keys_companion_name(key, HOLDERS);
}

/* The keys: holders, queue, waiters, and self (NULL without a ticket). */
static void keys_init(rlock_keys *k, zend_string *key, zend_string *ticket)
{
	k->tagged = false;  /* unused: the companions here are the holders key and a suffix */
	k->keys[0] = zend_string_copy(key);
	k->keys[1] = zend_string_concat2(ZSTR_VAL(key), ZSTR_LEN(key), "-queue", sizeof("-queue") - 1);
	k->keys[2] = zend_string_concat2(ZSTR_VAL(key), ZSTR_LEN(key), "-waiters", sizeof("-waiters") - 1);
	k->keys[3] = ticket ? zend_string_concat3(ZSTR_VAL(key), ZSTR_LEN(key), "-self-", sizeof("-self-") - 1,
		ZSTR_VAL(ticket), ZSTR_LEN(ticket)) : NULL;
}

static void keys_free(rlock_keys *k)
{
	for (int i = 0; i < 4; i++) {
		if (k->keys[i]) {
			zend_string_release(k->keys[i]);
		}
	}
}

/* What a waiter's rounds send (rlock_waiter.arg). */
typedef struct {
	rlock_keys k;
	zend_string *ticket;
	zend_long n;
	zend_long limit;
	zend_long ttl;
	bool sent;  /* a call with the ticket was made */
} sem_request;

/* The acquire script, as rlock_lock_wait() runs it: self set, a win pushes "1" on it (the
 * ticket's own list, which the BLPOP that follows watches). The script knows itself whether
 * the ticket is queued. */
static void sem_call(rlock_call *c, const rlock_waiter *w, const rlock_opts *o, zend_long wait_ms, bool queued,
	zend_string *self)
{
	sem_request *q = w->arg;
	(void) o;
	(void) queued;
	rlock_call_start(c, &script_acquire, 4, q->k.keys, NULL);
	rlock_call_str(c, w->token);
	rlock_call_num(c, 1, q->n);
	rlock_call_num(c, 2, q->limit);
	rlock_call_num(c, 3, q->ttl);
	rlock_call_num(c, 4, wait_ms);
	rlock_call_str(c, q->ticket);
	rlock_call_flag(c, self != NULL);
	rlock_call_flag(c, !q->sent);
	q->sent = true;
}

/* A grant, "g <permits the holder has now>" popped from our own list: taken as the script's
 * win says it (the permits, 1 to limit, in res->fence; res->block the lease, our ttl). */
static int sem_grant(const redisReply *r, const rlock_waiter *w, rlock_attempt *res)
{
	const sem_request *q = w->arg;
	zend_long n;
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[1]->type != REDIS_REPLY_STRING
			|| r->element[1]->len < 3 || strncmp(r->element[1]->str, "g ", 2) != 0
			|| !rlock_parse_number(r->element[1]->str + 2, r->element[1]->len - 2, q->limit, &n) || n < 1) {
		return 0;
	}
	res->acquired = true;
	res->token = zend_string_copy(w->token);
	res->fence = n;
	res->block = q->ttl;
	return 1;
}

int rlock_semaphore_acquire(const rlock_opts *o, zend_string *key, zend_long limit, zend_long n, zend_long wait_ms,
	rlock_hold *h, zend_long *held, rlock_sem_lost *lost, rlock_err *err)
{
	sem_request q = { .n = n, .limit = limit, .ttl = o->ttl };
	rlock_attempt res = {0};
	zend_long deadline = rlock_deadline(wait_ms);
	int rc = 0;

	rlock_conn_begin(o, wait_ms);
	if (!h->token && !(h->token = rlock_new_token(err))) {
		return -1;
	}
	if (lost->ticket && lost->n != n) {
		/* asked for another count: what the lost acquire took goes back first */
		zend_long left;
		if (rlock_semaphore_release(o, key, h->token, limit, lost->n, lost->ticket, &left, err) < 0) {
			return -1;
		}
		zend_string_release(lost->ticket);
		lost->ticket = NULL;
	}
	if (lost->ticket) {
		/* the lost acquire sent again: served already, it wins with what it took */
		q.ticket = lost->ticket;
		q.sent = true;
		lost->ticket = NULL;
	} else if (!(q.ticket = rlock_new_token(err))) {
		return -1;
	}
	keys_init(&q.k, key, q.ticket);
	rlock_waiter w = { .k = &q.k, .token = h->token, .call = sem_call, .grant = sem_grant, .arg = &q,
		.self = zend_string_copy(q.k.keys[3]), .sent = rlock_now_ms() };
	/* as the lock's first attempt: a key not found taken lately is tried alone, without
	 * queueing (one round trip, no BLPOP); then, or at once for a hot key, the rounds of the
	 * script and the BLPOP in one write (with wait 0, the script alone) */
	bool hot = rlock_lock_key_hot(key);
	if (!hot) {
		rlock_call c;
		sem_call(&c, &w, o, 0, false, NULL);
		redisReply *r = rlock_lock_run(o, key, &c, err);
		rc = r && rlock_reply_attempt(rlock_route_answered(o), r, &res, err) ? res.acquired : -1;
		if (rc == 0) {
			rlock_lock_mark_hot(key);
		}
	}
	if (rc == 0 && (hot || deadline > rlock_now_ms())) {
		if (deadline > rlock_now_ms()) {
			rlock_lock_mark_hot(key);
		}
		rc = rlock_lock_wait(o, &w, deadline, &res, err);
	}
	if (res.token) {
		zend_string_release(res.token);
	}
	zend_string_release(w.self);
	keys_free(&q.k);
	if (rc < 0 && q.sent) {
		/* Redis may have acted on the ticket all the same (taken, or queued it) */
		lost->ticket = q.ticket;
		lost->n = n;
	} else {
		zend_string_release(q.ticket);
	}
	if (rc == 1) {
		h->valid_until = w.sent + o->ttl;
		/* the script's third element, or a grant's count: the permits token has now (a
		 * semaphore has no fence) */
		*held = MIN(MAX(res.fence, n), limit);
	}
	return rc;
}

int rlock_semaphore_release(const rlock_opts *o, zend_string *key, zend_string *token, zend_long limit, zend_long n,
	zend_string *lost, zend_long *left, rlock_err *err)
{
	rlock_keys k;
	rlock_call c;

	rlock_conn_begin(o, 0);
	keys_init(&k, key, NULL);
	rlock_call_start(&c, &script_release, 3, k.keys, NULL);
	rlock_call_str(&c, token);
	rlock_call_num(&c, 1, n);
	if (lost) {
		rlock_call_str(&c, lost);
	}
	redisReply *r = rlock_lock_run(o, key, &c, err);
	keys_free(&k);
	if (!r || !rlock_reply_integer(rlock_route_answered(o), r, -1, limit, left, err)) {
		return -1;
	}
	return *left >= 0;
}

static int sem_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	zend_long left;
	return rlock_semaphore_release(o, key, h->token, RLOCK_MS_MAX, 0, NULL, &left, err);
}

/* Whether token holds permits under a lease that has not ended, asked of Redis. */
static int sem_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	rlock_call c;
	zend_long n;

	rlock_conn_begin(o, 0);
	rlock_call_start(&c, &script_holds, 1, &key, NULL);
	rlock_call_str(&c, token);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	return r && rlock_reply_integer(rlock_route_answered(o), r, 0, RLOCK_MS_MAX, &n, err) ? n > 0 : -1;
}

/* The watchdog's renew script on the one holder: its lease to ttl from now. */
static int sem_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	rlock_call c;
	zend_long sent = rlock_now_ms();

	rlock_conn_begin(o, 0);
	rlock_call_start(&c, &rlock_script_renew, 1, &key, NULL);
	rlock_call_str(&c, h->token);
	rlock_call_num(&c, 1, ttl);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	if (!r) {
		return -1;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 1 || r->element[0]->type != REDIS_REPLY_INTEGER
			|| r->element[0]->integer < 0 || r->element[0]->integer > 1) {
		rlock_err_set(err, RLOCK_ERR_REPLY, rlock_route_answered(o)->label, "unexpected reply to the renew script");
		freeReplyObject(r);
		return -1;
	}
	int yes = r->element[0]->integer == 1;
	freeReplyObject(r);
	if (yes) {
		h->valid_until = sent + ttl;
	}
	return yes;
}

int rlock_semaphore_available(const rlock_opts *o, zend_string *key, zend_long limit, zend_long *out, rlock_err *err)
{
	rlock_call c;

	rlock_conn_begin(o, 0);
	rlock_call_start(&c, &script_available, 1, &key, NULL);
	rlock_call_num(&c, 1, limit);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	return r && rlock_reply_integer(rlock_route_answered(o), r, 0, limit, out, err) ? 0 : -1;
}

const rlock_algo rlock_semaphore_algo = {
	.kind = "semaphore",
	.shared = true,
	.stats_name = rlock_semaphore_name,
	.release = sem_release,
	.extend = sem_extend,
	.is_owner = sem_is_owner,
};
