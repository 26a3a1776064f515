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
 * process' writer token from the registry); a reader that asks for the write side would
 * wait for every reader to leave, itself included: the registry refuses it at once
 * (own_reader(), with reentrant on; another owner waits for it as for another process').
 *
 * Every wait is lock.c's: the acquire script and a BLPOP in one write, woken by the release
 * that lets it in, or by itself when what blocks it (a lease, a waiting writer's mark) ends. */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/rwlock.h"
#include "src/primitives/scripts.h"
#include "src/primitives/lua.h"
#include "src/transport/route.h"

/* The scripts, in src/primitives/lua/rwlock/. A waiting mark outlives the round that set it
 * by WAIT_MARK_MS, 1000 ms in them: the round's next call is sent well within it. */
/* src/primitives/lua/rwlock/read_acquire.lua */
static rlock_script rw_script_read_acquire = { .source = RLOCK_LUA_RWLOCK_READ_ACQUIRE };

/* src/primitives/lua/rwlock/write_acquire.lua */
static rlock_script rw_script_write_acquire = { .source = RLOCK_LUA_RWLOCK_WRITE_ACQUIRE };

/* src/primitives/lua/rwlock/read_release.lua */
static rlock_script rw_script_read_release = { .source = RLOCK_LUA_RWLOCK_READ_RELEASE };

/* src/primitives/lua/rwlock/write_release.lua */
static rlock_script rw_script_write_release = { .source = RLOCK_LUA_RWLOCK_WRITE_RELEASE };

/* src/primitives/lua/rwlock/read_extend.lua */
static rlock_script rw_script_read_extend = { .source = RLOCK_LUA_RWLOCK_READ_EXTEND };

/* src/primitives/lua/rwlock/read_query.lua */
static rlock_script rw_script_read_query = { .source = RLOCK_LUA_RWLOCK_READ_QUERY };

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
	rlock_call_token(&c, token);
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
	zend_long made = 0;  /* when the call that made a popped grant ours was sent: its lease runs from there */
	for (;;) {
		made = 0;
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
		made = rlock_now_ms();
		redisReply *r = rlock_lock_run(o, rk.k.keys[0], &c, err);
		if (!r || !rlock_reply_attempt(rlock_route_answered(o), r, false, 0, &res, err)) {
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
		out->valid_until = (made ? made : w.sent) + o->ttl;
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
	rlock_call_token(&c, token);
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
	return read_script(o, key, &rw_script_read_query, NULL, 0, -2, ZEND_LONG_MAX, out, err);
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
