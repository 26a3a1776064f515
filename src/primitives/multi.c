/* A lock over several keys on one server (RLock::multi): all of them or none, in one script.
 *
 * Each key of the set holds the lock's token, as a mutex's key does (lock.c): a multi lock
 * over [a, b] and new RLock('a') exclude each other on the same Redis key. The acquire
 * script takes every key when none is held by another, else none, so callers naming the
 * keys in any order never deadlock, and a waiter never holds some keys while it waits for
 * others.
 *
 * Waiting: the acquire script, failing, counts the waiter in every key's waiters' count by
 * MULTI_UNIT (2^32, where a mutex's waiter counts 1), and the waiter sends a BLPOP on every
 * key's wakes (a list of the multi waiters' own) in the same write (lock.c's
 * rlock_lock_wait()). A release of a key whose count has a multi waiter never hands the key
 * over: it frees it and pushes a "wake" on its wakes for each multi waiter and one on its
 * grants for the mutex's (free(), src/primitives/lua/lib/free.lua); every woken waiter tries again, and the
 * first script to run takes it. So a multi waiter is woken by a release of any key it waits
 * on (its next round takes the set when that was the last one held), and without polling; a
 * key held past its lease wakes it as the mutex's waiter is woken, when the shortest lease
 * of the keys it waits on ends. A multi waiter only ever takes keys through its script, and
 * never blocks on the grants, where a hand-over can wait for a mutex waiter that is not
 * blocked at that moment: its BLPOP would pop it, and the key would stay held by nobody.
 * Keys that hold our own token count as free: an acquire whose reply was lost is tried again
 * with the same token (rlock_lock_token_for()). */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/multi.h"
#include "src/primitives/scripts.h"
#include "src/primitives/lua.h"
#include "src/transport/route.h"

#define MULTI_KIND "multi"

/* src/primitives/lua/multi/acquire.lua */
static rlock_script script_acquire = { .source = RLOCK_LUA_MULTI_ACQUIRE };

/* src/primitives/lua/multi/release.lua */
static rlock_script script_release = { .source = RLOCK_LUA_MULTI_RELEASE };

/* src/primitives/lua/multi/extend.lua */
static rlock_script script_extend = { .source = RLOCK_LUA_MULTI_EXTEND };

/* src/primitives/lua/multi/pttl.lua */
static rlock_script script_pttl = { .source = RLOCK_LUA_MULTI_PTTL };

void rlock_multi_minit(void)
{
	rlock_script_init(&script_acquire);
	rlock_script_init(&script_release);
	rlock_script_init(&script_extend);
	rlock_script_init(&script_pttl);
}

/* The Redis keys of a lock over several keys, from its key. */
typedef struct {
	uint32_t n;
	rlock_keys k[RLOCK_MULTI_MAX_KEYS];            /* each key's names */
	zend_string *locks[RLOCK_MULTI_MAX_KEYS];      /* the keys */
	zend_string *wakes[RLOCK_MULTI_MAX_KEYS];      /* what a waiter blocks on */
	zend_string *acquire[3 * RLOCK_MULTI_MAX_KEYS];  /* lock, grants, waiters of each */
	zend_string *all[5 * RLOCK_MULTI_MAX_KEYS];      /* lock, grants, waiters, fence, wakes of each */
} multi_keys;

static int compare_keys(const void *a, const void *b)
{
	return zend_binary_strcmp(ZSTR_VAL(*(zend_string **) a), ZSTR_LEN(*(zend_string **) a),
		ZSTR_VAL(*(zend_string **) b), ZSTR_LEN(*(zend_string **) b));
}

zend_string *rlock_multi_key(zend_string **full, uint32_t n)
{
	smart_str s = {0};
	zend_string *sorted[RLOCK_MULTI_MAX_KEYS];

	ZEND_ASSERT(n > 0 && n <= RLOCK_MULTI_MAX_KEYS);
	memcpy(sorted, full, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_keys);
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0 && zend_string_equals(sorted[i - 1], sorted[i])) {
			smart_str_free(&s);
			return NULL;
		}
		smart_str_append_unsigned(&s, ZSTR_LEN(sorted[i]));
		smart_str_appendc(&s, ':');
		smart_str_append(&s, sorted[i]);
		smart_str_appendc(&s, ',');
	}
	return smart_str_extract(&s);
}

static void keys_free(multi_keys *m)
{
	for (uint32_t i = 0; i < m->n; i++) {
		rlock_keys_free(&m->k[i]);
	}
}

