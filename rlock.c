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
#include "src/options.h"
#include "src/errors.h"
#include "src/conn.h"
#include "src/lock.h"
#include "src/scripts.h"
#include "src/route.h"
#include "src/registry.h"
#include "src/watchdog.h"
#include "rlock_arginfo.h"

#include <hiredis/hiredis.h>
#include <unistd.h>
#include <pthread.h>

ZEND_DECLARE_MODULE_GLOBALS(rlock)

static zend_class_entry *rlock_ce;
static zend_object_handlers rlock_object_handlers;

typedef struct {
	rlock_opts *opts;
	zend_string *key;    /* prefix included */
	zend_string *token;  /* while held */
	zend_long fence;
	zend_long valid_until;  /* when our lease (Redlock: its validity) ends, by our clock */
	uint32_t holds;      /* nested holds through this object */
	pid_t pid;           /* the process the holds belong to */
	bool lost;           /* the last hold was found no longer ours before its release */
	zend_object std;
} rlock_object;

static inline rlock_object *rlock_from_obj(zend_object *obj)
{
	return (rlock_object *) ((char *) obj - XtOffsetOf(rlock_object, std));
}

#define Z_RLOCK_P(zv) rlock_from_obj(Z_OBJ_P(zv))

/* ---- php.ini ---- */

