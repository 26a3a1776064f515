/* What this process holds: hold counts for reentrancy, and the release at request end or
 * at the end of the execution context that took them.
 *
 * RLOCK_G(held) maps what tells a hold apart (hold_id()) to the holds of it, one per
 * context that holds it (a chain: usually one), each with its own token. */

#include "php.h"
#include "php_rlock.h"
#include "src/state/registry.h"
#include "src/transport/conn.h"
#include "src/primitives/scripts.h"
#include "src/state/watchdog.h"
#include "src/primitives/rwlock.h"
#include "src/stats/stats.h"

#include <unistd.h>

typedef struct rlock_held_s {
	const rlock_algo *algo;
	rlock_opts *opts;
	zend_string *key;
	rlock_hold hold;
	uint32_t count;
	rlock_ctx ctx;  /* the context that took it */
	/* its acquire issued it a fencing token (taken with "fencing"); one taken without, or
	 * restored (RLock::restore()), has none, and no fencing acquire re-enters it */
	bool fenced;
	pid_t pid;  /* a forked child holds nothing of its parent's */
	/* renewed by the watchdog while held, one entry per Redis key the hold keeps its token
	 * in (a lock over several keys: each); NULL without it */
	rlock_watchdog_entry **wd;
	uint32_t nwd;
	uint64_t serial;  /* this hold's, in this process: what an object's part names it by (lost.h) */
	bool told;        /* found lost by the watchdog, and told (lost.h): never twice */
	struct rlock_held_s *next;  /* another context's hold of the same */
} rlock_held;

/* The Redis keys a hold of key (a's) keeps its token in, into keys (the caller releases
 * them): how many. */
static uint32_t token_keys(const rlock_algo *a, zend_string *key, zend_string **keys)
{
	if (!a->renewed) {
		keys[0] = zend_string_copy(key);
		return 1;
	}
	return a->renewed(key, keys, RLOCK_ALGO_MAX_KEYS);
}

static void keys_release(zend_string **keys, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		zend_string_release(keys[i]);
	}
}

/* The watchdog renewing token's hold of key from now on (valid until valid_until, 0 unknown;
 * fence: its fencing token, 0 none): nwd entries, or NULL with err set. */
static rlock_watchdog_entry **watch(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token,
	zend_long fence, zend_long valid_until, uint32_t *nwd, rlock_err *err)
{
	zend_string *keys[RLOCK_ALGO_MAX_KEYS];
	uint32_t n = token_keys(a, key, keys);
	rlock_watchdog_entry **wd = n ? ecalloc(n, sizeof(*wd)) : NULL;
	/* one renewal of the lock renews its n keys: the statistics count it on the first only */
	uint64_t stats_key = n ? rlock_stats_watch_hash(a, key) : 0;
	for (uint32_t i = 0; i < n && wd; i++) {
		/* (the fencing counter is a mutex's: the one key its token lives in) */
		if (!(wd[i] = rlock_watchdog_watch(o, keys[i], token, a->renewed ? 0 : fence, o->ttl, valid_until,
				i == 0 ? stats_key : 0, err))) {
			while (i-- > 0) {
				rlock_watchdog_unwatch(wd[i]);
			}
			efree(wd);
			wd = NULL;
		}
	}
	keys_release(keys, n);
	if (!wd && n == 0) {
		rlock_err_set(err, RLOCK_ERR_REPLY, "-", "no key to renew");
	}
	*nwd = wd ? n : 0;
	return wd;
}

/* Whether the watchdog found h no longer ours (one of its keys, for a lock over several). */
static bool held_lost(const rlock_held *h)
{
	for (uint32_t i = 0; i < h->nwd; i++) {
		if (rlock_watchdog_lost(h->wd[i])) {
			return true;
		}
	}
	return false;
}

/* When h's lease ends by our clock: as acquired or extended, or as the watchdog last renewed
 * it (its keys: the earliest). */
