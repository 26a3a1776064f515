/* The class RLock: its object and its methods, thin over the registry and the algorithms. */

/* rlock: a distributed lock on Redis. Module entry, php.ini, and the thin methods of RLock. */

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_attributes.h"
#include "ext/spl/spl_exceptions.h"
#include "php_rlock.h"
#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/transport/conn.h"
#include "src/primitives/lock.h"
#include "src/primitives/redlock.h"
#include "src/primitives/scripts.h"
#include "src/transport/route.h"
#include "src/state/registry.h"
#include "src/stats/stats.h"
#include "src/state/context.h"
#include "src/primitives/multi.h"
#include "src/primitives/rwlock.h"
#include "src/state/watchdog.h"
#include "src/state/lost.h"
#include "src/php/classes.h"

#include <hiredis/hiredis.h>
#include <unistd.h>
#include <pthread.h>

static zend_class_entry *rlock_ce;
static zend_object_handlers rlock_object_handlers;

typedef struct {
	const rlock_algo *algo;  /* the mutex on one server or N; another kind for a read-write lock's side */
	rlock_opts *opts;
	zend_string *key;    /* prefix included */
	/* what it holds, in each execution context that took it: the token, the nested holds
	 * (count), the fencing token and when the lease ends (Redlock: its validity), whether
	 * the last hold was found no longer ours before its release */
	rlock_owners own;
	rlock_on_lost on_lost;  /* onLost()'s callback */
	zend_object std;
} rlock_object;

static inline rlock_object *rlock_from_obj(zend_object *obj)
{
	return (rlock_object *) ((char *) obj - XtOffsetOf(rlock_object, std));
}

#define Z_RLOCK_P(zv) rlock_from_obj(Z_OBJ_P(zv))

/* ---- the object ---- */

static zend_object *rlock_create(zend_class_entry *ce)
{
	rlock_object *l = zend_object_alloc(sizeof(rlock_object), ce);
	zend_object_std_init(&l->std, ce);
	object_properties_init(&l->std, ce);
	l->std.handlers = &rlock_object_handlers;
	return &l->std;
}

/* What the running context holds through l: its part while it holds, else NULL (nothing
 * held in this context; none of a forked parent's). */
static rlock_own *rlock_held(rlock_object *l)
{
	rlock_own *me = rlock_owners_get(&l->own, false);
	return me && me->count > 0 ? me : NULL;
}

static void rlock_free(zend_object *obj)
{
	rlock_object *l = rlock_from_obj(obj);
	rlock_own *p;

	/* no callback for a lock being freed, even one its release below finds lost */
	rlock_lost_forget(&l->on_lost);
	/* every context's holds through it; a context that ended gave its own back already */
	for (uint32_t i = 0; (p = rlock_owners_at(&l->own, i)); i++) {
		if (l->opts && RLOCK_G(request_active) && rlock_own_holds(p)) {
			if (l->opts->auto_release) {
				/* No exception from a destructor: a failed release expires with the ttl. */
				rlock_err err = {0};
				while (p->count-- > 0) {
					rlock_registry_release(l->algo, l->opts, l->key, p->token, &err);
				}
			} else {
				/* Kept past the object, but no longer renewed: the lease runs out by itself. */
				rlock_registry_unwatch(l->algo, l->opts, l->key, p->token);
			}
		}
	}
	rlock_owners_free(&l->own);
	if (l->key) {
		zend_string_release(l->key);
	}
	if (l->opts) {
		rlock_opts_release(l->opts);
	}
	zend_object_std_dtor(obj);
}

static rlock_object *rlock_this(zval *this_ptr)
{
	rlock_object *l = Z_RLOCK_P(this_ptr);
	if (!l->opts) {
		zend_throw_error(NULL, "RLock object is not initialized");
		return NULL;
	}
	if (!rlock_context_usable()) {
		return NULL;
	}
	return l;
}

static int rlock_release_one(rlock_object *l, rlock_own *me, bool throw);