/* key, rlock_multi_key()'s, into m: false should it not be one (nothing to free then). */
static bool keys_init(multi_keys *m, zend_string *key)
{
	const char *p = ZSTR_VAL(key), *end = p + ZSTR_LEN(key);

	m->n = 0;
	while (p < end && m->n < RLOCK_MULTI_MAX_KEYS) {
		const char *colon = memchr(p, ':', end - p);
		zend_long len;
		if (!colon || !rlock_parse_number(p, colon - p, end - colon - 2, &len) || colon[1 + len] != ',') {
			break;
		}
		rlock_keys *k = &m->k[m->n];
		zend_string *lock = zend_string_init(colon + 1, len, 0);
		rlock_keys_init(k, lock);
		zend_string_release(lock);
		m->locks[m->n] = k->keys[0];
		m->wakes[m->n] = k->keys[4];
		for (int j = 0; j < 5; j++) {
			if (j < 3) {
				m->acquire[3 * m->n + j] = k->keys[j];
			}
			m->all[5 * m->n + j] = k->keys[j];
		}
		m->n++;
		p = colon + 2 + len;
	}
	if (p != end || m->n == 0) {
		keys_free(m);
		return false;
	}
	return true;
}

bool rlock_multi_is_key(zend_string *key)
{
	multi_keys m;
	if (!keys_init(&m, key)) {
		return false;
	}
	keys_free(&m);
	return true;
}

/* keys_init(), or err set. */
static bool keys_of(multi_keys *m, zend_string *key, rlock_err *err)
{
	if (!keys_init(m, key)) {
		rlock_err_set(err, RLOCK_ERR_REPLY, "-", "not the key of a lock over several keys");
		return false;
	}
	return true;
}

static void call_acquire(rlock_call *c, const rlock_waiter *w, const rlock_opts *o, zend_long wait_ms, bool queued,
	zend_string *self)
{
	const multi_keys *m = w->arg;
	rlock_call_start(c, &script_acquire, 3 * m->n, (zend_string **) m->acquire, self);
	rlock_call_str(c, w->token);
	rlock_call_num(c, 1, o->ttl);
	rlock_call_num(c, 2, wait_ms);
	rlock_call_flag(c, queued);
	rlock_call_num(c, 3, m->n);
}

static int multi_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	multi_keys m;
	rlock_attempt res = {0};
	zend_long deadline = rlock_deadline(wait_ms);

	rlock_conn_begin(o, wait_ms);
	if (!keys_of(&m, key, err)) {
		return -1;
	}
	zend_string *token = rlock_lock_token_for(o, MULTI_KIND, key, err);
	if (!token) {
		keys_free(&m);
		return -1;
	}
	rlock_waiter w = { .k = &m.k[0], .token = token, .call = call_acquire, .lists = m.wakes, .nlists = m.n,
		.arg = &m };
	int rc = rlock_lock_wait(o, &w, deadline, &res, err);
	if (rc < 0 && err->kind == RLOCK_ERR_CONNECTION) {
		rlock_lock_token_lost(o, MULTI_KIND, key, token);
	}
	if (w.self) {
		zend_string_release(w.self);
	}
	zend_string_release(token);
	keys_free(&m);
	if (rc == 1) {
		out->token = res.token;
		out->fence = -1;  /* none: a multi lock has no fencing token (fencingToken() null) */
		out->valid_until = w.sent + o->ttl;
	}
	return rc;
}

/* One script over the keys of m (all: with their companions); the reply's integer in
 * min..max into *n. */
static int run_script(const rlock_opts *o, multi_keys *m, rlock_call *c, zend_long min, zend_long max, zend_long *n,
	rlock_err *err)
{
	redisReply *r = rlock_lock_run(o, m->locks[0], c, err);
	return r && rlock_reply_integer(rlock_route_answered(o), r, min, max, n, err) ? 0 : -1;
}

static int multi_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	multi_keys m;
	rlock_call c;
	zend_long n = 0, nums[3] = { o->fair, o->ttl, rlock_fence_keep(o->ttl) };
	smart_str next = {0};

	rlock_conn_begin(o, 0);
	if (!keys_of(&m, key, err)) {
		return -1;
	}
	for (uint32_t i = 0; i < m.n; i++) {
		zend_string *t = rlock_new_token(err);
		if (!t) {
			smart_str_free(&next);
			keys_free(&m);
			return -1;
		}
		if (i > 0) {
			smart_str_appendc(&next, ' ');
		}
		smart_str_append(&next, t);
		zend_string_release(t);
	}
	smart_str_0(&next);
	rlock_call_start(&c, &script_release, 5 * m.n, m.all, NULL);
	rlock_call_token(&c, h->token);
	rlock_call_packed(&c, NULL, nums, 3);
	rlock_call_str(&c, next.s);
	int rc = run_script(o, &m, &c, 0, 1, &n, err);
	smart_str_free(&next);
	keys_free(&m);
	return rc < 0 ? -1 : n == 1;
}