static zend_long held_valid_until(const rlock_held *h)
{
	zend_long renewed = h->nwd ? ZEND_LONG_MAX : 0;
	for (uint32_t i = 0; i < h->nwd; i++) {
		renewed = MIN(renewed, rlock_watchdog_valid_until(h->wd[i]));
	}
	return MAX(h->hold.valid_until, renewed);
}

/* Who is told of a hold found lost: lost.c, above, at MINIT (rlock_registry_on_lost()). */
static void (*found_lost)(uint64_t serial);

void rlock_registry_on_lost(void (*fn)(uint64_t serial))
{
	found_lost = fn;
}

/* The watchdog found h lost: told, once per hold (lost.c calls the onLost callbacks of the
 * objects holding it, at the next opcode), and counted in the statistics there, once. Not a
 * hold of a forked parent's. */
static void held_tell(rlock_held *h)
{
	if (h->told || h->pid != rlock_getpid()) {
		return;
	}
	h->told = true;
	rlock_stats_lost(h->algo, h->key);
	found_lost(h->serial);
}

/* Stop renewing h's lease. A loss the watchdog found (its last word, under its mutex) is told
 * now if it was not yet (an unlock() that found it lost before the next opcode, a Fiber's
 * end): whether the watchdog found h lost, told and counted, so the caller counts it not. */
static bool held_unwatch(rlock_held *h)
{
	bool lost = false;
	for (uint32_t i = 0; i < h->nwd; i++) {
		lost = rlock_watchdog_unwatch(h->wd[i]) || lost;
	}
	if (h->wd) {
		efree(h->wd);
		h->wd = NULL;
	}
	h->nwd = 0;
	if (lost) {
		held_tell(h);
	}
	return h->told;
}

static void held_free(rlock_held *h)
{
	held_unwatch(h);
	if (h->pid == rlock_getpid()) {
		rlock_stats_holds(-1);
	}
	if (h->algo->renewed) {
		RLOCK_G(held_over_keys)--;
	}
	rlock_opts_release(h->opts);
	zend_string_release(h->key);
	zend_string_release(h->hold.token);
	efree(h);
}

static void held_dtor(zval *zv)
{
	for (rlock_held *h = Z_PTR_P(zv), *next; h; h = next) {
		next = h->next;
		held_free(h);
	}
}

/* What tells a hold apart: the key and kind, and for a shared kind the holder's token too. */
static zend_string *hold_id(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = rlock_opts_lock_id(o, a->kind, key);
	if (!a->shared) {
		return id;
	}
	zend_string *with = zend_string_concat3(ZSTR_VAL(id), ZSTR_LEN(id), "\0", 1, ZSTR_VAL(token), ZSTR_LEN(token));
	zend_string_release(id);
	return with;
}

/* The holds of id (the table's entry: a chain of them, one per context of this process or,
 * after a fork, of its parent), or NULL. */
static zval *chain(zend_string *id)
{
	return RLOCK_G(request_active) ? zend_hash_find(&RLOCK_G(held), id) : NULL;
}

/* This process' hold in chain zv by context ctx, or NULL. */
static rlock_held *find_ctx(zval *zv, rlock_ctx ctx)
{
	rlock_held *h = zv ? Z_PTR_P(zv) : NULL;
	while (h && (h->ctx != ctx || h->pid != rlock_getpid())) {
		h = h->next;
	}
	return h;
}

/* This process' hold in chain zv with token, whichever context took it, or NULL. */
static rlock_held *find_token(zval *zv, zend_string *token)
{
	rlock_held *h = zv ? Z_PTR_P(zv) : NULL;
	while (h && (h->pid != rlock_getpid() || !zend_string_equals(h->hold.token, token))) {
		h = h->next;
	}
	return h;
}

/* h, a hold in chain zv, out of it (and the chain out of the table with its last hold), not
 * freed: zv, or NULL when the chain is gone with it. */
