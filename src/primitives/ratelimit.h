#ifndef RLOCK_RATELIMIT_H
#define RLOCK_RATELIMIT_H

#include "src/core/options.h"
#include "src/core/errors.h"

/* A rate limit by GCRA on one Redis server or a Cluster (ratelimit.c): limit permits per
 * period_ms, burst of them at once. Times are the server's clock in microseconds; a permit
 * costs T = period_ms * 1000 / limit us, kept exact as q + s / limit (0 <= s < limit). */
typedef struct {
	zend_long limit;      /* 1 to RLOCK_MS_MAX */
	zend_long period_ms;  /* 1 to RLOCK_MS_MAX */
	zend_long burst;      /* 1 to rlock_rate_burst_max() */
	zend_long per_q;      /* T, whole us */
	zend_long per_s;      /* T, the rest in 1/limit us */
} rlock_rate;

/* The most limiters RRateLimiter::all() takes at once (two arguments each: RLOCK_MAX_ARGS). */
#define RLOCK_RATE_ALL_MAX 24

/* The largest burst of limit per period_ms: what refills within RLOCK_MS_MAX ms (so that
 * every time the scripts count stays an exact integer in a Lua number). */
zend_long rlock_rate_burst_max(zend_long limit, zend_long period_ms);

/* r for limit per period_ms, burst at once (each within its range: the caller checks). */
void rlock_rate_init(rlock_rate *r, zend_long limit, zend_long period_ms, zend_long burst);

/* The Redis key of the rate limit on full (a lock key: rlock_full_key()). */
zend_string *rlock_rate_key(zend_string *full);
/* The limit's own key (full above) from its Redis key: how messages name it. A new string. */
zend_string *rlock_rate_name(zend_string *key);

/* One decision of rlock_rate_take(), per limiter. */
typedef struct {
	zend_long wait_us;  /* admitted: until the permits are due (0: now); refused: until
	                     * they would be (0: this limiter alone would have admitted them) */
	char tat[48];       /* the first limiter's, admitted: what its key holds now (else "") */
} rlock_rate_wait;

/* Take n permits of each of the count limits rates[i] on keys[i] (one script: all or none),
 * when they are all due within reserve_us from now (0: now). 1 taken, 0 refused (nothing
 * taken), with waits[i] filled either way; -1 err set. The keys share one server (and one
 * Cluster slot): routed by keys[0]. */
int rlock_rate_take(const rlock_opts *o, zend_string *const *keys, const rlock_rate *const *rates, int count,
	zend_long n, zend_long reserve_us, rlock_rate_wait *waits, rlock_err *err);

/* The permits of r on key that would be admitted now (0 to burst): 0 or -1 err set. */
int rlock_rate_remaining(const rlock_opts *o, zend_string *key, const rlock_rate *r, zend_long *out, rlock_err *err);

/* Forget everything taken of the limit on key: 0 or -1 err set. */
int rlock_rate_reset(const rlock_opts *o, zend_string *key, rlock_err *err);

/* Take n permits of r on key, waiting up to wait_ms: sleeping until they are due, as the
 * script says, never polling. fair: the permits are taken at once when they are due within
 * the wait (reserved: nobody takes them in between), and the caller sleeps until then;
 * otherwise the script is run again when they are due (another may take them first). 1
 * taken, 0 not due within wait_ms (nothing taken; *retry_us: until they would be), -1 err
 * set, -2 an exception came in during a sleep (Swoole's Co::cancel()): nothing kept (the
 * permits reserved are given back unless others were reserved after them). */
int rlock_rate_acquire(const rlock_opts *o, zend_string *key, const rlock_rate *r, zend_long n, zend_long wait_ms,
	bool fair, zend_long *retry_us, rlock_err *err);

/* Sleep wait_us from now, by the monotonic clock (a signal does not cut it short; an
 * exception thrown into a Swoole coroutine does). */
void rlock_rate_sleep(zend_long wait_us);

void rlock_ratelimit_minit(void);

#endif
