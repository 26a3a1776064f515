/* What this process holds: hold counts for reentrancy, and the release at request end. */

#include "php.h"
#include "php_rlock.h"
#include "registry.h"
#include "conn.h"
#include "scripts.h"
#include "watchdog.h"

#include <unistd.h>

typedef struct {
	const rlock_algo *algo;
	rlock_opts *opts;
	zend_string *key;
	rlock_hold hold;
	uint32_t count;
	pid_t pid;  /* a forked child holds nothing of its parent's */
	/* renewed by the watchdog while held, one entry per Redis key the hold keeps its token
	 * in (a lock over several keys: each); NULL without it */
	rlock_watchdog_entry **wd;
	uint32_t nwd;
} rlock_held;

/* The watchdog renewing token's hold of key from now on: nwd entries, or NULL with err set. */
static rlock_watchdog_entry **watch(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token,
	uint32_t *nwd, rlock_err *err)
{
	zend_string *keys[RLOCK_ALGO_MAX_KEYS];
	uint32_t n = a->renewed ? a->renewed(key, keys, RLOCK_ALGO_MAX_KEYS) : 0;
	if (!a->renewed) {
		keys[n++] = zend_string_copy(key);
	}
	rlock_watchdog_entry **wd = n ? ecalloc(n, sizeof(*wd)) : NULL;
	for (uint32_t i = 0; i < n && wd; i++) {
		if (!(wd[i] = rlock_watchdog_watch(o, keys[i], token, o->ttl, err))) {
			while (i-- > 0) {
				rlock_watchdog_unwatch(wd[i]);
			}
			efree(wd);
			wd = NULL;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		zend_string_release(keys[i]);
	}
	if (!wd && n == 0) {
		rlock_err_set(err, RLOCK_ERR_REPLY, "-", "no key to renew");
	}
	*nwd = wd ? n : 0;
	return wd;
}

/* Stop renewing h's lease. */
static void held_unwatch(rlock_held *h)
{
	for (uint32_t i = 0; i < h->nwd; i++) {
		rlock_watchdog_unwatch(h->wd[i]);
	}
	if (h->wd) {
		efree(h->wd);
		h->wd = NULL;
	}
	h->nwd = 0;
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

static void held_dtor(zval *zv)
{
	rlock_held *h = Z_PTR_P(zv);
	held_unwatch(h);
	rlock_opts_release(h->opts);
	zend_string_release(h->key);
	zend_string_release(h->hold.token);
	efree(h);
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

static rlock_held *find(zend_string *id)
{
	rlock_held *h = RLOCK_G(request_active) ? zend_hash_find_ptr(&RLOCK_G(held), id) : NULL;
	return h && h->pid == rlock_getpid() ? h : NULL;
}

/* A lock the watchdog found gone: forget it. A lock over several keys found one gone gives
 * the others back now, not at the end of their lease. */
static void settle_lost(rlock_held *h, zend_string *id)
{
	bool others = h->nwd > 1;
	held_unwatch(h);
	if (others) {
		rlock_err ignored = {0};
		h->algo->release(h->opts, h->key, &h->hold, &ignored);
	}
	zend_hash_del(&RLOCK_G(held), id);
}

/* A new entry for hold under id (the table copies what it keeps). */
static void keep(const rlock_algo *a, rlock_opts *o, zend_string *key, zend_string *id, const rlock_hold *hold,
	rlock_watchdog_entry **wd, uint32_t nwd)
{
	rlock_held *h = emalloc(sizeof(*h));
	h->algo = a;
	h->opts = rlock_opts_addref(o);
	h->key = zend_string_copy(key);
	h->hold = *hold;
	h->hold.token = zend_string_copy(hold->token);
	h->count = 1;
	h->pid = rlock_getpid();
	h->wd = wd;
	h->nwd = nwd;
	zend_hash_update_ptr(&RLOCK_G(held), id, h);
}

static int acquire(const rlock_algo *a, rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	zend_string *id = rlock_opts_lock_id(o, a->kind, key);
	rlock_held *h = find(id);
	rlock_watchdog_entry **wd = NULL;
	uint32_t nwd = 0;

	if (h && held_lost(h)) {
		/* not ours any more: nothing to re-enter */
		settle_lost(h, id);
		h = NULL;
	}
	if (h && rlock_now_ms() >= held_valid_until(h)) {
		/* our lease ran out (by our clock): never vouch for it, ask Redis */
		zend_hash_del(&RLOCK_G(held), id);
		h = NULL;
	}
	if (h && o->reentrant) {
		/* one round trip: the hold is still ours in Redis (nobody deleted it, no restart
		 * lost it), and its lease starts again, as Redisson's reentrant lock does */
		int rc = a->extend(o, key, &h->hold, o->ttl, err);
		if (rc == 1 && o->watchdog && !h->wd && !(h->wd = watch(a, o, key, h->hold.token, &h->nwd, err))) {
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
		zend_hash_del(&RLOCK_G(held), id);
	}
	int rc = a->acquire(o, key, wait_ms, out, err);
	if (rc == 1) {
		RLOCK_G(counters).acquired++;
	} else if (rc == 0 && wait_ms > 0) {
		RLOCK_G(counters).timeouts++;
	}
	if (rc == 1 && o->watchdog && RLOCK_G(request_active)
			&& !(wd = watch(a, o, key, out->token, &nwd, err))) {
		/* not renewed, not kept: give it back at once */
		rlock_err ignored = {0};
		a->release(o, key, out, &ignored);
		zend_string_release(out->token);
		zend_string_release(id);
		return -1;
	}
	if (rc == 1 && RLOCK_G(request_active)) {
		keep(a, o, key, id, out, wd, nwd);
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
	rlock_held *h = find(id);
	if (h && !held_lost(h) && zend_string_equals(h->hold.token, hold->token)) {
		/* more taken by the same holder: one hold still, its lease as long as the newest */
		h->hold.valid_until = MAX(h->hold.valid_until, hold->valid_until);
		zend_string_release(id);
		return 0;
	}
	if (o->watchdog && !(wd = watch(a, o, key, hold->token, &nwd, err))) {
		zend_string_release(id);
		return -1;
	}
	keep(a, o, key, id, hold, wd, nwd);
	zend_string_release(id);
	return 0;
}

int rlock_registry_release(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	zend_string *id = hold_id(a, o, key, token);
	rlock_held *h = find(id);
	rlock_hold hold = { .token = token };

	if (h && zend_string_equals(h->hold.token, token)) {
		if (held_lost(h)) {
			/* every hold of it is gone with it */
			settle_lost(h, id);
			zend_string_release(id);
			return 0;
		}
		if (--h->count > 0) {
			zend_string_release(id);
			return 1;
		}
		/* stop renewing before the release, so no renewal races it */
		zend_hash_del(&RLOCK_G(held), id);
	}
	zend_string_release(id);
	return a->release(o, key, &hold, err);
}

void rlock_registry_extended(const rlock_algo *a, const rlock_opts *o, zend_string *key, const rlock_hold *hold, zend_long ttl)
{
	zend_string *id = hold_id(a, o, key, hold->token);
	rlock_held *h = find(id);
	if (h && zend_string_equals(h->hold.token, hold->token)) {
		h->hold.valid_until = hold->valid_until;
		for (uint32_t i = 0; i < h->nwd; i++) {
			rlock_watchdog_set_ttl(h->wd[i], ttl);
		}
	}
	zend_string_release(id);
}

void rlock_registry_forget(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = hold_id(a, o, key, token);
	rlock_held *h = find(id);
	if (h && zend_string_equals(h->hold.token, token)) {
		zend_hash_del(&RLOCK_G(held), id);
	}
	zend_string_release(id);
}

bool rlock_registry_lost(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = hold_id(a, o, key, token);
	rlock_held *h = find(id);
	bool lost = h && zend_string_equals(h->hold.token, token) && held_lost(h);
	zend_string_release(id);
	return lost;
}

zend_string *rlock_registry_token(const rlock_algo *a, const rlock_opts *o, zend_string *key)
{
	zend_string *id = rlock_opts_lock_id(o, a->kind, key);
	rlock_held *h = find(id);
	zend_string_release(id);
	return h && !held_lost(h) ? h->hold.token : NULL;
}

void rlock_registry_unwatch(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token)
{
	zend_string *id = hold_id(a, o, key, token);
	rlock_held *h = find(id);
	if (h && zend_string_equals(h->hold.token, token)) {
		held_unwatch(h);
	}
	zend_string_release(id);
}

void rlock_registry_rinit(void)
{
	zend_hash_init(&RLOCK_G(held), 8, NULL, held_dtor, 0);
	RLOCK_G(request_active) = true;
	rlock_conn_reset();
}

void rlock_registry_post_deactivate(void)
{
	rlock_held *h;
	rlock_err err;

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
	 * too. */
	ZEND_HASH_FOREACH_PTR(&RLOCK_G(held), h) {
		/* Renewal stops at request end, before the release. A lock the watchdog found gone
		 * needs no release. */
		bool lost = held_lost(h), others = h->nwd > 1;
		held_unwatch(h);
		if (h->pid == rlock_getpid() && h->opts->auto_release && (!lost || others)) {
			memset(&err, 0, sizeof(err));
			h->algo->release(h->opts, h->key, &h->hold, &err);
		}
	} ZEND_HASH_FOREACH_END();
	RLOCK_G(request_active) = false;
	zend_hash_destroy(&RLOCK_G(held));
}