/* 1 acquired, 0 not within wait, -1 thrown. */
static int rlock_acquire(rlock_object *l, zend_long wait)
{
	rlock_hold hold;
	rlock_err err = {0};

	int rc = rlock_registry_acquire(l->algo, l->opts, l->key, wait, &hold, &err);
	if (rc < 0) {
		rlock_throw(l->opts, &err);
		return -1;
	}
	if (rc == 0) {
		return 0;
	}
	rlock_own *me = rlock_owners_get(&l->own, true);
	if (me->count > 0 && zend_string_equals(me->token, hold.token)) {
		zend_string_release(hold.token);
		me->count++;
	} else {
		rlock_own_drop(me);
		me->token = hold.token;
		me->count = 1;
		me->lost = false;
	}
	me->fence = hold.fence;
	me->valid_until = hold.valid_until;
	rlock_lost_track(&l->on_lost, me);
	if (UNEXPECTED(EG(exception) != NULL)) {
		/* an exception came in while we waited (Swoole: Co::cancel($cid, true), a time limit),
		 * and the caller gets it, not the lock: this hold goes back at once */
		rlock_release_one(l, me, false);
		return -1;
	}
	return 1;
}

/* Give back one hold of me (the running context's part of l, holding). 1 released (or
 * still held by an outer hold), 0 it was no longer ours, -1 thrown (when throw is set). */
static int rlock_release_one(rlock_object *l, rlock_own *me, bool throw)
{
	rlock_err err = {0};
	/* me stays: the release runs no PHP code */
	int rc = rlock_registry_release(l->algo, l->opts, l->key, me->token, &err);
	if (--me->count == 0) {
		rlock_own_drop(me);
	}
	if (rc < 0 && throw) {
		rlock_throw(l->opts, &err);
	}
	if (rc == 0) {
		/* not ours: neither are the holds nested in this one */
		rlock_own_drop(me);
		me->lost = true;
		RLOCK_G(counters).lost++;  /* the statistics: the registry counts it */
	}
	return rc;
}

/* Whether the watchdog found our hold no longer ours. No round trip. */
static bool rlock_found_lost(rlock_object *l)
{
	rlock_own *me = rlock_held(l);
	if (me && rlock_registry_lost(l->algo, l->opts, l->key, me->token)) {
		me->lost = true;
	}
	return me && me->lost;
}

/* unlock() or extend() called in a context that holds nothing through l, while another
 * context does: never that context's hold. Thrown, true. */
static bool rlock_held_elsewhere(rlock_object *l, const char *verb)
{
	return rlock_refuse_elsewhere(&l->own, verb, "the lock", l->key);
}

PHP_METHOD(RLock, __construct)
{
	zend_string *key;
	HashTable *options = NULL;
	rlock_object *l = Z_RLOCK_P(ZEND_THIS);

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();

	if (l->opts) {
		/* a misuse, as restore() on a holder is: rlock throws no plain Error */
		zend_throw_exception(rlock_ce_exception, "Cannot call RLock::__construct() twice", 0);
		RETURN_THROWS();
	}
	zend_string *full;
	rlock_opts *o = rlock_construct_args(key, options, &full);
	if (!o) {
		RETURN_THROWS();
	}
	l->algo = rlock_algo_of(o);
	l->opts = o;
	l->key = full;
}

