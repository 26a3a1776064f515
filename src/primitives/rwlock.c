/* The read-write lock on one Redis server (or a Cluster): many readers or one writer.
 *
 * Keys: companions of the lock key L (rlock_keys_companion(): they share its Cluster slot
 * and never another lock's key):
 *   write    a string holding the writer's token, with its lease as PX (the write side's
 *            key: its holds are a mutex's, and the watchdog renews it as one);
 *   read     a sorted set of reader tokens, each scored with the ms its lease ends by the
 *            server's clock (TIME), the key living as long as its longest lease (the read
 *            side's key: the watchdog renews a member of it); ended leases are purged by
 *            the scripts that look at them;
 *   writers  waiting writers, scored with the ms their waiting mark ends: a mark lives one
 *            round of waiting plus WAIT_MARK_MS, so a writer that died stops blocking
 *            readers within its round (at most the lease it waits for, or its wait);
 *   readers  waiting readers, marked the same way;
 *   wgrants  the writers' list: a release that lets a writer in sets "write" to a fresh
 *            token and pushes "token 0 lease" here; the writer blocked longest pops it and
 *            owns the lock from then on (lock.c's hand-over), then makes it its own in one
 *            more call (leaves "writers", its ttl, its fencing token);
 *   rwake    the readers' list: a release that lets readers in adds every waiting reader
 *            to "read" itself and pushes one "wake" per reader, each woken reader's next
 *            round finding itself in (and taking its own ttl);
 *   wfence   the write side's fencing counter.
 *
 * A waiter let in by a release (a grant, a place in "read") gets a short lease until it
 * comes back: WAIT_MARK_MS at most, and never past its mark. A waiter blocked in its round
 * comes back at once; one that died there holds the lock for that second at most, never
 * for a lease (the releaser's, or its own). The one writer waiting has its mark end with
 * its grant. A writer whose round was planned against a lease that is gone (a writer's
 * release let readers in; the readers left but one let in and not back yet) is woken to
 * plan it again: a reader that died in the queue holds it up that second, not the lease.
 * Readers that queued behind a writer that died wait for its mark, as before.
 *
 * A waiter's token is the one its last acquire whose reply was lost used, if any
 * (rlock_lock_token_for()): the scripts take a place in "write" or "read" that holds it
 * for ours, so a reply lost on the way leaves no holder that nobody knows of.
 *
 * Writers first: a waiting writer's mark keeps new readers out, so readers that keep coming
 * never starve it: it gets in when the readers already in leave (the last one out hands it
 * the lock). Readers are not starved either: a writer's release lets every waiting reader
 * in at once, before the next writer; with readers and writers both waiting the lock
 * alternates between all the waiting readers and one writer. A process that holds the write
 * side takes the read side at once (with reentrant on: the reader's script is given the
 * process' writer token from the registry); a reader that asks for the write side waits
 * for every reader to leave, itself included (release the read side first).
 *
 * Every wait is lock.c's: the acquire script and a BLPOP in one write, woken by the release
 * that lets it in, or by itself when what blocks it (a lease, a waiting writer's mark) ends. */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/rwlock.h"
#include "src/primitives/scripts.h"
#include "src/transport/route.h"

/* The server's clock in ms, when the script began. */
#define LUA_NOW RLOCK_LUA_CLOCK_MS "local now = clock_ms()\n"

/* KEYS below: write, read, writers, readers, wgrants, rwake, wfence[, self]. */
#define LUA_KEYS \
	"local W, R, WQ, RQ, WG, RG, F, self = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]\n"

/* How long a waiting mark outlives the round that set it: the round's next call is sent
 * well within it. */
#define WAIT_MARK_MS "1000"

/* An acquire that cannot get in: {0, left, 0} with wait 0 (the caller's mark removed, and
 * gone() called when there was one), else the caller marked as waiting in set Q under id,
 * and {0, left, block}: block until what blocks it ends (left ms, when known), or the
 * wait. */
#define LUA_BLOCKED \
	"local function blocked(Q, id, left, gone)\n" \
	"  if wait <= 0 then\n" \
	"    if redis.call('zrem', Q, id) == 1 and gone then gone() end\n" \
	"    return {0, left, 0}\n" \
	"  end\n" \
	"  local block = wait\n" \
	"  if left >= 0 and left + 1 < block then block = left + 1 end\n" \
	"  redis.call('zadd', Q, now + block + " WAIT_MARK_MS ", id)\n" \
	"  atleast(Q, block + " WAIT_MARK_MS ", 1000)\n" \
	"  return {0, left, block}\n" \
	"end\n"