static zval *unlink_held(zval *zv, rlock_held *h)
{
	rlock_held **p = (rlock_held **) &Z_PTR_P(zv);
	while (*p != h) {
		p = &(*p)->next;
	}
	*p = h->next;
	if (!Z_PTR_P(zv)) {
		zend_hash_del_bucket(&RLOCK_G(held), (Bucket *) zv);
		return NULL;
	}
	return zv;
}

/* h, a hold in chain zv, forgotten: what unlink_held() returns. */
static zval *drop(zval *zv, rlock_held *h)
{
	zv = unlink_held(zv, h);
	held_free(h);
	return zv;
}

/* A lock the watchdog found gone: forget it. A lock over several keys found one gone gives
 * the others back now, not at the end of their lease. Out of the table before that release:
 * it may yield a Swoole coroutine, and another change the table meanwhile. */
static void settle_lost(zval *zv, rlock_held *h)
{
	bool others = h->nwd > 1;
	held_unwatch(h);
	unlink_held(zv, h);
	if (others) {
		rlock_err ignored = {0};
		h->algo->release(h->opts, h->key, &h->hold, &ignored);
	}
	held_free(h);
}

/* A new hold under id, the running context's, in chain zv (NULL: the first of id). The
 * table copies what it keeps. */
static void keep(zval *zv, const rlock_algo *a, rlock_opts *o, zend_string *key, zend_string *id, const rlock_hold *hold,
	bool fenced, rlock_ctx ctx, rlock_watchdog_entry **wd, uint32_t nwd)
{
	rlock_held *h = emalloc(sizeof(*h));
	h->algo = a;
	h->fenced = fenced;
	h->opts = rlock_opts_addref(o);
	h->key = zend_string_copy(key);
	h->hold = *hold;
	h->hold.token = zend_string_copy(hold->token);
	h->count = 1;
	h->ctx = ctx;
	h->pid = rlock_getpid();
	rlock_stats_holds(1);
	h->wd = wd;
	h->nwd = nwd;
	h->serial = ++RLOCK_G(held_serial);
	h->told = false;
	h->next = NULL;
	if (a->renewed) {
		RLOCK_G(held_over_keys)++;
	}
	if (zv) {
		h->next = Z_PTR_P(zv);
		Z_PTR_P(zv) = h;
	} else {
		zend_hash_add_new_ptr(&RLOCK_G(held), id, h);
	}
}

/* Whether context ctx holds, through another hold than id on o's servers, a Redis key that a
 * hold of key (a's) keeps its token in: then its acquire would wait for itself (a lock over
 * several keys, one of them held alone or by another such lock), and err says so. Only a
 * lock over several keys can meet another hold on a key: otherwise holds of a key are one id. */
static bool self_deadlock(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *id, rlock_ctx ctx,
	rlock_err *err)
{
	zend_string *mine[RLOCK_ALGO_MAX_KEYS], *theirs[RLOCK_ALGO_MAX_KEYS], *hid, *both = NULL;
	uint32_t n = token_keys(a, key, mine);
	rlock_held *h;

	ZEND_HASH_FOREACH_STR_KEY_PTR(&RLOCK_G(held), hid, h) {
		if (zend_string_equals(hid, id)) {
			continue;  /* the same lock: reentrant, or (reentrant off) waiting as it asked */
		}
		for (; h && !both; h = h->next) {
			if (h->ctx != ctx || h->pid != rlock_getpid() || (!a->renewed && !h->algo->renewed)
					|| !zend_string_equals(h->opts->id, o->id)) {
				continue;
			}
			uint32_t m = token_keys(h->algo, h->key, theirs);
			for (uint32_t i = 0; i < n && !both; i++) {
				for (uint32_t j = 0; j < m && !both; j++) {
					both = zend_string_equals(mine[i], theirs[j]) ? zend_string_copy(mine[i]) : NULL;
				}
			}
			keys_release(theirs, m);
		}
	} ZEND_HASH_FOREACH_END();
	keys_release(mine, n);
	if (both) {
		rlock_err_set(err, RLOCK_ERR_USE, NULL, a->renewed
			? "RLock::multi() cannot take \"%s\": the calling context (this Fiber, or the main flow) holds it already "
				"through another lock, and would wait for itself; release that lock first, or take every key in one RLock::multi()"
			: "Cannot lock \"%s\": the calling context (this Fiber, or the main flow) holds it already through an "
				"RLock::multi(), and would wait for itself; release that first", ZSTR_VAL(both));
		zend_string_release(both);
	}
	return both != NULL;
}

