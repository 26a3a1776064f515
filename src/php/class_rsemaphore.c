/* The class RSemaphore: its object and its methods, thin over the registry and the
 * semaphore's algorithm (src/primitives/semaphore.c). */

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "php_rlock.h"
#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/transport/conn.h"
#include "src/primitives/semaphore.h"
#include "src/primitives/scripts.h"
#include "src/state/registry.h"
#include "src/state/lost.h"
#include "src/stats/stats.h"
#include "src/php/classes.h"

static zend_class_entry *rsemaphore_ce;
static zend_object_handlers rsemaphore_object_handlers;

typedef struct {
	rlock_opts *opts;
	zend_string *key;    /* the holders' Redis key */
	zend_long limit;     /* N, the permits there are */
	/* what it holds, in each execution context that took permits: a holder token (made at
	 * its first acquire, kept for its life), the permits (count), when their lease ends,
	 * whether they were found no longer ours before their release */
	rlock_owners own;
	rlock_on_lost on_lost;  /* onLost()'s callback */
	zend_object std;
} rsemaphore_object;

static inline rsemaphore_object *rsemaphore_from_obj(zend_object *obj)
{
	return (rsemaphore_object *) ((char *) obj - XtOffsetOf(rsemaphore_object, std));
}

#define Z_RSEMAPHORE_P(zv) rsemaphore_from_obj(Z_OBJ_P(zv))

static zend_object *rsemaphore_create(zend_class_entry *ce)
{
	rsemaphore_object *s = zend_object_alloc(sizeof(rsemaphore_object), ce);
	zend_object_std_init(&s->std, ce);
	object_properties_init(&s->std, ce);
	s->std.handlers = &rsemaphore_object_handlers;
	return &s->std;
}

/* What the running context holds through s: its part while it holds permits, else NULL (a
 * forked child holds none of its parent's, and takes its own under a token of its own). */
static rlock_own *rsemaphore_held(rsemaphore_object *s)
{
	rlock_own *me = rlock_owners_get(&s->own, false);
	return me && me->count > 0 ? me : NULL;
}

/* Forget me's acquire whose reply never came. */
static void rsemaphore_answered(rlock_own *me)
{
	if (me->unanswered.ticket) {
		zend_string_release(me->unanswered.ticket);
		me->unanswered.ticket = NULL;
	}
}

/* The running context's part of s while it holds permits or has an acquire whose reply never
 * came (Redis may count permits it does not), else NULL. */
static rlock_own *rsemaphore_owes(rsemaphore_object *s)
{
	rlock_own *me = rlock_owners_get(&s->own, false);
	return me && (me->count > 0 || me->unanswered.ticket) ? me : NULL;
}

/* Give back every permit me's token has, asked of Redis (the registry forgets the hold, and
 * its watchdog stops, first). With an acquire whose reply never came, whatever that took
 * goes back too, and its ticket leaves the queue. 1, 0 none were ours, -1 err set. */
static int rsemaphore_give_back(rsemaphore_object *s, rlock_own *me, rlock_err *err)
{
	if (!me->unanswered.ticket) {
		return rlock_registry_release(&rlock_semaphore_algo, s->opts, s->key, me->token, err);
	}
	zend_long left;
	bool told = rlock_registry_forget(&rlock_semaphore_algo, s->opts, s->key, me->token);
	int rc = rlock_semaphore_release(s->opts, s->key, me->token, s->limit, 0, me->unanswered.ticket, &left, err);
	if (rc >= 0) {
		rsemaphore_answered(me);
	}
	if (rc == 0 && me->count > 0 && !told) {
		/* a loss this release found (the registry's release counts its own) */
		rlock_stats_lost(&rlock_semaphore_algo, s->key);
	}
	return rc;
}

static void rsemaphore_free(zend_object *obj)
{
	rsemaphore_object *s = rsemaphore_from_obj(obj);
	rlock_own *p;

	/* no callback for a semaphore being freed, even one its release below finds lost */
	rlock_lost_forget(&s->on_lost);
	/* every context's permits through it; a context that ended gave its own back already */
	for (uint32_t i = 0; (p = rlock_owners_at(&s->own, i)); i++) {
		bool owes = rlock_own_holds(p)
			|| (p->unanswered.ticket && p->pid == rlock_getpid() && rlock_context_alive(p->ctx));
		if (!s->opts || !RLOCK_G(request_active) || !owes) {
			continue;
		}
		if (s->opts->auto_release) {
			/* No exception from a destructor: a failed release expires with the ttl. */
			rlock_err err = {0};
			rsemaphore_give_back(s, p, &err);
		} else {
			rlock_registry_unwatch(&rlock_semaphore_algo, s->opts, s->key, p->token);
		}
	}
	rlock_owners_free(&s->own);
	if (s->key) {
		zend_string_release(s->key);
	}
	if (s->opts) {
		rlock_opts_release(s->opts);
	}
	zend_object_std_dtor(obj);
}