#define LUA_ARGS \
	"local token, ttl, fencing, wait, keep = string.match(ARGV[1], '^(%x+) (%d+) ([01]) (%d+) (%d+)$')\n" \
	"ttl, wait = tonumber(ttl), tonumber(wait)\n" \
	"local function told() if self then redis.call('rpush', self, '1') redis.call('pexpire', self, 10000) end end\n"

/* ARGV: "token ttl fencing wait keep", the token of this process' writer ('' none).
 * In when the caller is in "read" already (let in by a writer's release, or taken before),
 * when this process holds the write side, or when no writer holds it or waits. Answers as
 * the mutex's acquire does ({1, token, fence}: the write side's last fencing token). */
static rlock_script rw_script_read_acquire = { .source = RLOCK_LUA_ATLEAST LUA_NOW LUA_KEYS LUA_ARGS LUA_BLOCKED
	"local function won()\n"
	"  redis.call('zadd', R, now + ttl, token)\n"
	"  atleast(R, ttl)\n"
	"  redis.call('zrem', RQ, token)\n"
	"  told()\n"
	"  return {1, token, fencing == '1' and (tonumber(redis.call('get', F)) or 0) or 0}\n"
	"end\n"
	"local s = redis.call('zscore', R, token)\n"
	"if s and tonumber(s) > now then return won() end\n"
	"local writer = redis.call('get', W)\n"
	"if writer and writer == ARGV[2] then return won() end\n"
	"if writer then return blocked(RQ, token, redis.call('pttl', W)) end\n"
	"redis.call('zremrangebyscore', WQ, '-inf', now)\n"
	"local first = redis.call('zrange', WQ, 0, 0, 'WITHSCORES')\n"
	"if #first == 0 then return won() end\n"
	"return blocked(RQ, token, math.floor(tonumber(first[2]) - now))\n"
};

/* A waiter let in by a release: its lease, from its mark's score m (the waiter's round end
 * plus WAIT_MARK_MS, past now): until it comes back to take its own, a second at most. */
#define LUA_HANDED \
	"local function handed(m) return math.max(math.min(math.floor(tonumber(m) - now), " WAIT_MARK_MS "), 1) end\n"

/* wake_writer(): a "wake" for the writer blocked longest, when one waits: its round, planned
 * against what kept it out then, is planned again against the readers in now. */
#define LUA_WAKE_WRITER \
	"local function wake_writer()\n" \
	"  local m = redis.call('zrange', WQ, -1, -1, 'WITHSCORES')\n" \
	"  if m[2] and tonumber(m[2]) > now then\n" \
	"    redis.call('rpush', WG, 'wake')\n" \
	"    redis.call('pexpire', WG, " WAIT_MARK_MS ")\n" \
	"  end\n" \
	"end\n"

/* readers_in(): every waiting reader let in (with the lease handed() gives it) and woken;
 * false when none waits. A reader let in and not back yet is scored with half a ms more
 * than its lease's end (a reader's own leases are whole ms): a release can tell it from
 * the readers in. */
#define LUA_READERS_IN LUA_HANDED \
	"local function readers_in()\n" \
	"  redis.call('zremrangebyscore', RQ, '-inf', now)\n" \
	"  local rs = redis.call('zrange', RQ, 0, -1, 'WITHSCORES')\n" \
	"  if #rs == 0 then return false end\n" \
	"  local longest = 1\n" \
	"  for i = 1, #rs, 2 do\n" \
	"    local lease = handed(rs[i + 1])\n" \
	"    redis.call('zadd', R, string.format('%d.5', now + lease), rs[i])\n" \
	"    if lease > longest then longest = lease end\n" \
	"  end\n" \
	"  atleast(R, longest)\n" \
	"  redis.call('del', RQ, RG)\n" \
	"  for i = 1, #rs, 2 do redis.call('rpush', RG, 'wake') end\n" \
	"  redis.call('pexpire', RG, longest)\n" \
	"  return true\n" \
	"end\n"

/* ARGV: "token ttl fencing wait keep", the caller's own token (its waiting mark; a grant
 * it popped is the token). In when "write" holds the token (a grant popped), when a grant
 * nobody took is on wgrants, or when no writer holds it and no reader is in. A writer that
 * gives up behind readers, its mark the last one, lets the waiting readers in. */