static int multi_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	multi_keys m;
	rlock_call c;
	zend_long n = 0, sent = rlock_now_ms();

	rlock_conn_begin(o, 0);
	if (!keys_of(&m, key, err)) {
		return -1;
	}
	rlock_call_start(&c, &script_extend, m.n, m.locks, NULL);
	rlock_call_str(&c, h->token);
	rlock_call_num(&c, 1, ttl);
	int rc = run_script(o, &m, &c, 0, 1, &n, err);
	keys_free(&m);
	if (rc < 0) {
		return -1;
	}
	if (n == 1) {
		h->valid_until = sent + ttl;
		return 1;
	}
	/* one key is gone: the set is lost; the keys still ours are given back now, not at
	 * the end of their lease */
	rlock_err ignored = {0};
	multi_release(o, key, h, &ignored);
	return 0;
}

/* A command over every key (MGET, EXISTS): the reply, or NULL with err set. */
static redisReply *keys_command(const rlock_opts *o, const char *name, multi_keys *m, rlock_err *err)
{
	rlock_cmd cmd = { .argc = 1, .argv = { name }, .lens = { strlen(name) } };
	for (uint32_t i = 0; i < m->n; i++) {
		cmd.argv[cmd.argc] = ZSTR_VAL(m->locks[i]);
		cmd.lens[cmd.argc++] = ZSTR_LEN(m->locks[i]);
	}
	rlock_conn_begin(o, 0);
	return rlock_route_call(o, m->locks[0], &cmd, 0, err);
}

/* Every key holds token. */
static int multi_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	multi_keys m;
	if (!keys_of(&m, key, err)) {
		return -1;
	}
	redisReply *r = keys_command(o, "MGET", &m, err);
	int yes = -1;
	if (r && r->type == REDIS_REPLY_ARRAY && r->elements == m.n) {
		yes = 1;
		for (size_t i = 0; i < r->elements; i++) {
			redisReply *e = r->element[i];
			if (!rlock_reply_holds(e, token)) {
				yes = 0;
			}
		}
	} else if (r) {
		rlock_err_set(err, RLOCK_ERR_REPLY, rlock_route_answered(o)->label, "unexpected reply to MGET");
	}
	if (r) {
		freeReplyObject(r);
	}
	keys_free(&m);
	return yes;
}

/* Any key is held. */
static int multi_exists(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	multi_keys m;
	zend_long n = 0;
	if (!keys_of(&m, key, err)) {
		return -1;
	}
	redisReply *r = keys_command(o, "EXISTS", &m, err);
	int rc = r && rlock_reply_integer(rlock_route_answered(o), r, 0, m.n, &n, err) ? n > 0 : -1;
	keys_free(&m);
	return rc;
}

static int multi_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err)
{
	multi_keys m;
	rlock_call c;
	rlock_conn_begin(o, 0);
	if (!keys_of(&m, key, err)) {
		return -1;
	}
	rlock_call_start(&c, &script_pttl, m.n, m.locks, NULL);
	int rc = run_script(o, &m, &c, -2, ZEND_LONG_MAX, out, err);
	keys_free(&m);
	return rc;
}

/* Every key holds the token: the watchdog renews each. */
static uint32_t multi_renewed(zend_string *key, zend_string **out, uint32_t max)
{
	multi_keys m;
	uint32_t n = 0;
	if (!keys_init(&m, key)) {
		return 0;
	}
	for (; n < m.n && n < max; n++) {
		out[n] = zend_string_copy(m.locks[n]);
	}
	keys_free(&m);
	return n;
}

/* lock over "a", "b", ...: the keys as the user named them (prefix included). */
static void multi_name(zend_string *key, smart_str *out)
{
	multi_keys m;
	if (!keys_init(&m, key)) {
		rlock_lock_name(out, "lock", key);
		return;
	}
	smart_str_appends(out, "lock over ");
	for (uint32_t i = 0; i < m.n; i++) {
		smart_str_appends(out, i ? ", \"" : "\"");
		smart_str_append(out, m.locks[i]);
		smart_str_appendc(out, '"');
	}
	keys_free(&m);
}

const rlock_algo rlock_multi_algo = {
	.kind = MULTI_KIND,
	.acquire = multi_acquire,
	.release = multi_release,
	.extend = multi_extend,
	.is_owner = multi_is_owner,
	.exists = multi_exists,
	.pttl = multi_pttl,
	.renewed = multi_renewed,
	.name = multi_name,
};