PHP_METHOD(RLock, lock)
{
	zend_long wait = 0;
	bool wait_null = true;
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(wait, wait_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rlock_this(ZEND_THIS)) || (wait = rlock_ms_arg("wait", l->opts->wait, wait, wait_null, 1)) < 0) {
		RETURN_THROWS();
	}
	int rc = rlock_acquire(l, wait);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, tryLock)
{
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	int rc = rlock_acquire(l, 0);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, unlock)
{
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_own *me = rlock_held(l);
	if (!me) {
		if (rlock_held_elsewhere(l, "unlock")) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	int rc = rlock_release_one(l, me, true);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, extend)
{
	zend_long ttl = 0;
	bool ttl_null = true;
	rlock_object *l;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rlock_this(ZEND_THIS)) || (ttl = rlock_ms_arg("ttl", l->opts->ttl, ttl, ttl_null, 1)) < 0) {
		RETURN_THROWS();
	}
	rlock_own *me = rlock_held(l);
	if (!me) {
		if (rlock_held_elsewhere(l, "extend")) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	if (rlock_found_lost(l)) {
		rlock_release_one(l, me, false);
		RETURN_FALSE;
	}
	rlock_hold hold = { .token = me->token, .fence = me->fence, .valid_until = me->valid_until };
	int rc = l->algo->extend(l->opts, l->key, &hold, ttl, &err);
	me->valid_until = hold.valid_until;
	if (rc == 1) {
		rlock_registry_extended(l->algo, l->opts, l->key, &hold, ttl);
	}
	if (rc < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	if (rc == 0) {
		if (!rlock_registry_forget(l->algo, l->opts, l->key, me->token)) {
			/* found by this extend, not by the watchdog (counted as it found it) */
			rlock_stats_lost(l->algo, l->key);
		}
		rlock_own_drop(me);
		me->lost = true;
		RLOCK_G(counters).lost++;
	}
	RETURN_BOOL(rc);
}

/* synchronized()'s release: $fn may have released the lock itself (unlock()): that is no
 * loss, unless its unlock() or extend() found the lock no longer ours. Holds it took after
 * its own unlock() are counted as any, and the one given back here is the last. */
static int rlock_sync_give_back(void *holder, bool throw)
{
	rlock_object *l = holder;
	rlock_own *me = rlock_owners_get(&l->own, false);
	return me && me->count > 0 ? rlock_release_one(l, me, throw) : !(me && me->lost);
}

PHP_METHOD(RLock, restore)
{
	zend_string *token;
	rlock_object *l;
	rlock_err err = {0};
	zend_long pttl = 0;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STR(token)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (rlock_held(l)) {
		zend_throw_exception(rlock_ce_exception, "RLock::restore(): this object holds the lock already", 0);
		RETURN_THROWS();
	}
	if (ZSTR_LEN(token) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	/* nothing but a token of ours names a hold */
	if (!rlock_token_ours(ZSTR_VAL(token), ZSTR_LEN(token))) {
		RETURN_FALSE;
	}
	zend_long asked = rlock_now_ms();
	int rc;
	if (l->algo->owner_pttl) {
		rc = l->algo->owner_pttl(l->opts, l->key, token, &pttl, &err);
	} else if ((rc = l->algo->is_owner(l->opts, l->key, token, &err)) == 1
			&& l->algo->pttl(l->opts, l->key, &pttl, &err) < 0) {
		rc = -1;
	}
	/* Redlock: the validity that lease leaves, less the drift, as its acquire counts it */
	if (rc == 1 && l->opts->nservers > 0 && pttl > 0) {
		pttl = MAX(pttl - rlock_redlock_drift(pttl), 0);
	}
	/* the lease Redis has left, from before we asked (-1, no expiry: as if it ran out, so
	 * nothing vouches for it by our clock) */
	rlock_hold hold = { .token = token, .valid_until = asked + MAX(pttl, 0) };
	if (rc == 1 && rlock_registry_add(l->algo, l->opts, l->key, &hold, &err) < 0) {
		rc = -1;
	}
	if (rc < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	if (rc == 1) {
		/* the calling context's hold from now on, as one it took */
		rlock_own *me = rlock_owners_get(&l->own, true);
		rlock_own_drop(me);
		me->token = zend_string_copy(token);
		me->count = 1;
		me->lost = false;
		/* none known: the hold's fencing token was its taker's (fencingToken() null, never 0) */
		me->fence = -1;
		me->valid_until = hold.valid_until;
		rlock_lost_track(&l->on_lost, me);
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, forceUnlock)
{
	rlock_object *l;
	rlock_err err = {0};
	rlock_hold whoever = { .token = NULL };

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	/* the calling context's hold, if it has one, is gone with it: no outer hold, no renewal
	 * (another context's, as another process', is found lost at its unlock() or extend()) */
	zend_string *ours = rlock_registry_token(l->algo, l->opts, l->key);
	if (ours) {
		rlock_registry_forget(l->algo, l->opts, l->key, ours);
	}
	rlock_own *me = rlock_held(l);
	if (me) {
		rlock_own_drop(me);
	}
	int rc = l->algo->release(l->opts, l->key, &whoever, &err);
	if (rc < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, synchronized)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long wait = 0;
	bool wait_null = true;
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(wait, wait_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rlock_this(ZEND_THIS)) || (wait = rlock_ms_arg("wait", l->opts->wait, wait, wait_null, 2)) < 0) {
		RETURN_THROWS();
	}
	int rc = rlock_acquire(l, wait);
	if (rc < 0) {
		RETURN_THROWS();
	}
	zend_string *name = rlock_algo_name(l->algo, l->key);
	if (rc == 0) {
		zend_throw_exception_ex(rlock_ce_timeout_exception, 0, "Could not acquire the %s within " ZEND_LONG_FMT " ms",
			ZSTR_VAL(name), wait);
	} else {
		rlock_synchronized_run(return_value, ZEND_THIS, &fci, &fcc, rlock_sync_give_back, l,
			"The %s expired before it was released", name);
	}
	zend_string_release(name);
}

PHP_METHOD(RLock, isLocked)
{
	rlock_object *l;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	int rc = l->algo->exists(l->opts, l->key, &err);
	if (rc < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, isAcquired)
{
	rlock_object *l;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_own *me = rlock_held(l);
	if (!me || rlock_found_lost(l)) {
		RETURN_FALSE;
	}
	int rc = l->algo->is_owner(l->opts, l->key, me->token, &err);
	if (rc < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, ttl)
{
	rlock_object *l;
	rlock_err err = {0};
	zend_long pttl;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_own *me = l->opts->nservers > 0 ? rlock_held(l) : NULL;
	if (me) {
		/* Redlock: the validity left, which is less than any master's PTTL */
		RETURN_LONG(MAX(me->valid_until - rlock_now_ms(), 0));
	}
	if (l->algo->pttl(l->opts, l->key, &pttl, &err) < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	RETURN_LONG(pttl);
}

PHP_METHOD(RLock, token)
{
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_own *me = rlock_held(l);
	if (!me) {
		RETURN_NULL();
	}
	RETURN_STR_COPY(me->token);
}

PHP_METHOD(RLock, fencingToken)
{
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_own *me = rlock_held(l);
	if (!me || !l->opts->fencing || me->fence < 0) {
		RETURN_NULL();
	}
	RETURN_LONG(me->fence);
}

PHP_METHOD(RLock, key)
{
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_STR_COPY(l->key);
}

PHP_METHOD(RLock, lost)
{
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_found_lost(l);
	rlock_own *me = rlock_owners_get(&l->own, false);
	RETURN_BOOL(me && me->lost);
}

/* l's callback from now on: fn, a callable, or none (NULL). false thrown. */
static bool rlock_on_lost_set(rlock_object *l, zval *fn)
{
	return rlock_lost_listen(&l->on_lost, &l->std, &l->own, l->algo, l->opts, l->key, fn);
}

PHP_METHOD(RLock, onLost)
{
	zend_fcall_info fci = empty_fcall_info;
	zend_fcall_info_cache fcc = empty_fcall_info_cache;
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC_OR_NULL(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rlock_this(ZEND_THIS)) || !rlock_on_lost_set(l, ZEND_FCI_INITIALIZED(fci) ? &fci.function_name : NULL)) {
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(&l->std);
}

/* The hold of token on the lock key names, released: 1, 0 no lock key may name holds it,
 * -1 err set. key is what key() returns (prefix included: a mutex's, a read-write lock's
 * whose side holds it, a lock over several keys'), or a key as a constructor takes it
 * (prefix added). Both may name a lock ("rlock:x" under the prefix "rlock:" is the key
 * "x", and the key "rlock:x" itself): a token, 128 random bits, is held by one lock at
 * most, and only that one is released. The likely ones first, each its own round trip
 * (Cluster: two keys need not share a slot), all within one call's deadline. */
static int release_any(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	const rlock_algo *algos[3] = { rlock_algo_of(o), &rlock_rwlock_write_algo, &rlock_rwlock_read_algo };
	uint32_t nalgos = o->nservers > 0 ? 1 : 3;  /* Redlock: mutexes only */
	rlock_hold hold = { .token = token };
	int rc = 0;

	/* Only a token a hold was given releases anything: the scripts read an empty token as
	 * forceUnlock()'s "whoever holds", and nothing else is a token of ours. (Asked before
	 * the keys are made: nothing to free on this way out.) */
	if (!rlock_token_ours(ZSTR_VAL(token), ZSTR_LEN(token))) {
		return 0;
	}
	zend_string *keys[2] = { rlock_keys_is_lock_key(key, o->prefix) ? zend_string_copy(key) : NULL, rlock_full_key(o, key) };
	rlock_conn_enter(o, 0);
	if (o->nservers == 0 && rlock_multi_is_key(key)) {
		rlock_registry_forget(&rlock_multi_algo, o, key, token);
		rc = rlock_multi_algo.release(o, key, &hold, err);
	}
	for (uint32_t k = 0; k < 2; k++) {
		/* not twice the same key, nor one no lock in a Cluster has (its constructor refuses it) */
		bool skip = !keys[k] || (k == 1 && keys[0] && zend_string_equals(keys[0], keys[1]))
			|| (o->nnodes && !rlock_keys_cluster_safe(keys[k]));
		for (uint32_t a = 0; !skip && rc == 0 && a < nalgos; a++) {
			rlock_registry_forget(algos[a], o, keys[k], token);
			rc = algos[a]->release(o, keys[k], &hold, err);
		}
	}
	rlock_conn_leave();
	for (uint32_t k = 0; k < 2; k++) {
		if (keys[k]) {
			zend_string_release(keys[k]);
		}
	}
	return rc;
}

PHP_METHOD(RLock, release)
{
	zend_string *key, *token;
	HashTable *options = NULL;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(key)
		Z_PARAM_STR(token)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();

	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	if (!rlock_context_usable()) {
		RETURN_THROWS();
	}
	rlock_opts *o = rlock_opts_create(options, 3);
	if (!o) {
		RETURN_THROWS();
	}
	int rc = release_any(o, key, token, &err);
	if (rc < 0) {
		rlock_throw(o, &err);
	}
	rlock_opts_release(o);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLock, releaseAll)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (!rlock_context_usable()) {
		RETURN_THROWS();
	}
	RETURN_LONG(rlock_registry_end(rlock_context_renew()));
}

/* What RLock::multi() does not do with o (made of options): the option that asks for it, or
 * NULL. Fencing only as asked in options: php.ini's rlock.fencing is the other locks' default
 * (a multi lock has no token: fencingToken() null). */
static const char *multi_refused(const rlock_opts *o, HashTable *options)
{
	static const char *const fencing[] = { "fencing", NULL };
	return o->nservers > 0 ? "servers"
		: o->fencing && rlock_opts_given(options, fencing) ? "fencing"
		: o->sync_replicas > 0 ? "sync_replicas" : NULL;
}

/* The Redis keys of keys (an array of RLock::multi()) into full: n of them, or 0 thrown. */
static uint32_t multi_full_keys(HashTable *keys, const rlock_opts *o, zend_string **full)
{
	uint32_t n = 0;
	zval *v;
	const char *tag0 = NULL;
	size_t tag0_len = 0;

	ZEND_HASH_FOREACH_VAL(keys, v) {
		const char *tag;
		size_t tag_len;
		if (Z_TYPE_P(v) != IS_STRING) {
			zend_argument_type_error(1, "must contain only strings, %s given", zend_zval_type_name(v));
			break;
		}
		if (Z_STRLEN_P(v) == 0) {
			zend_argument_value_error(1, "must not contain an empty key");
			break;
		}
		full[n] = rlock_full_key(o, Z_STR_P(v));
		n++;
		if (o->nnodes == 0) {
			continue;
		}
		tag = rlock_route_hash_tag(ZSTR_VAL(full[n - 1]), ZSTR_LEN(full[n - 1]), &tag_len);
		if (!tag || (tag0 && (tag_len != tag0_len || memcmp(tag, tag0, tag_len) != 0))) {
			zend_argument_value_error(1, "must be keys sharing one {hash tag} with the \"cluster\" option, "
				"or they could not be taken in one script");
			break;
		}
		tag0 = tag;
		tag0_len = tag_len;
	} ZEND_HASH_FOREACH_END();
	if (EG(exception)) {
		while (n > 0) {
			zend_string_release(full[--n]);
		}
	}
	return n;
}

PHP_METHOD(RLock, multi)
{
	HashTable *keys, *options = NULL;
	zend_string *full[RLOCK_MULTI_MAX_KEYS];
	const char *refused;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(keys)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();

	uint32_t n = zend_hash_num_elements(keys);
	if (n == 0 || n > RLOCK_MULTI_MAX_KEYS) {
		zend_argument_value_error(1, "must hold 1 to %d keys", RLOCK_MULTI_MAX_KEYS);
		RETURN_THROWS();
	}
	rlock_opts *o = rlock_opts_create(options, 2);
	if (!o) {
		RETURN_THROWS();
	}
	if ((refused = multi_refused(o, options))) {
		zend_argument_value_error(2, "option \"%s\" is not supported by RLock::multi()", refused);
		rlock_opts_release(o);
		RETURN_THROWS();
	}
	if (multi_full_keys(keys, o, full) == 0) {
		rlock_opts_release(o);
		RETURN_THROWS();
	}
	zend_string *key = rlock_multi_key(full, n);
	for (uint32_t i = 0; i < n; i++) {
		zend_string_release(full[i]);
	}
	if (!key) {
		zend_argument_value_error(1, "must not contain a key twice");
	} else {
		rlock_class_rlock_new(return_value, o, key, &rlock_multi_algo);
		zend_string_release(key);
	}
	rlock_opts_release(o);
}

/* var_dump() and print_r(): the key, whether this object holds it, the lease it asks and
 * the options, passwords masked; never the token, which RLock::release() takes as a secret. */
static HashTable *rlock_debug_info(zend_object *obj, int *is_temp)
{
	rlock_object *l = rlock_from_obj(obj);
	zval info;

	*is_temp = 1;
	array_init(&info);
	if (!l->opts) {
		return Z_ARR(info);
	}
	add_assoc_str(&info, "key", zend_string_copy(l->key));
	rlock_own *me = rlock_owners_get(&l->own, false);
	add_assoc_bool(&info, "held", me && me->count > 0);
	add_assoc_bool(&info, "lost", me && me->lost);
	return rlock_debug_array(&info, l->opts);
}

/* The cycle collector sees the callback: a Closure that holds the lock ($this of a service
 * that keeps the lock) is freed with it. */
static HashTable *rlock_get_gc(zend_object *obj, zval **table, int *n)
{
	return rlock_lost_get_gc(&rlock_from_obj(obj)->on_lost, obj, table, n);
}

void rlock_class_rlock_on_lost(zval *lock, zval *fn)
{
	rlock_on_lost_set(Z_RLOCK_P(lock), fn);
}

bool rlock_class_rlock_held(zval *lock)
{
	return !Z_ISUNDEF_P(lock) && rlock_held(Z_RLOCK_P(lock)) != NULL;
}

void rlock_class_rlock_minit(zend_class_entry *ce)
{
	rlock_ce = ce;
	rlock_ce->create_object = rlock_create;
	memcpy(&rlock_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	rlock_object_handlers.offset = XtOffsetOf(rlock_object, std);
	rlock_object_handlers.free_obj = rlock_free;
	rlock_object_handlers.clone_obj = NULL;
	rlock_object_handlers.get_debug_info = rlock_debug_info;
	rlock_object_handlers.get_gc = rlock_get_gc;
}

void rlock_class_rlock_new(zval *out, rlock_opts *o, zend_string *full, const rlock_algo *a)
{
	object_init_ex(out, rlock_ce);
	rlock_object *l = Z_RLOCK_P(out);
	l->algo = a;
	l->opts = rlock_opts_addref(o);
	l->key = zend_string_copy(full);
}
