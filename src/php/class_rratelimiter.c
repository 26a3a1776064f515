/* The class RRateLimiter: its object and its methods, thin over the rate limit's algorithm
 * (src/primitives/ratelimit.c). */

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "php_rlock.h"
#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/transport/conn.h"
#include "src/transport/route.h"
#include "src/primitives/scripts.h"
#include "src/primitives/ratelimit.h"
#include "src/stats/stats.h"
#include "src/php/classes.h"

static zend_class_entry *rratelimiter_ce;
static zend_object_handlers rratelimiter_object_handlers;

typedef struct {
	rlock_opts *opts;
	zend_string *key;       /* the limit's Redis key */
	rlock_rate rate;
	zend_long retry_after;  /* ms, what the last refusal said (0: the last decision admitted) */
	zend_object std;
} rratelimiter_object;

static inline rratelimiter_object *rratelimiter_from_obj(zend_object *obj)
{
	return (rratelimiter_object *) ((char *) obj - XtOffsetOf(rratelimiter_object, std));
}

#define Z_RRATELIMITER_P(zv) rratelimiter_from_obj(Z_OBJ_P(zv))

/* RLock's options that a limiter has no use for: it holds nothing (no lease, no renewal, no
 * reentrancy, nothing to release at request end, no holder to fence, no acquire to WAIT
 * after). Refused when given (never taken in silence: 'ttl' => 5000 changed nothing), never
 * as a php.ini default (set for the locks), and left out of var_dump(). */
static const char *const rate_not_options[] = { "ttl", "watchdog", "reentrant", "auto_release", "fencing",
	"sync_replicas", NULL };

static zend_object *rratelimiter_create(zend_class_entry *ce)
{
	rratelimiter_object *l = zend_object_alloc(sizeof(rratelimiter_object), ce);
	zend_object_std_init(&l->std, ce);
	object_properties_init(&l->std, ce);
	l->std.handlers = &rratelimiter_object_handlers;
	return &l->std;
}

static void rratelimiter_free(zend_object *obj)
{
	rratelimiter_object *l = rratelimiter_from_obj(obj);
	if (l->key) {
		zend_string_release(l->key);
	}
	if (l->opts) {
		rlock_opts_release(l->opts);
	}
	zend_object_std_dtor(obj);
}

static rratelimiter_object *rratelimiter_this(zval *this_ptr)
{
	rratelimiter_object *l = Z_RRATELIMITER_P(this_ptr);
	if (!l->opts) {
		zend_throw_error(NULL, "RRateLimiter object is not initialized");
		return NULL;
	}
	if (!rlock_context_usable()) {
		return NULL;
	}
	return l;
}

/* A retry-after in us as the ms a caller waits: rounded up (never due before). */
static zend_long retry_ms(zend_long us)
{
	return us / 1000 + (us % 1000 != 0);
}

/* A count of permits (argument arg_num) that l can ever admit at once: 1 to its burst. -1
 * with a ValueError. */
static zend_long permits_arg(const rratelimiter_object *l, zend_long n, uint32_t arg_num)
{
	if (n < 1 || n > l->rate.burst) {
		zend_argument_value_error(arg_num, "must be between 1 and " ZEND_LONG_FMT " (the limiter's burst: more "
			"permits could never be admitted at once)", l->rate.burst);
		return -1;
	}
	return n;
}