static rsemaphore_object *rsemaphore_this(zval *this_ptr)
{
	rsemaphore_object *s = Z_RSEMAPHORE_P(this_ptr);
	if (!s->opts) {
		zend_throw_error(NULL, "RSemaphore object is not initialized");
		return NULL;
	}
	if (!rlock_context_usable()) {
		return NULL;
	}
	return s;
}

/* Whether the watchdog found our hold no longer ours. No round trip. */
static bool rsemaphore_found_lost(rsemaphore_object *s)
{
	rlock_own *me = rsemaphore_held(s);
	if (me && rlock_registry_lost(&rlock_semaphore_algo, s->opts, s->key, me->token)) {
		me->lost = true;
	}
	return me && me->lost;
}

/* The permits we hold that may still be ours: none once the watchdog found them lost, or
 * (without the watchdog) once their lease ended by our clock. No round trip. */
static zend_long rsemaphore_live(rsemaphore_object *s)
{
	rlock_own *me = rsemaphore_held(s);
	if (!me || rsemaphore_found_lost(s) || (!s->opts->watchdog && me->valid_until <= rlock_now_ms())) {
		return 0;
	}
	return me->count;
}

/* A permits argument to take: 1 to the permits we do not hold (more could never be ours at
 * once: in the queue, we would wait for our own). -1 with a ValueError. */
static zend_long permits_arg(rsemaphore_object *s, zend_long n, uint32_t arg_num)
{
	zend_long held = rsemaphore_live(s);
	if (n < 1 || n > s->limit - held) {
		if (held > 0) {
			zend_argument_value_error(arg_num, "must be between 1 and " ZEND_LONG_FMT " (the semaphore's "
				ZEND_LONG_FMT " permits less the " ZEND_LONG_FMT " this object holds)", s->limit - held, s->limit, held);
		} else {
			zend_argument_value_error(arg_num, "must be between 1 and " ZEND_LONG_FMT " (the semaphore's permits)",
				s->limit);
		}
		return -1;
	}
	return n;
}

static int rsemaphore_release_n(rsemaphore_object *s, zend_long n, bool throw);

/* 1 taken, 0 not within wait, -1 thrown. */
static int rsemaphore_acquire(rsemaphore_object *s, zend_long n, zend_long wait)
{
	rlock_err err = {0};
	rlock_hold hold = {0};
	zend_long total = 0;

	if (rsemaphore_found_lost(s)) {
		/* not ours any more: the permits taken now start a new hold */
		rlock_own *me = rsemaphore_held(s);
		rlock_registry_forget(&rlock_semaphore_algo, s->opts, s->key, me->token);
		me->count = 0;
	}
	rlock_own *me = rlock_owners_get(&s->own, true);
	bool unanswered = me->unanswered.ticket != NULL;
	hold.token = me->token;
	rlock_conn_enter(s->opts, wait);
	rlock_stats_mark mark;
	rlock_stats_begin(&mark, wait);
	int rc = rlock_semaphore_acquire(s->opts, s->key, s->limit, n, wait, &hold, &total, &me->unanswered, &err);
	rlock_stats_end(&mark, &rlock_semaphore_algo, s->key, wait, rc);
	me->token = hold.token;
	int added = 0;  /* 1: the registry counted a loss the watchdog found */
	if (rc == 1 && (added = rlock_registry_add(&rlock_semaphore_algo, s->opts, s->key, &hold, &err)) < 0) {
		/* not renewed, not kept: give them back at once (ours from before too) */
		rlock_err ignored = {0};
		rlock_semaphore_algo.release(s->opts, s->key, &hold, &ignored);
		me->count = 0;
		rc = -1;
	} else if (rc < 0 && me->unanswered.ticket) {
		/* Redis may count permits for the token now: the registry keeps them as a hold, given
		 * back where the context ends (a Fiber's end, releaseAll(), the request's) should the
		 * object make no call to settle them first */
		rlock_hold maybe = { .token = me->token, .valid_until = rlock_now_ms() + s->opts->ttl };
		rlock_err ignored = {0};
		rlock_registry_add(&rlock_semaphore_algo, s->opts, s->key, &maybe, &ignored);
	} else if (rc == 0 && unanswered && me->count == 0) {
		/* the unanswered acquire settled and nothing held: no hold to keep for it */
		rlock_registry_forget(&rlock_semaphore_algo, s->opts, s->key, me->token);
	}
	rlock_conn_leave();
	if (rc < 0) {
		rlock_throw(s->opts, &err);
		return -1;
	}
	if (rc == 0) {
		return 0;
	}
	if (me->count == 0) {
		me->lost = false;
	}
	if (me->count + n > total) {
		/* some we held had ended their lease (purged by Redis): Redis' count is the truth */
		RLOCK_G(counters).lost++;
		if (added == 0) {
			rlock_stats_lost(&rlock_semaphore_algo, s->key);
		}
	}
	me->count = total;
	me->valid_until = hold.valid_until;
	rlock_lost_track(&s->on_lost, me);
	if (UNEXPECTED(EG(exception) != NULL)) {
		/* an exception came in while we waited (Swoole: Co::cancel($cid, true), a time limit),
		 * and the caller gets it, not the permits: these n go back at once */
		rsemaphore_release_n(s, n, false);
		return -1;
	}
	return 1;
}