static rlock_script rw_script_write_acquire = { .source = RLOCK_LUA_ISSUE LUA_NOW LUA_KEYS LUA_ARGS LUA_BLOCKED
	LUA_READERS_IN
	"local function won(tok)\n"
	"  redis.call('pexpire', W, ttl)\n"
	"  redis.call('zrem', WQ, ARGV[2])\n"
	"  local f = 0\n"
	"  if fencing == '1' then f = issue(F, keep) end\n"
	"  told()\n"
	"  return {1, tok, f}\n"
	"end\n"
	"local function gave_up()\n"
	"  redis.call('zremrangebyscore', WQ, '-inf', now)\n"
	"  if redis.call('zcard', WQ) == 0 then readers_in() end\n"
	"end\n"
	"local writer = redis.call('get', W)\n"
	"if writer == token then return won(token) end\n"
	"if writer then\n"
	"  local g = redis.call('llen', WG) > 0 and redis.call('lpop', WG)\n"
	"  while g do\n"
	"    if string.match(g, '^(%x+) ') == writer then return won(writer) end\n"
	"    g = redis.call('lpop', WG)\n"
	"  end\n"
	"  return blocked(WQ, ARGV[2], redis.call('pttl', W))\n"
	"end\n"
	"redis.call('zremrangebyscore', R, '-inf', now)\n"
	"local last = redis.call('zrange', R, -1, -1, 'WITHSCORES')\n"
	"if #last == 0 then redis.call('set', W, token, 'PX', ttl) return won(token) end\n"
	"return blocked(WQ, ARGV[2], math.floor(tonumber(last[2]) - now), gave_up)\n"
};

/* A release that lets a waiting writer in, when one waits and nobody is in: "write" set to
 * the next token, with the lease handed() gives the latest mark's writer (the writer
 * blocked longest pops the grant; a dead one blocks nobody, so the grant goes unclaimed
 * only when no live writer is blocked). The one writer waiting has its mark cut to that
 * lease too: should it have died there, new readers wait for it no longer. With readers
 * still in, the longest of them a reader let in and not back yet (who may have died
 * there), a waiting writer plans its round again. */
#define LUA_GRANT_WRITER LUA_WAKE_WRITER \
	"local function grant_writer()\n" \
	"  redis.call('zremrangebyscore', R, '-inf', now)\n" \
	"  local last = redis.call('zrange', R, -1, -1, 'WITHSCORES')\n" \
	"  if #last > 0 then\n" \
	"    if string.find(last[2], '.', 1, true) then wake_writer() end\n" \
	"    return 1\n" \
	"  end\n" \
	"  redis.call('zremrangebyscore', WQ, '-inf', now)\n" \
	"  local latest = redis.call('zrange', WQ, -2, -1, 'WITHSCORES')\n" \
	"  if #latest == 0 then return 1 end\n" \
	"  local lease = handed(latest[#latest])\n" \
	"  if #latest == 2 then redis.call('zadd', WQ, now + lease, latest[1]) end\n" \
	"  redis.call('set', W, ARGV[2], 'PX', lease)\n" \
	"  redis.call('rpush', WG, ARGV[2] .. ' 0 ' .. lease)\n" \
	"  redis.call('pexpire', WG, lease)\n" \
	"  return 2\n" \
	"end\n"

/* ARGV: token, next token. 0 not ours (its lease ended), 1 released, 2 the last reader out
 * handed the lock to a waiting writer. Token '' (forceUnlock()): every reader out; 0 none
 * was in. */
static rlock_script rw_script_read_release = { .source = LUA_NOW LUA_KEYS LUA_HANDED LUA_GRANT_WRITER
	"if ARGV[1] == '' then\n"
	"  redis.call('zremrangebyscore', R, '-inf', now)\n"
	"  if redis.call('del', R) == 0 then return 0 end\n"
	"  if redis.call('exists', W) == 1 then return 1 end\n"
	"  return grant_writer()\n"
	"end\n"
	"local s = redis.call('zscore', R, ARGV[1])\n"
	"if not s then return 0 end\n"
	"redis.call('zrem', R, ARGV[1])\n"
	"if tonumber(s) <= now then return 0 end\n"
	"if redis.call('exists', W) == 1 then return 1 end\n"
	"return grant_writer()\n"
};

/* ARGV: token, next token. 0 not ours, 1 released, 2 let the waiting readers in (all of
 * them; a waiting writer, whose round was planned against our lease, plans it again), or
 * else handed the lock to a waiting writer. Token '' (forceUnlock()): whoever writes; 0
 * nobody did. */
