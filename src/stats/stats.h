#ifndef RLOCK_STATS_H
#define RLOCK_STATS_H

#include "php.h"
#include "src/primitives/lock.h"

/* Pool-wide statistics in shared memory (src/stats/stats.c).
 *
 * One anonymous MAP_SHARED mapping made at module start, of a size fixed by php.ini's
 * rlock.stats_keys (the number of locks tracked by key; 0: no statistics, no mapping). Every
 * process forked after that shares it: php-fpm's workers (forked by the master, which ran
 * MINIT), the children a CLI script forks with pcntl_fork(). It never grows.
 *
 * Every update is a relaxed atomic add (or a compare-and-swap claiming a slot): no process
 * waits for another, and one killed in the middle of an update leaves every word whole. A
 * full table never fails a lock: the keys it cannot track are counted under "other".
 *
 * Every recording function may be called from any process and from any thread (the
 * watchdog's included); each does nothing when the statistics are off. */

/* Events of one lock, counted per key and for the whole pool. */
typedef enum {
	RLOCK_STAT_ACQUIRES = 0,      /* acquired (lock(), tryLock(), a semaphore's permits) */
	RLOCK_STAT_CONTENDED,         /* acquire calls that found the lock taken (a tryLock() false, a lock() that waited) */
	RLOCK_STAT_WAITS,             /* lock() calls that blocked */
	RLOCK_STAT_TIMEOUTS,          /* lock() calls that gave up at the end of their wait */
	RLOCK_STAT_LOST,              /* holds found no longer ours (the watchdog, unlock(), extend()) */
	RLOCK_STAT_RENEWALS,          /* leases the watchdog renewed */
	RLOCK_STAT_RENEWAL_FAILURES,  /* renewals that failed (unreachable, timeout): retried */
	RLOCK_STAT_HANDOVERS,         /* acquires handed over by a release (a waiter given the lock) */
	RLOCK_STAT_NEVENTS
} rlock_stat_event;

/* Events of one server (host:port), beside its commands and round-trip times. */
typedef enum {
	RLOCK_STAT_ERR_CONNECTION = 0,  /* unreachable, refused, closed, I/O error */
	RLOCK_STAT_ERR_TIMEOUT,         /* connect or read timed out */
	RLOCK_STAT_ERR_AUTH,            /* credentials refused or wanted */
	RLOCK_STAT_ERR_REPLY,           /* an error reply (OOM, WRONGTYPE, ...; NOSCRIPT is none) */
	RLOCK_STAT_NERRORS
} rlock_stat_error;

/* rlock.stats_keys at most (the mapping: about 450 bytes a key) */
#define RLOCK_STATS_KEYS_MAX 65536

/* php.ini's rlock.stats_keys set to value (at startup: PHP_INI_SYSTEM). An invalid value is
 * kept as the other settings' are: statistics off, and every call that would use them
 * throws, naming the setting and the value; warn: say so now (a warning). */
void rlock_stats_ini(zend_string *value, bool warn);
/* Module life cycle: the mapping made in MINIT (of php.ini's size), unmapped at MSHUTDOWN. */
void rlock_stats_minit(void);
void rlock_stats_mshutdown(void);
/* A request's start: a php-fpm worker's first maps its pool's table (stats.c). */
void rlock_stats_rinit(void);
/* Whether statistics are kept (rlock.stats_keys > 0 and the mapping made): set once in MINIT. */
extern bool rlock_stats_on;
static inline bool rlock_stats_enabled(void)
{
	return rlock_stats_on;
}

/* ---- recording ---- */

/* One event ev of a's lock on key (and the pool's). key is the key as the registry knows it
 * (its hash is cached in the string); its display text is made only when a slot is claimed
 * for it (a semaphore by its name, a lock over several keys by them all). */
void rlock_stats_count(const rlock_algo *a, zend_string *key, rlock_stat_event ev);
/* A hold of a's lock on key found lost: what RLock::onLost's dispatch calls too. */
void rlock_stats_lost(const rlock_algo *a, zend_string *key);

/* MINIT, from the rate limiter (src/primitives/ratelimit.c), which sits above: fn(key) is how
 * the statistics name a rate limiter's key (rlock_rate_name()). */