/* Our permits (me, the running context's) found no longer ours. */
static void rsemaphore_lost(rsemaphore_object *s, rlock_own *me)
{
	if (!rlock_registry_forget(&rlock_semaphore_algo, s->opts, s->key, me->token)) {
		/* found by the caller, not by the watchdog (counted as it found it) */
		rlock_stats_lost(&rlock_semaphore_algo, s->key);
	}
	me->count = 0;
	me->lost = true;
	RLOCK_G(counters).lost++;
}

/* Give back every permit we hold, and those an acquire whose reply never came may have
 * taken. 1 released, 0 they were no longer ours (or none held), -1 thrown (when throw is
 * set). */
static int rsemaphore_release(rsemaphore_object *s, bool throw)
{
	rlock_err err = {0};
	rlock_own *me = rsemaphore_owes(s);

	if (!me) {
		return 0;
	}
	zend_long held = me->count;
	/* counted until given back: a loss the watchdog found first is told (lost.h) */
	int rc = rsemaphore_give_back(s, me, &err);
	me->count = 0;
	if (rc < 0 && throw) {
		rlock_throw(s->opts, &err);
	}
	if (rc == 0 && held > 0) {
		/* counted in the statistics by the give-back */
		me->lost = true;
		RLOCK_G(counters).lost++;
	}
	return rc;
}

/* Give back n of the permits we hold, all when n is held() or more (the hold ends). 1
 * released, 0 they were no longer ours (or none held), -1 thrown (when throw is set). */
static int rsemaphore_release_n(rsemaphore_object *s, zend_long n, bool throw)
{
	rlock_err err = {0};
	zend_long left = 0;
	rlock_own *me = rsemaphore_held(s);

	if (!me || me->count <= n) {
		return rsemaphore_release(s, throw);
	}
	int rc = rlock_semaphore_release(s->opts, s->key, me->token, s->limit, n, NULL, &left, &err);
	if (rc < 0 && throw) {
		rlock_throw(s->opts, &err);
	}
	if (rc == 0) {
		rsemaphore_lost(s, me);
	} else if (rc == 1 && (me->count = left) == 0) {
		/* Redis counted fewer than we did: the hold ended with these */
		rlock_registry_forget(&rlock_semaphore_algo, s->opts, s->key, me->token);
	}
	return rc;
}