/* Whether context ctx holds the read side of the read-write lock on key (a reentrant hold,
 * its lease not over by our clock): then a's acquire, of that lock's write side with reentrant
 * on, would wait for itself, since a writer waits for every reader to leave, the context's own
 * reader included (only a writer reads past itself), and err says so. With reentrant off each
 * object is an owner of its own, and waits for another as another process would. */
static bool own_reader(const rlock_algo *a, const rlock_opts *o, zend_string *key, rlock_ctx ctx, rlock_err *err)
{
	if (a != &rlock_rwlock_write_algo || !o->reentrant) {
		return false;
	}
	zend_string *id = rlock_opts_lock_id(o, rlock_rwlock_read_algo.kind, key);
	zval *zv = chain(id);
	rlock_held *h = zv ? Z_PTR_P(zv) : NULL;
	zend_string_release(id);
	while (h && (h->ctx != ctx || h->pid != rlock_getpid() || !h->opts->reentrant || held_lost(h)
			|| rlock_now_ms() >= held_valid_until(h))) {
		h = h->next;
	}
	if (h) {
		zend_string *name = rlock_algo_name(a, key);
		rlock_err_set(err, RLOCK_ERR_USE, NULL, "Cannot lock the %s: the calling context (this Fiber, or the main flow) "
			"holds its read lock already, and would wait for itself (a writer waits for every reader to leave); "
			"release the read lock first", ZSTR_VAL(name));
		zend_string_release(name);
	}
	return h != NULL;
}