static rlock_script rw_script_write_release = { .source = RLOCK_LUA_ATLEAST LUA_NOW LUA_KEYS LUA_READERS_IN LUA_GRANT_WRITER
	"local writer = redis.call('get', W)\n"
	"if not writer or (ARGV[1] ~= '' and writer ~= ARGV[1]) then return 0 end\n"
	"redis.call('del', W)\n"
	"if readers_in() then wake_writer() return 2 end\n"
	"return grant_writer()\n"
};

/* KEYS: read. ARGV: token, ttl. 1 the reader's lease set to ttl from now, 0 not ours. */
static rlock_script rw_script_read_extend = { .source = RLOCK_LUA_ATLEAST LUA_NOW
	"local s = redis.call('zscore', KEYS[1], ARGV[1])\n"
	"if not s or tonumber(s) <= now then return 0 end\n"
	"redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])\n"
	"atleast(KEYS[1], ARGV[2])\n"
	"return 1\n"
};

/* KEYS: read. ARGV: token ('' none). With a token: 1 its lease runs, else 0. Without: the
 * longest lease left in ms, -2 when no reader is in. */
static rlock_script rw_script_read_query = { .source = LUA_NOW
	"if ARGV[1] ~= '' then\n"
	"  local s = redis.call('zscore', KEYS[1], ARGV[1])\n"
	"  return (s and tonumber(s) > now) and 1 or 0\n"
	"end\n"
	"local last = redis.call('zrange', KEYS[1], -1, -1, 'WITHSCORES')\n"
	"if #last == 0 or tonumber(last[2]) <= now then return -2 end\n"
	"return math.floor(tonumber(last[2]) - now)\n"
};

void rlock_rwlock_minit(void)
{
	rlock_script_init(&rw_script_read_acquire);
	rlock_script_init(&rw_script_write_acquire);
	rlock_script_init(&rw_script_read_release);
	rlock_script_init(&rw_script_write_release);
	rlock_script_init(&rw_script_read_extend);
	rlock_script_init(&rw_script_read_query);
}

/* The companions, in the scripts' KEYS order; the first two are the sides' keys. */
#define RW_NKEYS 7
static const char *const rw_roles[RW_NKEYS] = { "write", "read", "writers", "readers", "wgrants", "rwake", "wfence" };
enum { RW_WRITE, RW_READ, RW_WRITERS, RW_READERS, RW_WGRANTS, RW_RWAKE, RW_WFENCE };

typedef struct {
	rlock_keys k;  /* the lock key L: routes every call (all share its slot); waiters' own lists */
	zend_string *keys[RW_NKEYS];
} rw_keys;

/* The Redis key of a side of the lock on L: the read side's sorted set, the write side's
 * string. A new string. */
static zend_string *side_key(zend_string *l, bool write)
{
	return rlock_keys_companion(l, rw_roles[write ? RW_WRITE : RW_READ]);
}

/* The keys of the lock on L. */
static void rw_keys_init(rw_keys *rk, zend_string *l)
{
	rlock_keys_init(&rk->k, l);
	for (int i = 0; i < RW_NKEYS; i++) {
		rk->keys[i] = rlock_keys_companion(l, rw_roles[i]);
	}
}

static void rw_keys_free(rw_keys *rk)
{
	rlock_keys_free(&rk->k);
	for (int i = 0; i < RW_NKEYS; i++) {
		zend_string_release(rk->keys[i]);
	}
}

static void rw_call_acquire(rlock_call *c, rw_keys *rk, bool write, zend_string *token, zend_string *other,
	const rlock_opts *o, zend_long wait_ms, zend_string *self)
{
	zend_long nums[4] = { o->ttl, o->fencing, wait_ms, rlock_fence_keep(o->ttl) };
	rlock_call_start(c, write ? &rw_script_write_acquire : &rw_script_read_acquire, RW_NKEYS, rk->keys, self);
	rlock_call_packed(c, token, nums, 4);
	rlock_call_str(c, other);
}

/* What a side's waiter sends each round. */
typedef struct {
	rw_keys *rk;
	bool write;
	zend_string *other;  /* a reader: this process' writer's token; a writer: its own */
} rw_round;

