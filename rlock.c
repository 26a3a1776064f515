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
#include "src/primitives/scripts.h"
#include "src/transport/route.h"
#include "src/state/registry.h"
#include "src/state/context.h"
#include "src/runtime/swoole.h"
#include "src/primitives/multi.h"
#include "src/primitives/semaphore.h"
#include "src/state/watchdog.h"
#include "src/state/lost.h"
#include "src/primitives/rwlock.h"
#include "src/primitives/redlock.h"
#include "src/primitives/ratelimit.h"
#include "src/stats/stats.h"
#include "src/php/classes.h"
#include "rlock_arginfo.h"

#include <hiredis/hiredis.h>
#include <unistd.h>
#include <pthread.h>


/* ---- php.ini ---- */

#ifndef ZEND_INI_GET_ADDR /* PHP 8.1 may lack it */
# ifdef ZTS
#  define ZEND_INI_GET_ADDR() ((char *) ts_resource(*((int *) mh_arg2)) + (size_t) mh_arg1)
# else
#  define ZEND_INI_GET_ADDR() ((char *) mh_arg2 + (size_t) mh_arg1)
# endif
#endif

/* MINIT has registered the settings: what php.ini and -d gave has been read (and warned of). */
static bool ini_read;

/* Every setting: never refused, as a refusal would leave the default in its place (often
 * another Redis). An invalid value is kept as given, and every call that would use it
 * throws (src/core/options.c); one warning says so at startup, none per request (a pool's
 * php_value, .user.ini) nor at ini_set(), whose calls throw. */
static ZEND_INI_MH(OnUpdateOpt)
{
	(void) mh_arg3;
	rlock_opts_ini_update(ZSTR_VAL(entry->name) + sizeof("rlock.") - 1, new_value, ZEND_INI_GET_ADDR(),
		stage == ZEND_INI_STAGE_STARTUP && !ini_read);
	return SUCCESS;
}

/* A DSN, or a comma-separated list of them, with passwords masked as src/core/options.c reads
 * them: phpinfo() never shows a password. */
static ZEND_INI_DISP(display_servers)
{
	zend_string *v = type == ZEND_INI_DISPLAY_ORIG && ini_entry->modified ? ini_entry->orig_value : ini_entry->value;
	smart_str out = {0};
	if (!v || !ZSTR_LEN(v)) {
		PUTS("no value");
		return;
	}
	rlock_servers_mask(ZSTR_VAL(v), ZSTR_LEN(v), &out);
	if (out.s) {
		PHPWRITE(ZSTR_VAL(out.s), ZSTR_LEN(out.s));
		smart_str_free(&out);
	}
}

/* rlock.stats_keys: read at startup only (the shared memory is mapped in MINIT). What comes
 * after MINIT read it is not refused and has no effect: a pool's php_admin_value (each worker's
 * activate and deactivate stages) or a ZTS thread's copy of the settings, in a request's thread,
 * must not write the process' setting another thread reads. */
static ZEND_INI_MH(OnUpdateStatsKeys)
{
	(void) entry; (void) mh_arg1; (void) mh_arg2; (void) mh_arg3;
	if (stage == ZEND_INI_STAGE_STARTUP && !ini_read) {
		rlock_stats_ini(new_value, true);
	}
	return SUCCESS;
}