static int acquire(const rlock_algo *a, rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	zend_string *id = rlock_opts_lock_id(o, a->kind, key);
	rlock_ctx ctx = rlock_context();
	zval *zv = chain(id);
	rlock_held *h = find_ctx(zv, ctx);
	rlock_watchdog_entry **wd = NULL;
	uint32_t nwd = 0;

	if (h && held_lost(h)) {
		/* not ours any more: nothing to re-enter */
		settle_lost(zv, h);
		zv = chain(id);
		h = NULL;
	}
	if (h && rlock_now_ms() >= held_valid_until(h)) {
		/* our lease ran out (by our clock): never vouch for it, ask Redis */
		zv = drop(zv, h);
		h = NULL;
	}
	if (h && o->reentrant && h->opts->reentrant && o->fencing && !h->fenced) {
		/* A fencing token asked of a hold that has none. Issuing one now would hand the hold a
		 * token in its middle: greater than every earlier holder's, but what the hold did
		 * before it (unfenced writes) is not ordered by it, and over Redlock it would need the
		 * acquire's raise of a quorum's counters again. Refused at once, nothing asked of
		 * Redis: no token is issued but at the start of a hold, so tokens keep increasing
		 * across successive holders (CONTRACT 3.8), and never 0 is handed out as one. */
		zend_string *name = rlock_algo_name(a, key);
		rlock_err_set(err, RLOCK_ERR_USE, NULL, "Cannot re-enter the %s with \"fencing\": the calling context (this "
			"Fiber, or the main flow) holds it already through a hold that has no fencing token (taken without "
			"\"fencing\", or restored), and a token issued inside it would not fence what it did before; take the "
			"outermost hold with \"fencing\" => true", ZSTR_VAL(name));
		zend_string_release(name);
		zend_string_release(id);
		return -1;
	}
	if (h && o->reentrant && h->opts->reentrant) {
		/* one round trip: the hold is still ours in Redis (nobody deleted it, no restart
		 * lost it), and its lease starts again, as Redisson's reentrant lock does; never
		 * shorter than what is left of it (a nested acquire with a shorter ttl would cut the
		 * outer holder's lease: another process inside before the outermost unlock). A hold
		 * taken with reentrant off is not re-entered: another owner (the bridges' locks). */
		/* on a copy, h found again after: a Swoole coroutine yields in the round trip, and
		 * another may change the table meanwhile, free h even (RLock::release() by its token) */
		uint64_t serial = h->serial;
		rlock_hold hold = h->hold;
		hold.token = zend_string_copy(hold.token);
		/* as the watchdog last renewed it, if later (Redlock heals a master only before then) */
		hold.valid_until = held_valid_until(h);
		int rc = a->extend(o, key, &hold, MAX(o->ttl, hold.valid_until - rlock_now_ms()), err);
		zv = chain(id);
		h = find_ctx(zv, ctx);
		if (h && h->serial == serial) {
			h->hold.fence = hold.fence;
			h->hold.valid_until = hold.valid_until;
		} else {
			/* released meanwhile: not ours to re-enter; what Redis extended goes back, and
			 * it is acquired as if not held */
			h = NULL;
			if (rc == 1) {
				rlock_err ignored = {0};
				a->release(o, key, &hold, &ignored);
				zv = chain(id);
			}
			rc = rc < 0 ? -1 : 0;
		}
		zend_string_release(hold.token);
		if (h && rc == 1 && o->watchdog && !h->wd
				&& !(h->wd = watch(a, o, key, h->hold.token, h->hold.fence, h->hold.valid_until, &h->nwd, err))) {
			rc = -1;
		}
		if (rc != 0) {
			if (rc == 1) {
				h->count++;
				*out = h->hold;
				out->token = zend_string_copy(h->hold.token);
			}
			zend_string_release(id);
			return rc;
		}
		if (h) {
			zv = drop(zv, h);
		}
	}
	if (RLOCK_G(request_active) && (own_reader(a, o, key, ctx, err)
			|| ((a->renewed || RLOCK_G(held_over_keys) > 0) && self_deadlock(a, o, key, id, ctx, err)))) {
		zend_string_release(id);
		return -1;
	}
	rlock_stats_mark mark;
	rlock_stats_begin(&mark, wait_ms);
	int rc = a->acquire(o, key, wait_ms, out, err);
	rlock_stats_end(&mark, a, key, wait_ms, rc);
	if (rlock_context_yields()) {
		zv = chain(id);
	}
	if (rc == 1 && o->watchdog && RLOCK_G(request_active)
			&& !(wd = watch(a, o, key, out->token, out->fence, out->valid_until, &nwd, err))) {
		/* not renewed, not kept: give it back at once */
		rlock_err ignored = {0};
		a->release(o, key, out, &ignored);
		zend_string_release(out->token);
		zend_string_release(id);
		return -1;
	}
	if (rc == 1 && RLOCK_G(request_active)) {
		keep(zv, a, o, key, id, out, o->fencing, ctx, wd, nwd);
	}
	zend_string_release(id);
	return rc;
}

int rlock_registry_acquire(const rlock_algo *a, rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	/* one deadline for all it does: the extend of a reentrant lock() and the acquire after
	 * it, the release when the watchdog cannot start */
	rlock_conn_enter(o, wait_ms);
	int rc = acquire(a, o, key, wait_ms, out, err);
	rlock_conn_leave();
	return rc;
}