static void rw_round_call(rlock_call *c, const rlock_waiter *w, const rlock_opts *o, zend_long wait_ms, bool queued,
	zend_string *self)
{
	const rw_round *a = w->arg;
	(void) queued;  /* a waiting mark is the caller's token in a sorted set: marking again changes nothing */
	rw_call_acquire(c, a->rk, a->write, w->token, a->other, o, wait_ms, self);
}

/* The release script, within the call under way (token NULL: whoever holds that side). */
static int rw_key_release(bool write, const rlock_opts *o, rw_keys *rk, zend_string *token, rlock_err *err)
{
	rlock_call c;
	zend_long n = 0;
	zend_string *next = rlock_new_token(err);

	if (!next) {
		return -1;
	}
	rlock_call_start(&c, write ? &rw_script_write_release : &rw_script_read_release, RW_NKEYS, rk->keys, NULL);
	rlock_call_str(&c, token ? token : ZSTR_EMPTY_ALLOC());
	rlock_call_str(&c, next);
	redisReply *r = rlock_lock_run(o, rk->k.keys[0], &c, err);
	zend_string_release(next);
	if (!r || !rlock_reply_integer(rlock_route_answered(o), r, 0, 2, &n, err)) {
		return -1;
	}
	return n > 0;
}

/* The registry's rlock_registry_token(), given at MINIT (rlock_rwlock_held_by()). */
static zend_string *(*held_token)(const rlock_algo *a, const rlock_opts *o, zend_string *key);

void rlock_rwlock_held_by(zend_string *(*fn)(const rlock_algo *a, const rlock_opts *o, zend_string *key))
{
	held_token = fn;
}

static int rw_acquire(bool write, const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out,
	rlock_err *err)
{
	rw_keys rk;
	rlock_attempt res = {0};
	zend_long deadline = rlock_deadline(wait_ms);
	int rc;

	rlock_conn_begin(o, wait_ms);
	rw_keys_init(&rk, key);
	const char *kind = write ? rlock_rwlock_write_algo.kind : rlock_rwlock_read_algo.kind;
	zend_string *token = rlock_lock_token_for(o, kind, key, err);
	if (!token) {
		rw_keys_free(&rk);
		return -1;
	}
	/* a reader in a process that holds the write side (reentrant, as a process' holds are)
	 * gets in past its own writer */
	zend_string *other = write ? token
		: o->reentrant ? held_token(&rlock_rwlock_write_algo, o, key) : NULL;
	rw_round round = { .rk = &rk, .write = write, .other = other ? other : ZSTR_EMPTY_ALLOC() };
	rlock_waiter w = { .k = &rk.k, .token = token, .list = rk.keys[write ? RW_WGRANTS : RW_RWAKE],
		.call = rw_round_call, .arg = &round };
	for (;;) {
		rc = rlock_lock_wait(o, &w, deadline, &res, err);
		if (rc != 1 || zend_string_equals(res.token, token)) {
			if (rc < 0 && err->kind == RLOCK_ERR_CONNECTION) {
				rlock_lock_token_lost(o, kind, key, token);
			}
			break;
		}
		/* a grant popped: ours already, for a short lease; make it ours in full (our mark
		 * gone, our ttl, a fencing token) in one more call, which marks us waiting again
		 * should the lease have run out */
		rlock_call c;
		zend_string *grant = res.token;
		rw_call_acquire(&c, &rk, write, grant, token, o, MAX(deadline - rlock_now_ms(), 0), NULL);
		redisReply *r = rlock_lock_run(o, rk.k.keys[0], &c, err);
		if (!r || !rlock_reply_attempt(rlock_route_answered(o), r, &res, err)) {
			if (err->kind == RLOCK_ERR_CONNECTION) {
				/* what Redis may hold for us now is the grant */
				rlock_lock_token_lost(o, kind, key, grant);
			}
			zend_string_release(grant);
			rc = -1;
			break;
		}
		zend_string_release(grant);
		if (res.acquired) {
			break;
		}
		/* the lease ran out before we made it ours: wait on */
	}
	if (rc == 1 && o->sync_replicas > 0 && (rc = rlock_lock_await_replicas(o, rk.k.keys[0], err)) != 1) {
		/* short of the replicas: give it back */
		rlock_err ignored = {0};
		rw_key_release(write, o, &rk, res.token, &ignored);
		zend_string_release(res.token);
	}
	if (rc == 1) {
		out->token = res.token;
		out->fence = o->fencing ? res.fence : 0;
		out->valid_until = w.sent + o->ttl;
	}
	if (w.self) {
		zend_string_release(w.self);
	}
	zend_string_release(token);
	rw_keys_free(&rk);
	return rc;
}

