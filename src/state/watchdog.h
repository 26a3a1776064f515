#ifndef RLOCK_WATCHDOG_H
#define RLOCK_WATCHDOG_H

#include "src/core/options.h"
#include "src/core/errors.h"

/* One lock the watchdog renews. The request side holds it from rlock_watchdog_watch() to
 * rlock_watchdog_unwatch(); its fields are the watchdog's. */
typedef struct rlock_watchdog_entry rlock_watchdog_entry;

/* What the watchdog did in this process, for phpinfo(). */
typedef struct {
	uint64_t renewals;     /* leases renewed */
	uint64_t round_trips;  /* batches sent: one per server per period */
	uint64_t losses;       /* renewals that found the lock no longer ours */
	uint64_t failures;     /* round trips that failed (unreachable, timeout): retried */
	uint32_t watched;      /* locks renewed now */
	bool running;          /* the thread runs */
} rlock_watchdog_stats;

/* Module life cycle: MSHUTDOWN stops and joins the thread. */
void rlock_watchdog_minit(void);
void rlock_watchdog_mshutdown(void);

/* Renew key (held with token; fence: the hold's fencing token, 0 none, which a Redlock
 * master's heal sets its counter back to) to ttl ms every ttl/3 from now on (renewals and
 * failures counted in the statistics under stats_key: rlock_stats_watch_hash(); 0 none; valid_until:
 * when the hold's validity ends as the acquire found it, rlock_now_ms(), 0 unknown: a
 * Redlock lock is lost at the latest then unless renewed), starting the thread if it
 * does not run. Copies what it needs: nothing of o, key or token is kept. NULL with err set
 * when the thread cannot be started. A renewal that finds it lost sets the calling thread's
 * RLOCK_G(lost_pending) and EG(vm_interrupt) (src/state/lost.c), until it is unwatched. */
rlock_watchdog_entry *rlock_watchdog_watch(const rlock_opts *o, zend_string *key, zend_string *token,
	zend_long fence, zend_long ttl, zend_long valid_until, uint64_t stats_key, rlock_err *err);

/* Stop renewing and give the entry back: whether a renewal had found it lost (the last word:
 * no renewal runs after). */
bool rlock_watchdog_unwatch(rlock_watchdog_entry *e);

/* Whether a renewal found the lock no longer ours. Asks nothing of Redis. */
bool rlock_watchdog_lost(const rlock_watchdog_entry *e);

/* The lease was set to ttl ms just now (extend()): renew to that from now on. valid_until:
 * the validity extend() found (rlock_now_ms()), which a Redlock lock's group takes as its own,
 * shorter or longer. */
void rlock_watchdog_set_ttl(rlock_watchdog_entry *e, zend_long ttl, zend_long valid_until);

/* When the lease ends by the monotonic clock (ms, as rlock_now_ms()), as the last renewal
 * left it; 0 before the first renewal. */
zend_long rlock_watchdog_valid_until(const rlock_watchdog_entry *e);

void rlock_watchdog_get_stats(rlock_watchdog_stats *out);

#endif