int rlock_registry_add(const rlock_algo *a, rlock_opts *o, zend_string *key, const rlock_hold *hold, rlock_err *err)
{
	rlock_watchdog_entry **wd = NULL;
	uint32_t nwd = 0;

	if (!RLOCK_G(request_active)) {
		return 0;
	}
	zend_string *id = hold_id(a, o, key, hold->token);
	zval *zv = chain(id);
	rlock_held *h = find_token(zv, hold->token);
	if (h && !held_lost(h)) {
		/* more taken by the same holder: one hold still, its lease as long as the newest */
		h->hold.valid_until = MAX(h->hold.valid_until, hold->valid_until);
		zend_string_release(id);
		return 0;
	}
	if (o->watchdog && !(wd = watch(a, o, key, hold->token, hold->fence, hold->valid_until, &nwd, err))) {
		zend_string_release(id);
		return -1;
	}
	rlock_ctx ctx = rlock_context();
	if (!h && !a->shared) {
		/* a lock restored: it replaces what this context held of it before */
		h = find_ctx(zv, ctx);
	}
	bool counted = false;
	if (h) {
		/* a hold the watchdog found lost: its loss told and counted now */
		counted = held_unwatch(h);
		zv = drop(zv, h);
	}
	keep(zv, a, o, key, id, hold, false, ctx, wd, nwd);
	zend_string_release(id);
	return counted ? 1 : 0;
}

int rlock_registry_release(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	zend_string *id = hold_id(a, o, key, token);
	zval *zv = chain(id);
	rlock_held *h = find_token(zv, token);
	rlock_hold hold = { .token = token };
	bool told = false;

	zend_string_release(id);
	if (h) {
		if (held_lost(h)) {
			/* every hold of it is gone with it (told and counted as the watchdog found it) */
			settle_lost(zv, h);
			return 0;
		}
		if (--h->count > 0) {
			return 1;
		}
		/* stop renewing before the release, so no renewal races it (one that found it lost
		 * meanwhile was told and counted) */
		told = held_unwatch(h);
		drop(zv, h);
	}
	int rc = a->release(o, key, &hold, err);
	if (rc == 0 && !told) {
		/* a loss this release found */
		rlock_stats_lost(a, key);
	}
	return rc;
}

void rlock_registry_extended(const rlock_algo *a, const rlock_opts *o, zend_string *key, const rlock_hold *hold, zend_long ttl)
{
	zend_string *id = hold_id(a, o, key, hold->token);
	rlock_held *h = find_token(chain(id), hold->token);
	if (h) {
		h->hold.valid_until = hold->valid_until;
		for (uint32_t i = 0; i < h->nwd; i++) {
			rlock_watchdog_set_ttl(h->wd[i], ttl, hold->valid_until);
		}
	}
	zend_string_release(id);
}

bool rlock_registry_forget(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = hold_id(a, o, key, token);
	zval *zv = chain(id);
	rlock_held *h = find_token(zv, token);
	bool told = false;
	if (h) {
		told = held_unwatch(h);
		drop(zv, h);
	}
	zend_string_release(id);
	return told;
}

bool rlock_registry_lost(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = hold_id(a, o, key, token);
	rlock_held *h = find_token(chain(id), token);
	zend_string_release(id);
	return h && held_lost(h);
}

zend_string *rlock_registry_token(const rlock_algo *a, const rlock_opts *o, zend_string *key)
{
	zend_string *id = rlock_opts_lock_id(o, a->kind, key);
	rlock_held *h = RLOCK_G(request_active) ? find_ctx(chain(id), rlock_context()) : NULL;
	zend_string_release(id);
	return h && !held_lost(h) ? h->hold.token : NULL;
}

uint64_t rlock_registry_serial(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = hold_id(a, o, key, token);
	rlock_held *h = find_token(chain(id), token);
	zend_string_release(id);
	return h ? h->serial : 0;
}

void rlock_registry_tell_lost(void)
{
	zval *zv;

	if (!RLOCK_G(request_active)) {
		return;
	}
	ZEND_HASH_FOREACH_VAL(&RLOCK_G(held), zv) {
		for (rlock_held *h = Z_PTR_P(zv); h; h = h->next) {
			if (held_lost(h)) {
				held_tell(h);
			}
		}
	} ZEND_HASH_FOREACH_END();
}