PHP_INI_BEGIN()
	STD_PHP_INI_ENTRY_EX("rlock.server", "redis://127.0.0.1:6379", PHP_INI_ALL, OnUpdateOpt, server, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY_EX("rlock.servers", "", PHP_INI_ALL, OnUpdateOpt, servers, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY_EX("rlock.cluster", "", PHP_INI_ALL, OnUpdateOpt, cluster, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY_EX("rlock.sentinel", "", PHP_INI_ALL, OnUpdateOpt, sentinel, zend_rlock_globals, rlock_globals, display_servers)
	STD_PHP_INI_ENTRY("rlock.service", "", PHP_INI_ALL, OnUpdateOpt, service, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.sync_replicas", "0", PHP_INI_ALL, OnUpdateOpt, sync_replicas, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.prefix", "rlock:", PHP_INI_ALL, OnUpdateOpt, prefix, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.ttl", "30000", PHP_INI_ALL, OnUpdateOpt, ttl, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.wait", "0", PHP_INI_ALL, OnUpdateOpt, wait, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.retry_delay", "50", PHP_INI_ALL, OnUpdateOpt, retry_delay, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.connect_timeout", "1000", PHP_INI_ALL, OnUpdateOpt, connect_timeout, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.read_timeout", "1000", PHP_INI_ALL, OnUpdateOpt, read_timeout, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.spin_us", "100", PHP_INI_ALL, OnUpdateOpt, spin_us, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.persistent", "1", PHP_INI_ALL, OnUpdateOpt, persistent, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.reentrant", "1", PHP_INI_ALL, OnUpdateOpt, reentrant, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.auto_release", "1", PHP_INI_ALL, OnUpdateOpt, auto_release, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.fencing", "0", PHP_INI_ALL, OnUpdateOpt, fencing, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.fair", "1", PHP_INI_ALL, OnUpdateOpt, fair, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.watchdog", "0", PHP_INI_ALL, OnUpdateOpt, watchdog, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_ca", "", PHP_INI_ALL, OnUpdateOpt, tls_ca, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_cert", "", PHP_INI_ALL, OnUpdateOpt, tls_cert, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_key", "", PHP_INI_ALL, OnUpdateOpt, tls_key, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_ENTRY("rlock.tls_server_name", "", PHP_INI_ALL, OnUpdateOpt, tls_server_name, zend_rlock_globals, rlock_globals)
	STD_PHP_INI_BOOLEAN("rlock.tls_verify_peer", "1", PHP_INI_ALL, OnUpdateOpt, tls_verify_peer, zend_rlock_globals, rlock_globals)
	PHP_INI_ENTRY("rlock.stats_keys", "256", PHP_INI_SYSTEM, OnUpdateStatsKeys)
PHP_INI_END()


PHP_METHOD(RLockLostException, getResult)
{
	zval rv;

	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_COPY(zend_read_property(rlock_ce_lost_exception, Z_OBJ_P(ZEND_THIS), "result", sizeof("result") - 1, 0, &rv));
}

/* ---- statistics (src/stats/stats.c) ---- */

PHP_FUNCTION(rlock_status)
{
	bool keys = true;
	zend_string *pool = NULL;

	ZEND_PARSE_PARAMETERS_START(0, 2)
		Z_PARAM_OPTIONAL
		Z_PARAM_BOOL(keys)
		Z_PARAM_STR_OR_NULL(pool)
	ZEND_PARSE_PARAMETERS_END();
	if (pool) {
		/* a php-fpm pool's table, whatever this process' setting */
		if (!rlock_stats_pool_status(pool, 2, return_value, keys)) {
			RETURN_THROWS();
		}
		return;
	}
	if (rlock_stats_refused()) {
		RETURN_THROWS();
	}
	rlock_stats_status(return_value, keys);
}

PHP_FUNCTION(rlock_metrics)
{
	zend_string *pool = NULL;

	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_STR_OR_NULL(pool)
	ZEND_PARSE_PARAMETERS_END();
	if (pool) {
		zend_string *m = rlock_stats_pool_metrics(pool, 1);
		if (!m) {
			RETURN_THROWS();
		}
		RETURN_STR(m);
	}
	if (rlock_stats_refused()) {
		RETURN_THROWS();
	}
	RETURN_STR(rlock_stats_metrics());
}

PHP_FUNCTION(rlock_status_reset)
{
	ZEND_PARSE_PARAMETERS_NONE();
	if (rlock_stats_refused()) {
		RETURN_THROWS();
	}
	rlock_stats_reset();
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
	rlock_conn_ginit(&rlock_globals->pool, &rlock_globals->request_conns, &rlock_globals->tls_ctxs);
	rlock_route_ginit(&rlock_globals->topology);
	zend_hash_init(&rlock_globals->hot_keys, 16, NULL, NULL, 1);
	zend_hash_init(&rlock_globals->lost_tokens, 4, NULL, persistent_string_dtor, 1);
	rlock_context_ginit(&rlock_globals->ctx_fibers, &rlock_globals->ctx_alive, &rlock_globals->ctx_coros,
		&rlock_globals->co_slots);
	rlock_lost_ginit(&rlock_globals->lost_listeners);
}

static PHP_GSHUTDOWN_FUNCTION(rlock)
{
	rlock_conn_gshutdown(&rlock_globals->pool, &rlock_globals->request_conns, &rlock_globals->tls_ctxs);
	zend_hash_destroy(&rlock_globals->topology);
	zend_hash_destroy(&rlock_globals->hot_keys);
	zend_hash_destroy(&rlock_globals->lost_tokens);
	rlock_context_gshutdown(&rlock_globals->ctx_fibers, &rlock_globals->ctx_alive, &rlock_globals->ctx_coros,
		&rlock_globals->co_slots);
	rlock_lost_gshutdown(&rlock_globals->lost_listeners);
}

/* In a forked child: a new pid (and so none of the parent's unused random bytes). No module
 * global here: the thread that forks may have no PHP context (ZTS). */
static void rlock_atfork_child(void)
{
	rlock_pid = getpid();
}

PHP_MINIT_FUNCTION(rlock)
{
	(void) type;
	(void) module_number;
	REGISTER_INI_ENTRIES();
	ini_read = true;
	rlock_pid = getpid();
	rlock_stats_minit();

	/* the interfaces user code types against (and fakes in its tests), then the classes */
	zend_class_entry *lock_iface = register_class_RLock_LockInterface();
	rlock_class_rlock_minit(register_class_RLock(lock_iface));
	rlock_class_rreadwritelock_minit(register_class_RReadWriteLock(register_class_RLock_ReadWriteLockInterface()));
	rlock_class_rsemaphore_minit(register_class_RSemaphore(register_class_RLock_SemaphoreInterface()));
	rlock_class_rratelimiter_minit(register_class_RRateLimiter(register_class_RLock_RateLimiterInterface()));

	rlock_ce_exception = register_class_RLockException(spl_ce_RuntimeException);
	rlock_ce_connection_exception = register_class_RLockConnectionException(rlock_ce_exception);
	rlock_ce_timeout_exception = register_class_RLockTimeoutException(rlock_ce_exception);
	rlock_ce_lost_exception = register_class_RLockLostException(rlock_ce_exception);

	rlock_scripts_minit();
	rlock_multi_minit();
	rlock_rwlock_minit();
	rlock_redlock_minit();
	rlock_semaphore_minit();
	rlock_ratelimit_minit();
	rlock_conn_minit();
	pthread_atfork(NULL, NULL, rlock_atfork_child);
	rlock_watchdog_minit();
	rlock_context_minit();
	rlock_registry_minit();
	rlock_lost_minit();
	return SUCCESS;
}

PHP_MSHUTDOWN_FUNCTION(rlock)
{
	(void) type;
	(void) module_number;
	rlock_watchdog_mshutdown();
	rlock_stats_mshutdown();
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
	rlock_lost_rinit();
	rlock_stats_rinit();
	return SUCCESS;
}

/* The request's end is here, not in RSHUTDOWN: other extensions' RSHUTDOWN run after ours
 * and may run PHP code that takes locks (the session module calls a save handler's write()),
 * and the engine frees the request's objects after every RSHUTDOWN. post_deactivate runs
 * after all of that, when no PHP code can run any more; the memory manager, our globals and
 * our connections are still there. */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(rlock)
{
	rlock_lost_post_deactivate();
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
	/* the pool's numbers (shared memory); this process' own with statistics off */
	uint64_t pool[RLOCK_STAT_NEVENTS], reconnects;
	bool shared = rlock_stats_totals(pool, &reconnects);
	php_info_print_table_row(2, "Statistics", shared ? "the pool's (shared memory, rlock_status())"
		: "this process' only (rlock.stats_keys=0)");
#define COUNTER_ROW(label, field, event) \
	snprintf(buf, sizeof(buf), "%" PRIu64, shared ? (event) : (uint64_t) c->field); \
	php_info_print_table_row(2, label, buf);
	COUNTER_ROW("Locks acquired", acquired, pool[RLOCK_STAT_ACQUIRES])
	COUNTER_ROW("Acquires that waited", contended, pool[RLOCK_STAT_WAITS])
	COUNTER_ROW("Waits that timed out", timeouts, pool[RLOCK_STAT_TIMEOUTS])
	COUNTER_ROW("Locks lost", lost, pool[RLOCK_STAT_LOST])
	COUNTER_ROW("Reconnects", reconnects, reconnects)
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

/* Swoole's MINIT before rlock's when both are loaded (rlock_swoole_minit adds a hook) */
static const zend_module_dep rlock_deps[] = {
	ZEND_MOD_OPTIONAL("swoole")
	ZEND_MOD_END
};

zend_module_entry rlock_module_entry = {
	STANDARD_MODULE_HEADER_EX,
	NULL,
	rlock_deps,
	"rlock",
	ext_functions,
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
ZEND_GET_MODULE(rlock)
#endif