PHP_METHOD(RRateLimiter, __construct)
{
	zend_string *name;
	zend_long limit, period;
	HashTable *options = NULL;
	rratelimiter_object *l = Z_RRATELIMITER_P(ZEND_THIS);
	zval burst_given;
	zend_long burst;

	ZEND_PARSE_PARAMETERS_START(3, 4)
		Z_PARAM_STR(name)
		Z_PARAM_LONG(limit)
		Z_PARAM_LONG(period)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();

	if (l->opts) {
		/* a misuse, as restore() on a holder is: rlock throws no plain Error */
		zend_throw_exception(rlock_ce_exception, "Cannot call RRateLimiter::__construct() twice", 0);
		RETURN_THROWS();
	}
	if (ZSTR_LEN(name) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	if (limit < 1 || limit > RLOCK_MS_MAX) {
		zend_argument_value_error(2, "must be between 1 and %d (permits per period)", RLOCK_MS_MAX);
		RETURN_THROWS();
	}
	/* 'period' => 60, seconds meant, would admit 5 per 60 ms: refused as a ttl of 60 is */
	if (!rlock_ms_floor_arg(period, 3)) {
		RETURN_THROWS();
	}
	const char *lock_only = rlock_opts_given(options, rate_not_options);
	if (lock_only) {
		zend_argument_value_error(4, "option \"%s\" does not apply to a rate limiter: it is a lock's, and a limiter "
			"holds nothing", lock_only);
		RETURN_THROWS();
	}
	HashTable *rest = rlock_opts_split(options, "burst", &burst_given);
	burst = limit;
	zend_long burst_max = rlock_rate_burst_max(limit, period);
	bool ok = Z_ISUNDEF(burst_given) || rlock_opts_own_long("burst", &burst_given, 1, burst_max,
		" (the permits taken at once; at most what refills in 2147483647 ms)", 4, &burst);
	rlock_opts *o = ok ? rlock_opts_create(rest, 4) : NULL;
	zval_ptr_dtor(&burst_given);
	if (rest != options) {
		zend_array_release(rest);
	}
	if (!o) {
		RETURN_THROWS();
	}
	if (o->nservers > 0) {
		rlock_opts_release(o);
		zend_argument_value_error(4, "option \"servers\" (Redlock) does not apply to a rate limiter: a rate is not a "
			"lock, and a quorum of counts is no count (use \"server\", \"cluster\" or \"sentinel\")");
		RETURN_THROWS();
	}
	zend_string *full = rlock_full_key(o, name);
	if (o->nnodes && !rlock_keys_cluster_safe(full)) {
		zend_string_release(full);
		rlock_opts_release(o);
		zend_argument_value_error(1, "must not contain \"}\" outside a {hash tag} with the \"cluster\" option, "
			"or its key could not share a slot with others");
		RETURN_THROWS();
	}
	l->opts = o;
	l->key = rlock_rate_key(full);
	zend_string_release(full);
	rlock_rate_init(&l->rate, limit, period, burst);
}

/* 1 taken, 0 refused (retry_after set), -1 thrown. */
static int rratelimiter_acquire(rratelimiter_object *l, zend_long n, zend_long wait)
{
	rlock_err err = {0};
	zend_long retry_us = 0;
	int rc = rlock_rate_acquire(l->opts, l->key, &l->rate, n, wait, l->opts->fair, &retry_us, &err);
	if (rc < 0) {
		if (rc == -1) {
			rlock_throw(l->opts, &err);
		}
		return -1;
	}
	l->retry_after = retry_ms(retry_us);
	return rc;
}

PHP_METHOD(RRateLimiter, tryAcquire)
{
	zend_long n = 1;
	rratelimiter_object *l;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(n)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rratelimiter_this(ZEND_THIS)) || permits_arg(l, n, 1) < 0) {
		RETURN_THROWS();
	}
	int rc = rratelimiter_acquire(l, n, 0);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RRateLimiter, acquire)
{
	zend_long n = 1, wait = 0;
	bool wait_null = true;
	rratelimiter_object *l;

	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(n)
		Z_PARAM_LONG_OR_NULL(wait, wait_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rratelimiter_this(ZEND_THIS)) || permits_arg(l, n, 1) < 0
			|| (wait = rlock_ms_arg("wait", l->opts->wait, wait, wait_null, 2)) < 0) {
		RETURN_THROWS();
	}
	int rc = rratelimiter_acquire(l, n, wait);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RRateLimiter, retryAfter)
{
	rratelimiter_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rratelimiter_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_LONG(l->retry_after);
}