void rlock_registry_unwatch(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = hold_id(a, o, key, token);
	rlock_held *h = find_token(chain(id), token);
	if (h) {
		held_unwatch(h);
	}
	zend_string_release(id);
}

void rlock_registry_rinit(void)
{
	zend_hash_init(&RLOCK_G(held), 8, NULL, held_dtor, 0);
	RLOCK_G(held_over_keys) = 0;
	RLOCK_G(request_active) = true;
	rlock_context_rinit();
	rlock_conn_reset();
}

/* The end of h as a hold of this process: renewal stops, before the release, and with
 * auto_release the lock is released (unless the watchdog found it gone: a lock over several
 * keys still gives back the others). 1 released, 0 not. */
static int held_end(rlock_held *h)
{
	bool lost = held_lost(h), others = h->nwd > 1;
	held_unwatch(h);
	if (h->pid != rlock_getpid() || !h->opts->auto_release || (lost && !others)) {
		return 0;
	}
	rlock_err err = {0};
	return h->algo->release(h->opts, h->key, &h->hold, &err) == 1 && !lost;
}

/* Every hold of ctx in a chain ended and forgotten (with all, every hold): how many were
 * released. */
static zend_long chain_end(zval *zv, rlock_ctx ctx, bool all)
{
	zend_long released = 0;
	for (rlock_held **p = (rlock_held **) &Z_PTR_P(zv), *h; (h = *p); ) {
		if (all || (h->ctx == ctx && h->pid == rlock_getpid())) {
			released += held_end(h);
			*p = h->next;
			held_free(h);
		} else {
			p = &h->next;
		}
	}
	return released;
}

/* Context ctx's first hold in the table, out of it, or NULL. */
static rlock_held *take_ctx(rlock_ctx ctx)
{
	zval *zv;
	ZEND_HASH_FOREACH_VAL(&RLOCK_G(held), zv) {
		rlock_held *h = find_ctx(zv, ctx);
		if (h) {
			unlink_held(zv, h);
			return h;
		}
	} ZEND_HASH_FOREACH_END();
	return NULL;
}

zend_long rlock_registry_end(rlock_ctx ctx)
{
	zend_long released = 0;
	rlock_held *h;

	if (!RLOCK_G(request_active)) {
		return 0;
	}
	/* one at a time, each out of the table before its release: a release yields a Swoole
	 * coroutine, and the others may change the table meanwhile */
	while ((h = take_ctx(ctx))) {
		released += held_end(h);
		held_free(h);
	}
	return released;
}

void rlock_registry_post_deactivate(void)
{
	zval *zv;

	if (!RLOCK_G(request_active)) {
		return;  /* the request never started (its startup failed before RINIT) */
	}
	rlock_conn_reset();  /* a bailout in a call skipped its leave: each release below begins its own */
	/* Every lock the request took is in here, whenever it was taken: in the script, a
	 * shutdown function, a destructor, or PHP code that another extension runs in its
	 * RSHUTDOWN (the session module calls a save handler's write() there, after ours).
	 * Objects still alive were freed by now (zend_deactivate), releasing theirs; what is
	 * left was never freed (a fatal error during shutdown) or was let go with auto_release
	 * off. A request that died (fatal error, exit(), timeout, uncaught exception) ends here
	 * too, and so do Fibers left suspended by it. */
	ZEND_HASH_FOREACH_VAL(&RLOCK_G(held), zv) {
		chain_end(zv, 0, true);
	} ZEND_HASH_FOREACH_END();
	RLOCK_G(request_active) = false;
	zend_hash_destroy(&RLOCK_G(held));
}

/* A context ended (src/state/context.c): its holds end (how many released is not asked). */
static void context_ended(rlock_ctx ctx)
{
	rlock_registry_end(ctx);
}

void rlock_registry_minit(void)
{
	rlock_context_on_end(context_ended);
	rlock_rwlock_held_by(rlock_registry_token);
}