static ZEND_INI_MH(OnUpdateServer)
{
	rlock_server s;
	const char *why;
	if (rlock_server_parse(ZSTR_VAL(new_value), ZSTR_LEN(new_value), &s, false, &why) == FAILURE) {
		php_error_docref(NULL, E_WARNING, "Invalid rlock.server: it %s", why);
		return FAILURE;
	}
	rlock_server_free(&s, false);
	rlock_opts_forget();
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* The other settings: the stock handlers, and the options made from the old values
 * forgotten. */
static ZEND_INI_MH(OnUpdateOptString)
{
	rlock_opts_forget();
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

static ZEND_INI_MH(OnUpdateOptBool)
{
	rlock_opts_forget();
	return OnUpdateBool(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

#ifndef ZEND_INI_GET_ADDR /* PHP 8.1 may lack it */
# ifdef ZTS
#  define ZEND_INI_GET_ADDR() ((char *) ts_resource(*((int *) mh_arg2)) + (size_t) mh_arg1)
# else
#  define ZEND_INI_GET_ADDR() ((char *) mh_arg2 + (size_t) mh_arg1)
# endif
#endif

/* An integer setting within the range of its option (src/options.c): decimal digits only,
 * so that "1e3", "1k" or 2^64 are refused rather than read as 1, 1024 or a wrapped value. */
static ZEND_INI_MH(OnUpdateRange)
{
	const char *name = ZSTR_VAL(entry->name) + sizeof("rlock.") - 1;
	zend_long min = 0, max = 0, v;
	(void) mh_arg3;
	(void) stage;
	bool ranged = rlock_opts_range(name, &min, &max);
	if (!ranged || !rlock_parse_number(ZSTR_VAL(new_value), ZSTR_LEN(new_value), max, &v) || v < min) {
		php_error_docref(NULL, E_WARNING, "Invalid %s: it must be an integer between " ZEND_LONG_FMT " and " ZEND_LONG_FMT,
			ZSTR_VAL(entry->name), min, max);
		return FAILURE;
	}
	*(zend_long *) ZEND_INI_GET_ADDR() = v;
	rlock_opts_forget();
	return SUCCESS;
}

/* A DSN, or a comma-separated list of them, with passwords masked as src/options.c reads
 * them: phpinfo() never shows a password. */
static ZEND_INI_DISP(display_servers)
{
	zend_string *v = type == ZEND_INI_DISPLAY_ORIG && ini_entry->modified ? ini_entry->orig_value : ini_entry->value;
	smart_str out = {0};
	if (!v || !ZSTR_LEN(v)) {
		PUTS("no value");
		return;
	}
	for (const char *p = ZSTR_VAL(v), *end = p + ZSTR_LEN(v); p < end; ) {
		const char *comma = memchr(p, ',', end - p);
		rlock_server_mask(p, (comma ? comma : end) - p, &out);
		if (comma) {
			smart_str_appendc(&out, ',');
		}
		p = comma ? comma + 1 : end;
	}
	if (out.s) {
		PHPWRITE(ZSTR_VAL(out.s), ZSTR_LEN(out.s));
		smart_str_free(&out);
	}
}

PHP_INI_BEGIN()
	STD_PHP_INI_ENTRY_EX("rlock.server", "redis://127.0.0.1:6379", PHP_INI_ALL, OnUpdateServer, server, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY_EX("rlock.servers", "", PHP_INI_ALL, OnUpdateOptString, servers, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY_EX("rlock.cluster", "", PHP_INI_ALL, OnUpdateOptString, cluster, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY_EX("rlock.sentinel", "", PHP_INI_ALL, OnUpdateOptString, sentinel, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY("rlock.service", "", PHP_INI_ALL, OnUpdateOptString, service, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.sync_replicas", "0", PHP_INI_ALL, OnUpdateRange, sync_replicas, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.prefix", "rlock:", PHP_INI_ALL, OnUpdateOptString, prefix, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.ttl", "30000", PHP_INI_ALL, OnUpdateRange, ttl, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.wait", "0", PHP_INI_ALL, OnUpdateRange, wait, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.retry_delay", "50", PHP_INI_ALL, OnUpdateRange, retry_delay, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.connect_timeout", "1000", PHP_INI_ALL, OnUpdateRange, connect_timeout, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.read_timeout", "1000", PHP_INI_ALL, OnUpdateRange, read_timeout, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.persistent", "1", PHP_INI_ALL, OnUpdateOptBool, persistent, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.reentrant", "1", PHP_INI_ALL, OnUpdateOptBool, reentrant, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.auto_release", "1", PHP_INI_ALL, OnUpdateOptBool, auto_release, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.fencing", "0", PHP_INI_ALL, OnUpdateOptBool, fencing, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.fair", "1", PHP_INI_ALL, OnUpdateOptBool, fair, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.watchdog", "0", PHP_INI_ALL, OnUpdateOptBool, watchdog, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_ca", "", PHP_INI_ALL, OnUpdateOptString, tls_ca, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_cert", "", PHP_INI_ALL, OnUpdateOptString, tls_cert, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_key", "", PHP_INI_ALL, OnUpdateOptString, tls_key, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_server_name", "", PHP_INI_ALL, OnUpdateOptString, tls_server_name, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.tls_verify_peer", "1", PHP_INI_ALL, OnUpdateOptBool, tls_verify_peer, zend_rlock_globals, rlock_globals)
PHP_INI_END()

/* ---- the object ---- */

static zend_object *rlock_create(zend_class_entry *ce)
{
	rlock_object *l = zend_object_alloc(sizeof(rlock_object), ce);
	zend_object_std_init(&l->std, ce);
	object_properties_init(&l->std, ce);
	l->std.handlers = &rlock_object_handlers;
	return &l->std;
}

/* The holds of this object, if they belong to this process (not to the parent of a fork). */
static bool rlock_held(rlock_object *l)
{
	if (l->holds > 0 && l->pid != rlock_getpid()) {
		l->holds = 0;
		zend_string_release(l->token);
		l->token = NULL;
	}
	return l->holds > 0;
}

static void rlock_drop_holds(rlock_object *l)
{
	l->holds = 0;
	if (l->token) {
		zend_string_release(l->token);
		l->token = NULL;
	}
}

static void rlock_free(zend_object *obj)
{
	rlock_object *l = rlock_from_obj(obj);
	rlock_err err = {0};

	if (l->opts && RLOCK_G(request_active) && rlock_held(l)) {
		if (l->opts->auto_release) {
			/* No exception from a destructor: a failed release expires with the ttl. */
			while (l->holds-- > 0) {
				rlock_registry_release(l->opts, l->key, l->token, &err);
			}
		} else {
			/* Kept past the object, but no longer renewed: the lease runs out by itself. */
			rlock_registry_unwatch(l->opts, l->key, l->token);
		}
	}
	rlock_drop_holds(l);
	if (l->key) {
		zend_string_release(l->key);
	}
	if (l->opts) {
		rlock_opts_release(l->opts);
	}
	zend_object_std_dtor(obj);
}

/* err thrown, with every password of o masked: the one way a failure leaves the extension
 * (a server's text, a host a MOVED names, may have echoed one). */
static void throw_err(const rlock_opts *o, rlock_err *err)
{
	rlock_opts_scrub(o, err->msg, sizeof(err->msg));
	rlock_err_throw(err);
}

static rlock_object *rlock_this(zval *this_ptr)
{
	rlock_object *l = Z_RLOCK_P(this_ptr);
	if (!l->opts) {
		zend_throw_error(NULL, "RLock object is not initialized");
		return NULL;
	}
	return l;
}

/* The lock's Redis key: prefix and key (escaped should they begin like a companion key). */
static zend_string *full_key(const rlock_opts *o, zend_string *key)
{
	return rlock_keys_lock_key(zend_string_concat2(ZSTR_VAL(o->prefix), ZSTR_LEN(o->prefix), ZSTR_VAL(key), ZSTR_LEN(key)));
}

/* A ms argument: null means the option's value (def). -1 with a ValueError out of the
 * range of that option. */
static zend_long ms_arg(const char *option, zend_long def, zend_long ms, bool is_null, uint32_t arg_num)
{
	zend_long min = 0, max = 0;
	if (is_null) {
		return def;
	}
	rlock_opts_range(option, &min, &max);
	if (ms < min || ms > max) {
		zend_argument_value_error(arg_num, "must be between " ZEND_LONG_FMT " and " ZEND_LONG_FMT, min, max);
		return -1;
	}
	return ms;
}

/* 1 acquired, 0 not within wait, -1 thrown. */
static int rlock_acquire(rlock_object *l, zend_long wait)
{
	rlock_hold hold;
	rlock_err err = {0};
	int rc;

	rlock_held(l);
	rc = rlock_registry_acquire(l->opts, l->key, wait, &hold, &err);
	if (rc < 0) {
		throw_err(l->opts, &err);
		return -1;
	}
	if (rc == 0) {
		return 0;
	}
	if (l->holds > 0 && zend_string_equals(l->token, hold.token)) {
		zend_string_release(hold.token);
		l->holds++;
	} else {
		rlock_drop_holds(l);
		l->token = hold.token;
		l->holds = 1;
		l->pid = rlock_getpid();
		l->lost = false;
	}
	l->fence = hold.fence;
	l->valid_until = hold.valid_until;
	return 1;
}

/* Give back one hold. 1 released (or still held by an outer hold), 0 it was no longer ours,
 * -1 thrown (when throw is set). */
static int rlock_release_one(rlock_object *l, bool throw)
{
	rlock_err err = {0};
	zend_string *token;

	if (!rlock_held(l)) {
		return 0;
	}
	token = zend_string_copy(l->token);
	if (--l->holds == 0) {
		rlock_drop_holds(l);
	}
	int rc = rlock_registry_release(l->opts, l->key, token, &err);
	zend_string_release(token);
	if (rc < 0 && throw) {
		throw_err(l->opts, &err);
	}
	if (rc == 0) {
		/* not ours: neither are the holds nested in this one */
		rlock_drop_holds(l);
		l->lost = true;
		RLOCK_G(counters).lost++;
	}
	return rc;
}

/* Whether the watchdog found our hold no longer ours. No round trip. */
static bool rlock_found_lost(rlock_object *l)
{
	if (rlock_held(l) && rlock_registry_lost(l->opts, l->key, l->token)) {
		l->lost = true;
	}
	return l->holds > 0 && l->lost;
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
		zend_throw_error(NULL, "Cannot call RLock::__construct() twice");
		RETURN_THROWS();
	}
	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	rlock_opts *o = rlock_opts_create(options, 2);
	if (!o) {
		RETURN_THROWS();
	}
	l->opts = o;
	l->key = full_key(o, key);
	if (o->nnodes && !rlock_keys_cluster_safe(l->key)) {
		zend_argument_value_error(1, "must not contain \"}\" outside a {hash tag} with the \"cluster\" option, "
			"or its companion keys could not share its slot");
		RETURN_THROWS();
	}
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

	if (!(l = rlock_this(ZEND_THIS)) || (wait = ms_arg("wait", l->opts->wait, wait, wait_null, 1)) < 0) {
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
	int rc = rlock_release_one(l, true);
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

	if (!(l = rlock_this(ZEND_THIS)) || (ttl = ms_arg("ttl", l->opts->ttl, ttl, ttl_null, 1)) < 0) {
		RETURN_THROWS();
	}
	if (!rlock_held(l)) {
		RETURN_FALSE;
	}
	if (rlock_found_lost(l)) {
		rlock_release_one(l, false);
		RETURN_FALSE;
	}
	rlock_hold hold = { .token = l->token, .valid_until = l->valid_until };
	int rc = rlock_algo_of(l->opts)->extend(l->opts, l->key, &hold, ttl, &err);
	l->valid_until = hold.valid_until;
	if (rc == 1) {
		rlock_registry_extended(l->opts, l->key, &hold, ttl);
	}
	if (rc < 0) {
		throw_err(l->opts, &err);
		RETURN_THROWS();
	}
	if (rc == 0) {
		rlock_registry_forget(l->opts, l->key, l->token);
		rlock_drop_holds(l);
		l->lost = true;
		RLOCK_G(counters).lost++;
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
	zval arg, result;

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_FUNC(fci, fcc)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG_OR_NULL(wait, wait_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(l = rlock_this(ZEND_THIS)) || (wait = ms_arg("wait", l->opts->wait, wait, wait_null, 2)) < 0) {
		RETURN_THROWS();
	}
	int rc = rlock_acquire(l, wait);
	if (rc < 0) {
		RETURN_THROWS();
	}
	if (rc == 0) {
		zend_throw_exception_ex(rlock_ce_timeout_exception, 0,
			"Could not acquire the lock \"%s\" within " ZEND_LONG_FMT " ms", ZSTR_VAL(l->key), wait);
		RETURN_THROWS();
	}

	ZVAL_OBJ_COPY(&arg, Z_OBJ_P(ZEND_THIS));
	ZVAL_UNDEF(&result);
	fci.retval = &result;
	fci.param_count = 1;
	fci.params = &arg;
	zend_call_function(&fci, &fcc);
	zval_ptr_dtor(&arg);

	if (EG(exception)) {
		/* $fn's exception wins over anything the release has to say. */
		rlock_release_one(l, false);
		zval_ptr_dtor(&result);
		RETURN_THROWS();
	}
	/* $fn may have released the lock itself (unlock()): that is no loss, unless its unlock()
	 * or extend() found the lock no longer ours. Holds it took after its own unlock() are
	 * counted as any, and the one given back here is the last. */
	rc = rlock_held(l) ? rlock_release_one(l, true) : !l->lost;
	if (rc < 0) {
		zval_ptr_dtor(&result);
		RETURN_THROWS();
	}
	if (rc == 0) {
		zend_object *ex = zend_throw_exception_ex(rlock_ce_lost_exception, 0,
			"The lock \"%s\" expired before it was released", ZSTR_VAL(l->key));
		zend_update_property(rlock_ce_lost_exception, ex, "result", sizeof("result") - 1, &result);
		zval_ptr_dtor(&result);
		RETURN_THROWS();
	}
	RETURN_COPY_VALUE(&result);
}

PHP_METHOD(RLock, isLocked)
{
	rlock_object *l;
	rlock_err err = {0};

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	int rc = rlock_algo_of(l->opts)->exists(l->opts, l->key, &err);
	if (rc < 0) {
		throw_err(l->opts, &err);
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
	if (!rlock_held(l) || rlock_found_lost(l)) {
		RETURN_FALSE;
	}
	int rc = rlock_algo_of(l->opts)->is_owner(l->opts, l->key, l->token, &err);
	if (rc < 0) {
		throw_err(l->opts, &err);
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
	if (l->opts->nservers > 0 && rlock_held(l)) {
		/* Redlock: the validity left, which is less than any master's PTTL */
		RETURN_LONG(MAX(l->valid_until - rlock_now_ms(), 0));
	}
	if (rlock_algo_of(l->opts)->pttl(l->opts, l->key, &pttl, &err) < 0) {
		throw_err(l->opts, &err);
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
	if (!rlock_held(l)) {
		RETURN_NULL();
	}
	RETURN_STR_COPY(l->token);
}

PHP_METHOD(RLock, fencingToken)
{
	rlock_object *l;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(l = rlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (!rlock_held(l) || !l->opts->fencing) {
		RETURN_NULL();
	}
	RETURN_LONG(l->fence);
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
	RETURN_BOOL(l->lost);
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
	rlock_opts *o = rlock_opts_create(options, 3);
	if (!o) {
		RETURN_THROWS();
	}
	zend_string *full = full_key(o, key);
	rlock_hold hold = { .token = token };
	rlock_registry_forget(o, full, token);
	int rc = rlock_algo_of(o)->release(o, full, &hold, &err);
	zend_string_release(full);
	if (rc < 0) {
		throw_err(o, &err);
	}
	rlock_opts_release(o);
	if (rc < 0) {
		RETURN_THROWS();
	}
	RETURN_BOOL(rc);
}

PHP_METHOD(RLockLostException, getResult)
{
	zval rv;

	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_COPY(zend_read_property(rlock_ce_lost_exception, Z_OBJ_P(ZEND_THIS), "result", sizeof("result") - 1, 0, &rv));
}

/* ---- module ---- */

static void persistent_string_dtor(zval *zv)
{
	zend_string_release_ex(Z_PTR_P(zv), 1);
}

static PHP_GINIT_FUNCTION(rlock)
{
#if defined(COMPILE_DL_RLOCK) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(rlock_globals, 0, sizeof(*rlock_globals));
	rlock_globals->pid = getpid();
	rlock_globals->random_used = sizeof(rlock_globals->random_pool);  /* empty: filled on first use */
	rlock_conn_ginit(&rlock_globals->pool, &rlock_globals->request_conns, &rlock_globals->tls_ctxs);
	rlock_route_ginit(&rlock_globals->topology);
	zend_hash_init(&rlock_globals->hot_keys, 16, NULL, NULL, 1);
	zend_hash_init(&rlock_globals->lost_tokens, 4, NULL, persistent_string_dtor, 1);
}

static PHP_GSHUTDOWN_FUNCTION(rlock)
{
	rlock_conn_gshutdown(&rlock_globals->pool, &rlock_globals->request_conns, &rlock_globals->tls_ctxs);
	zend_hash_destroy(&rlock_globals->topology);
	zend_hash_destroy(&rlock_globals->hot_keys);
	zend_hash_destroy(&rlock_globals->lost_tokens);
}

/* In a forked child: a new pid, and none of the parent's unused random bytes. */
static void rlock_atfork_child(void)
{
	RLOCK_G(pid) = getpid();
	RLOCK_G(random_used) = sizeof(RLOCK_G(random_pool));
}

PHP_MINIT_FUNCTION(rlock)
{
	(void) type;
	(void) module_number;
	REGISTER_INI_ENTRIES();

	rlock_ce = register_class_RLock();
	rlock_ce->create_object = rlock_create;
	memcpy(&rlock_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	rlock_object_handlers.offset = XtOffsetOf(rlock_object, std);
	rlock_object_handlers.free_obj = rlock_free;
	rlock_object_handlers.clone_obj = NULL;

	rlock_ce_exception = register_class_RLockException(spl_ce_RuntimeException);
	rlock_ce_connection_exception = register_class_RLockConnectionException(rlock_ce_exception);
	rlock_ce_timeout_exception = register_class_RLockTimeoutException(rlock_ce_exception);
	rlock_ce_lost_exception = register_class_RLockLostException(rlock_ce_exception);

	rlock_scripts_minit();
	rlock_conn_minit();
	pthread_atfork(NULL, NULL, rlock_atfork_child);
	rlock_watchdog_minit();
	return SUCCESS;
}

PHP_MSHUTDOWN_FUNCTION(rlock)
{
	(void) type;
	(void) module_number;
	rlock_watchdog_mshutdown();
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

PHP_RINIT_FUNCTION(rlock)
{
	(void) type;
	(void) module_number;
#if defined(COMPILE_DL_RLOCK) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	rlock_registry_rinit();
	return SUCCESS;
}

/* The request's end is here, not in RSHUTDOWN: other extensions' RSHUTDOWN run after ours
 * and may run PHP code that takes locks (the session module calls a save handler's write()),
 * and the engine frees the request's objects after every RSHUTDOWN. post_deactivate runs
 * after all of that, when no PHP code can run any more; the memory manager, our globals and
 * our connections are still there. */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(rlock)
{
	rlock_registry_post_deactivate();
	rlock_conn_post_deactivate();
	rlock_opts_forget();
	return SUCCESS;
}

PHP_MINFO_FUNCTION(rlock)
{
	char buf[64];
	rlock_counters *c = &RLOCK_G(counters);
	rlock_watchdog_stats wd;

	php_info_print_table_start();
	php_info_print_table_row(2, "rlock support", "enabled");
	php_info_print_table_row(2, "Version", PHP_RLOCK_VERSION);
	snprintf(buf, sizeof(buf), "%d.%d.%d", HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
	php_info_print_table_row(2, "hiredis version", buf);
#ifdef RLOCK_HAVE_TLS
	php_info_print_table_row(2, "TLS (rediss://)", "yes, hiredis_ssl");
#else
	php_info_print_table_row(2, "TLS (rediss://)", "no: built without hiredis_ssl");
#endif
	snprintf(buf, sizeof(buf), "%u", rlock_conn_pooled_count());
	php_info_print_table_row(2, "Persistent connections open", buf);
#define COUNTER_ROW(label, field) \
	snprintf(buf, sizeof(buf), ZEND_ULONG_FMT, c->field); \
	php_info_print_table_row(2, label, buf);
	COUNTER_ROW("Locks acquired", acquired)
	COUNTER_ROW("Acquires that waited", contended)
	COUNTER_ROW("Waits that timed out", timeouts)
	COUNTER_ROW("Locks lost", lost)
	COUNTER_ROW("Reconnects", reconnects)
#undef COUNTER_ROW
	rlock_watchdog_get_stats(&wd);
	php_info_print_table_row(2, "Watchdog thread", wd.running ? "running" : "not running");
#define WATCHDOG_ROW(label, value) \
	snprintf(buf, sizeof(buf), "%" PRIu64, (uint64_t) (value)); \
	php_info_print_table_row(2, label, buf);
	WATCHDOG_ROW("Watchdog locks renewed now", wd.watched)
	WATCHDOG_ROW("Watchdog renewals", wd.renewals)
	WATCHDOG_ROW("Watchdog round trips", wd.round_trips)
	WATCHDOG_ROW("Watchdog renewals that failed", wd.failures)
	WATCHDOG_ROW("Watchdog locks found lost", wd.losses)
#undef WATCHDOG_ROW
	php_info_print_table_end();

	DISPLAY_INI_ENTRIES();
}

zend_module_entry rlock_module_entry = {
	STANDARD_MODULE_HEADER,
	"rlock",
	NULL,
	PHP_MINIT(rlock),
	PHP_MSHUTDOWN(rlock),
	PHP_RINIT(rlock),
	NULL,
	PHP_MINFO(rlock),
	PHP_RLOCK_VERSION,
	PHP_MODULE_GLOBALS(rlock),
	PHP_GINIT(rlock),
	PHP_GSHUTDOWN(rlock),
	ZEND_MODULE_POST_ZEND_DEACTIVATE_N(rlock),
	STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_RLOCK
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(rlock)
#endif