PHP_METHOD(RRateLimiter, remaining)
{
	rratelimiter_object *l;
	rlock_err err = {0};
	zend_long n = 0;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rratelimiter_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_conn_begin(l->opts, 0);
	if (rlock_rate_remaining(l->opts, l->key, &l->rate, &n, &err) < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	RETURN_LONG(n);
}

PHP_METHOD(RRateLimiter, reset)
{
	rratelimiter_object *l;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rratelimiter_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rlock_conn_begin(l->opts, 0);
	if (rlock_rate_reset(l->opts, l->key, &err) < 0) {
		rlock_throw(l->opts, &err);
		RETURN_THROWS();
	}
	l->retry_after = 0;
}

/* all()'s limiters, checked: what one script can take all or none of. count set; false
 * with a TypeError or ValueError thrown. */
static bool all_args(HashTable *limiters, zend_long n, rratelimiter_object **out, int *count)
{
	zval *v;
	int c = 0;

	ZEND_HASH_FOREACH_VAL(limiters, v) {
		ZVAL_DEREF(v);
		if (Z_TYPE_P(v) != IS_OBJECT || Z_OBJCE_P(v) != rratelimiter_ce) {
			zend_argument_type_error(1, "must contain only RRateLimiter objects, %s given", zend_zval_type_name(v));
			return false;
		}
		if (c == RLOCK_RATE_ALL_MAX) {
			zend_argument_value_error(1, "must contain at most %d limiters", RLOCK_RATE_ALL_MAX);
			return false;
		}
		if (!(out[c] = rratelimiter_this(v))) {
			return false;
		}
		c++;
	} ZEND_HASH_FOREACH_END();
	if (c == 0) {
		zend_argument_value_error(1, "must not be empty");
		return false;
	}
	for (int i = 0; i < c; i++) {
		rratelimiter_object *a = out[i];
		if (n < 1 || n > a->rate.burst) {
			zend_string *name = rlock_rate_name(a->key);
			zend_argument_value_error(2, "must be between 1 and " ZEND_LONG_FMT " (the burst of the limiter \"%s\": "
				"more permits could never be admitted at once)", a->rate.burst, ZSTR_VAL(name));
			zend_string_release(name);
			return false;
		}
		for (int j = 0; j < i; j++) {
			rratelimiter_object *b = out[j];
			const char *why = !zend_string_equals(a->opts->id, b->opts->id) ? "are not on the same server"
				: zend_string_equals(a->key, b->key) ? "are the same limit"
				: a->opts->nnodes && rlock_route_slot(ZSTR_VAL(a->key), ZSTR_LEN(a->key))
					!= rlock_route_slot(ZSTR_VAL(b->key), ZSTR_LEN(b->key))
					? "do not share one Cluster slot (give their names one {hash tag})"
				: NULL;
			if (why) {
				zend_string *na = rlock_rate_name(a->key), *nb = rlock_rate_name(b->key);
				zend_argument_value_error(1, "must name limits that one script can take together: \"%s\" and \"%s\" %s",
					ZSTR_VAL(nb), ZSTR_VAL(na), why);
				zend_string_release(na);
				zend_string_release(nb);
				return false;
			}
		}
	}
	*count = c;
	return true;
}

PHP_METHOD(RRateLimiter, all)
{
	HashTable *limiters;
	zend_long n = 1;
	rratelimiter_object *l[RLOCK_RATE_ALL_MAX];
	zend_string *keys[RLOCK_RATE_ALL_MAX];
	const rlock_rate *rates[RLOCK_RATE_ALL_MAX];
	rlock_rate_wait waits[RLOCK_RATE_ALL_MAX];
	rlock_err err = {0};
	int count;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ARRAY_HT(limiters)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(n)
	ZEND_PARSE_PARAMETERS_END();

	if (!all_args(limiters, n, l, &count)) {
		RETURN_THROWS();
	}
	for (int i = 0; i < count; i++) {
		/* kept alive across the round trip: a Swoole coroutine yields in it, and another may
		 * drop the array's last reference to one (an element that is a reference) */
		GC_ADDREF(&l[i]->std);
		keys[i] = l[i]->key;
		rates[i] = &l[i]->rate;
	}
	rlock_conn_begin(l[0]->opts, 0);
	int rc = rlock_rate_take(l[0]->opts, keys, rates, count, n, 0, waits, &err);
	if (rc < 0) {
		rlock_throw(l[0]->opts, &err);
	} else {
		bool blamed = false;
		for (int i = 0; i < count; i++) {
			l[i]->retry_after = rc ? 0 : retry_ms(waits[i].wait_us);
			blamed |= !rc && waits[i].wait_us > 0;
		}
		/* statistics: admitted, each limiter; refused, the limiters that refused (every one
		 * when none says so: a reply that names none) */
		for (int i = 0; i < count; i++) {
			if (rc || !blamed || waits[i].wait_us > 0) {
				rlock_stats_rate(keys[i], rc, 0);
			}
		}
		RETVAL_BOOL(rc);
	}
	for (int i = 0; i < count; i++) {
		OBJ_RELEASE(&l[i]->std);
	}
}

/* var_dump() and print_r(): the limit's name (prefix included), its rate, its burst and the
 * options, passwords masked. */
static HashTable *rratelimiter_debug_info(zend_object *obj, int *is_temp)
{
	rratelimiter_object *l = rratelimiter_from_obj(obj);
	zval info, opts;

	*is_temp = 1;
	array_init(&info);
	if (!l->opts) {
		return Z_ARR(info);
	}
	add_assoc_str(&info, "name", rlock_rate_name(l->key));
	add_assoc_long(&info, "limit", l->rate.limit);
	add_assoc_long(&info, "period_ms", l->rate.period_ms);
	add_assoc_long(&info, "burst", l->rate.burst);
	rlock_opts_debug(l->opts, rate_not_options, &opts);
	add_assoc_zval(&info, "options", &opts);
	return Z_ARR(info);
}

void rlock_class_rratelimiter_minit(zend_class_entry *ce)
{
	rratelimiter_ce = ce;
	rratelimiter_ce->create_object = rratelimiter_create;
	memcpy(&rratelimiter_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	rratelimiter_object_handlers.offset = XtOffsetOf(rratelimiter_object, std);
	rratelimiter_object_handlers.free_obj = rratelimiter_free;
	rratelimiter_object_handlers.clone_obj = NULL;
	rratelimiter_object_handlers.get_debug_info = rratelimiter_debug_info;
}