PHP_METHOD(RSemaphore, __construct)
{
	zend_string *name;
	zend_long permits;
	HashTable *options = NULL;
	rsemaphore_object *s = Z_RSEMAPHORE_P(ZEND_THIS);

	ZEND_PARSE_PARAMETERS_START(2, 3)
		Z_PARAM_STR(name)
		Z_PARAM_LONG(permits)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();

	if (s->opts) {
		/* a misuse, as restore() on a holder is: rlock throws no plain Error */
		zend_throw_exception(rlock_ce_exception, "Cannot call RSemaphore::__construct() twice", 0);
		RETURN_THROWS();
	}
	if (ZSTR_LEN(name) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	if (permits < 1 || permits > RLOCK_MS_MAX) {
		zend_argument_value_error(2, "must be between 1 and %d", RLOCK_MS_MAX);
		RETURN_THROWS();
	}
	rlock_opts *o = rlock_opts_create(options, 3);
	if (!o) {
		RETURN_THROWS();
	}
	/* fencing as asked here: php.ini's rlock.fencing is the locks' default (a permit has no
	 * fencing token, and none is asked for) */
	static const char *const fencing[] = { "fencing", NULL };
	const char *refused = o->nservers > 0 ? "option \"servers\" (Redlock) does not apply to a semaphore"
		: rlock_opts_given(options, fencing) && o->fencing ? "option \"fencing\" does not apply to a semaphore"
		: NULL;
	zend_string *full = rlock_full_key(o, name);
	if (!refused && o->nnodes && !rlock_keys_cluster_safe(full)) {
		zend_string_release(full);
		rlock_opts_release(o);
		zend_argument_value_error(1, "must not contain \"}\" outside a {hash tag} with the \"cluster\" option, "
			"or its keys could not share one slot");
		RETURN_THROWS();
	}
	if (refused) {
		zend_string_release(full);
		rlock_opts_release(o);
		zend_argument_value_error(3, "%s", refused);
		RETURN_THROWS();
	}
	s->opts = o;
	s->limit = permits;
	s->key = rlock_semaphore_key(full);
	zend_string_release(full);
}

PHP_METHOD(RSemaphore, acquire)
{
	zend_long n = 1, wait = 0;
	bool wait_null = true;
	rsemaphore_object *s;

	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(n)
		Z_PARAM_LONG_OR_NULL(wait, wait_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(s = rsemaphore_this(ZEND_THIS)) || permits_arg(s, n, 1) < 0
			|| (wait = rlock_ms_arg("wait", s->opts->wait, wait, wait_null, 2)) < 0) {
		RETURN_THROWS();
	}
	int rc = rsemaphore_acquire(s, n, wait);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RSemaphore, tryAcquire)
{
	zend_long n = 1;
	rsemaphore_object *s;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(n)
	ZEND_PARSE_PARAMETERS_END();

	if (!(s = rsemaphore_this(ZEND_THIS)) || permits_arg(s, n, 1) < 0) {
		RETURN_THROWS();
	}
	int rc = rsemaphore_acquire(s, n, 0);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

/* rlock_refuse_elsewhere() naming the semaphore as the caller did (its key, not the Redis
 * key of its holders). */
static bool rsemaphore_refuse_elsewhere(rsemaphore_object *s, const char *verb)
{
	zend_string *name = rlock_semaphore_name(s->key);
	bool refused = rlock_refuse_elsewhere(&s->own, verb, "the semaphore", name);
	zend_string_release(name);
	return refused;
}

PHP_METHOD(RSemaphore, release)
{
	rsemaphore_object *s;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(s = rsemaphore_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (!rsemaphore_owes(s) && rsemaphore_refuse_elsewhere(s, "release")) {
		RETURN_THROWS();
	}
	int rc = rsemaphore_release(s, true);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RSemaphore, extend)
{
	zend_long ttl = 0;
	bool ttl_null = true;
	rsemaphore_object *s;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(ttl, ttl_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(s = rsemaphore_this(ZEND_THIS)) || (ttl = rlock_ms_arg("ttl", s->opts->ttl, ttl, ttl_null, 1)) < 0) {
		RETURN_THROWS();
	}
	rlock_own *me = rsemaphore_held(s);
	if (!me) {
		if (rsemaphore_refuse_elsewhere(s, "extend")) {
			RETURN_THROWS();
		}
		RETURN_FALSE;
	}
	if (rsemaphore_found_lost(s)) {
		rsemaphore_release(s, false);
		RETURN_FALSE;
	}
	rlock_hold hold = { .token = me->token, .valid_until = me->valid_until };
	int rc = rlock_semaphore_algo.extend(s->opts, s->key, &hold, ttl, &err);
	if (rc < 0) {
		rlock_throw(s->opts, &err);
		RETURN_THROWS();
	}
	if (rc == 1) {
		me->valid_until = hold.valid_until;
		rlock_registry_extended(&rlock_semaphore_algo, s->opts, s->key, &hold, ttl);
	} else {
		rsemaphore_lost(s, me);
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RSemaphore, held)
{
	rsemaphore_object *s;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(s = rsemaphore_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_own *me = rsemaphore_held(s);
	RETURN_LONG(!me || rsemaphore_found_lost(s) ? 0 : me->count);
}

PHP_METHOD(RSemaphore, isAcquired)
{
	rsemaphore_object *s;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(s = rsemaphore_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_own *me = rsemaphore_held(s);
	if (!me || rsemaphore_found_lost(s)) {
		RETURN_FALSE;
	}
	int rc = rlock_semaphore_algo.is_owner(s->opts, s->key, me->token, &err);
	if (rc < 0) {
		rlock_throw(s->opts, &err);
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RSemaphore, available)
{
	rsemaphore_object *s;
	rlock_err err = {0};
	zend_long free = 0;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(s = rsemaphore_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (rlock_semaphore_available(s->opts, s->key, s->limit, &free, &err) < 0) {
		rlock_throw(s->opts, &err);
		RETURN_THROWS();
	}
	RETURN_LONG(free);
}

PHP_METHOD(RSemaphore, onLost)
{
	zend_fcall_info fci = empty_fcall_info;
	zend_fcall_info_cache fcc = empty_fcall_info_cache;
	rsemaphore_object *s;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC_OR_NULL(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if (!(s = rsemaphore_this(ZEND_THIS)) || !rlock_lost_listen(&s->on_lost, &s->std, &s->own, &rlock_semaphore_algo,
			s->opts, s->key, ZEND_FCI_INITIALIZED(fci) ? &fci.function_name : NULL)) {
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(&s->std);
}

/* synchronized()'s release: only the n it took go back; permits the object held before (or
 * $fn took) stay. $fn may have released them itself: no loss, unless its release() or
 * extend() found them no longer ours. */
typedef struct {
	rsemaphore_object *s;
	zend_long n;  /* the permits synchronized() took */
} rsemaphore_sync;

static int rsemaphore_sync_give_back(void *holder, bool throw)
{
	rsemaphore_sync *sync = holder;
	rlock_own *me = rlock_owners_get(&sync->s->own, false);
	return me && me->count > 0 ? rsemaphore_release_n(sync->s, sync->n, throw) : !(me && me->lost);
}

PHP_METHOD(RSemaphore, synchronized)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	zend_long n = 1, wait = 0;
	bool wait_null = true;
	rsemaphore_object *s;

	ZEND_PARSE_PARAMETERS_START(1, 3)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(n)
		Z_PARAM_LONG_OR_NULL(wait, wait_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(s = rsemaphore_this(ZEND_THIS)) || permits_arg(s, n, 2) < 0
			|| (wait = rlock_ms_arg("wait", s->opts->wait, wait, wait_null, 3)) < 0) {
		RETURN_THROWS();
	}
	int rc = rsemaphore_acquire(s, n, wait);
	if (rc < 0) {
		RETURN_THROWS();
	}
	/* the semaphore as the user named it (prefix included), not its holders' key */
	zend_string *name = rlock_semaphore_name(s->key);
	if (rc == 0) {
		zend_throw_exception_ex(rlock_ce_timeout_exception, 0,
			"Could not acquire " ZEND_LONG_FMT " permit%s of the semaphore \"%s\" within " ZEND_LONG_FMT " ms",
			n, n == 1 ? "" : "s", ZSTR_VAL(name), wait);
	} else {
		rsemaphore_sync sync = { .s = s, .n = n };
		rlock_synchronized_run(return_value, ZEND_THIS, &fci, &fcc, rsemaphore_sync_give_back, &sync,
			"The permits of the semaphore \"%s\" expired before they were released", name);
	}
	zend_string_release(name);
}

/* var_dump() and print_r(): the semaphore's name (prefix included), its permits, those this
 * object holds, the lease it asks and the options, passwords masked; never its token. */
static HashTable *rsemaphore_debug_info(zend_object *obj, int *is_temp)
{
	rsemaphore_object *s = rsemaphore_from_obj(obj);
	zval info;

	*is_temp = 1;
	array_init(&info);
	if (!s->opts) {
		return Z_ARR(info);
	}
	add_assoc_str(&info, "name", rlock_keys_companion_base(s->key, "semaphore"));
	add_assoc_long(&info, "permits", s->limit);
	rlock_own *me = rsemaphore_held(s);
	add_assoc_long(&info, "held", !me || rsemaphore_found_lost(s) ? 0 : me->count);
	return rlock_debug_array(&info, s->opts);
}

/* The cycle collector sees the callback (rlock_lost_get_gc()). */
static HashTable *rsemaphore_get_gc(zend_object *obj, zval **table, int *n)
{
	return rlock_lost_get_gc(&rsemaphore_from_obj(obj)->on_lost, obj, table, n);
}

void rlock_class_rsemaphore_minit(zend_class_entry *ce)
{
	rsemaphore_ce = ce;
	rsemaphore_ce->create_object = rsemaphore_create;
	memcpy(&rsemaphore_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	rsemaphore_object_handlers.offset = XtOffsetOf(rsemaphore_object, std);
	rsemaphore_object_handlers.free_obj = rsemaphore_free;
	rsemaphore_object_handlers.clone_obj = NULL;
	rsemaphore_object_handlers.get_debug_info = rsemaphore_debug_info;
	rsemaphore_object_handlers.get_gc = rsemaphore_get_gc;
}