static int rw_release(bool write, const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	rw_keys rk;
	rlock_conn_begin(o, 0);
	rw_keys_init(&rk, key);
	int rc = rw_key_release(write, o, &rk, h->token, err);
	rw_keys_free(&rk);
	return rc;
}

static int read_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	return rw_acquire(false, o, key, wait_ms, out, err);
}

static int write_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	return rw_acquire(true, o, key, wait_ms, out, err);
}

static int read_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	return rw_release(false, o, key, h, err);
}

static int write_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	return rw_release(true, o, key, h, err);
}

/* A script about the read side's key alone (of the lock on key): its integer reply in
 * min..max, or -1 err set. */
static int read_script(const rlock_opts *o, zend_string *key, rlock_script *s, zend_string *token, zend_long ttl,
	zend_long min, zend_long max, zend_long *out, rlock_err *err)
{
	rlock_call c;
	zend_string *read = side_key(key, false);
	rlock_conn_begin(o, 0);
	rlock_call_start(&c, s, 1, &read, NULL);
	rlock_call_str(&c, token);
	if (ttl > 0) {
		rlock_call_num(&c, 1, ttl);
	}
	redisReply *r = rlock_lock_run(o, read, &c, err);
	zend_string_release(read);
	return r && rlock_reply_integer(rlock_route_answered(o), r, min, max, out, err) ? 0 : -1;
}

static int read_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	zend_long n, sent = rlock_now_ms();
	if (read_script(o, key, &rw_script_read_extend, h->token, ttl, 0, 1, &n, err) < 0) {
		return -1;
	}
	if (n == 1) {
		h->valid_until = sent + ttl;
	}
	return n == 1;
}

static int read_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	zend_long n;
	return read_script(o, key, &rw_script_read_query, token, 0, 0, 1, &n, err) < 0 ? -1 : n == 1;
}

static int read_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err)
{
	return read_script(o, key, &rw_script_read_query, ZSTR_EMPTY_ALLOC(), 0, -2, ZEND_LONG_MAX, out, err);
}

static int read_exists(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	zend_long pttl;
	return read_pttl(o, key, &pttl, err) < 0 ? -1 : pttl != -2;
}

/* The side's key, which the watchdog renews (a reader: its member of the sorted set). */
static uint32_t read_renewed(zend_string *key, zend_string **out, uint32_t max)
{
	(void) max;
	out[0] = side_key(key, false);
	return 1;
}

static uint32_t write_renewed(zend_string *key, zend_string **out, uint32_t max)
{
	(void) max;
	out[0] = side_key(key, true);
	return 1;
}

static void read_name(zend_string *key, smart_str *out)
{
	rlock_lock_name(out, "read lock", key);
}

static void write_name(zend_string *key, smart_str *out)
{
	rlock_lock_name(out, "write lock", key);
}

/* Readers: a sorted set of leases, renewed by the watchdog member by member. */
const rlock_algo rlock_rwlock_read_algo = {
	.kind = "read",
	.acquire = read_acquire,
	.release = read_release,
	.extend = read_extend,
	.is_owner = read_is_owner,
	.exists = read_exists,
	.pttl = read_pttl,
	.renewed = read_renewed,
	.name = read_name,
};

/* The writer: a string holding its token, which the mutex's compare-and-pexpire, GET,
 * EXISTS and PTTL answer for, given the write side's key. */
static int write_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	zend_string *w = side_key(key, true);
	int rc = rlock_lock_algo.extend(o, w, h, ttl, err);
	zend_string_release(w);
	return rc;
}

static int write_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	zend_string *w = side_key(key, true);
	int rc = rlock_lock_algo.is_owner(o, w, token, err);
	zend_string_release(w);
	return rc;
}

static int write_exists(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	zend_string *w = side_key(key, true);
	int rc = rlock_lock_algo.exists(o, w, err);
	zend_string_release(w);
	return rc;
}

static int write_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err)
{
	zend_string *w = side_key(key, true);
	int rc = rlock_lock_algo.pttl(o, w, out, err);
	zend_string_release(w);
	return rc;
}

const rlock_algo rlock_rwlock_write_algo = {
	.kind = "write",
	.acquire = write_acquire,
	.release = write_release,
	.extend = write_extend,
	.is_owner = write_is_owner,
	.exists = write_exists,
	.pttl = write_pttl,
	.renewed = write_renewed,
	.name = write_name,
};