void rlock_stats_rate_name_by(zend_string *(*fn)(zend_string *key));
/* One decision of the rate limiter on key (its Redis key): admitted or refused; slept_us: the
 * time acquire() slept before it (0: none), counted as a wait with its time. The limiters
 * share the key table with the locks (kind "ratelimit"), and have totals of their own. */
void rlock_stats_rate(zend_string *key, bool admitted, int64_t slept_us);

/* Around one acquire call (the registry's, a semaphore's): begin before it, end after it
 * with its result (1 acquired, 0 not, -1 error: not counted here). end counts an acquire (a
 * hand-over when a release handed it to us), a timeout (a wait that ended without it), a
 * contended try, a wait; and for a call with a wait (wait_ms > 0) its time into the key's
 * wait histogram, 0 when it took the lock at once. This process' counters (phpinfo() with
 * statistics off) too. */
typedef struct rlock_stats_mark {
	uint64_t t0;
	bool waited;  /* (rlock_stats_waited) */
	bool handed;  /* (rlock_stats_handed) */
	struct rlock_stats_mark *outer;  /* the call's under way before begin */
} rlock_stats_mark;
void rlock_stats_begin(rlock_stats_mark *m, zend_long wait_ms);
void rlock_stats_end(const rlock_stats_mark *m, const rlock_algo *a, zend_string *key, zend_long wait_ms, int rc);

/* The acquire under way (RLOCK_G(stats_call), none: only this process' counters) waited,
 * or was handed the lock by a release. */
void rlock_stats_waited(void);
void rlock_stats_handed(void);

/* The watchdog's thread: events of the lock whose stats hash is h (rlock_stats_hash()). A
 * key the table does not track counts under "other" (the watchdog never claims a slot). */
uint64_t rlock_stats_hash(const rlock_algo *a, zend_string *key);
/* The same, safe to call on a key another thread may hash at the same time; 0 with statistics
 * off (the watchdog's entry keeps it). */
uint64_t rlock_stats_watch_hash(const rlock_algo *a, zend_string *key);
void rlock_stats_count_hash(uint64_t h, rlock_stat_event ev);

/* One command (or pipeline) to server label answered; when timed, after us microseconds.
 * *slot caches the server's place in the table (a connection keeps it: NULL at first). */
void rlock_stats_command(void **slot, const char *label, uint64_t us, bool timed);
/* A command to label failed (err: its kind), or label's connection was opened again. */
void rlock_stats_server_error(const char *label, rlock_stat_error kind);
void rlock_stats_reconnect(const char *label);  /* this process' counter too */

/* Gauges of this process, summed over the live processes of the pool: holds kept by the
 * registry, callers blocked in a wait. delta +1 or -1. */
void rlock_stats_gauge(bool waiters, int delta);
static inline void rlock_stats_holds(int delta)
{
	if (rlock_stats_on) {
		rlock_stats_gauge(false, delta);
	}
}
static inline void rlock_stats_waiters(int delta)
{
	if (rlock_stats_on) {
		rlock_stats_gauge(true, delta);
	}
}

/* ---- reading ---- */

/* rlock_status(): the pool's numbers into out (an array); the hot keys too when keys. */
void rlock_stats_status(zval *out, bool keys);
/* rlock_metrics(): Prometheus' text exposition format 0.0.4. */
zend_string *rlock_stats_metrics(void);
/* The same of the running php-fpm pool named pool (its table mapped read-only: the pool's user
 * or root): false / NULL with an exception thrown (arg: the pool argument's number). */
bool rlock_stats_pool_status(zend_string *pool, uint32_t arg, zval *out, bool keys);
zend_string *rlock_stats_pool_metrics(zend_string *pool, uint32_t arg);
/* rlock_status_reset(): every counter and histogram to zero, the keys forgotten (the gauges,
 * which say what is now, stay). */
void rlock_stats_reset(void);
/* The pool's totals for phpinfo(): false when statistics are off. */
bool rlock_stats_totals(uint64_t out[RLOCK_STAT_NEVENTS], uint64_t *reconnects);

/* The php.ini setting rlock.stats_keys when its value is invalid: throws a ValueError naming
 * it and its value, and returns true. */
bool rlock_stats_refused(void);

#endif
