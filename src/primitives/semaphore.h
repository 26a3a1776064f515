#ifndef RLOCK_SEMAPHORE_H
#define RLOCK_SEMAPHORE_H

#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/primitives/lock.h"
#include "src/state/context.h"

/* A semaphore's holds in the registry (kind "semaphore", shared): release gives back every
 * permit of a holder token, extend renews its lease. Its key is the holders' key,
 * rlock_semaphore_key(). */
extern const rlock_algo rlock_semaphore_algo;

void rlock_semaphore_minit(void);

/* The Redis key of the holders of the semaphore on full (a lock key: rlock_full_key()). */
zend_string *rlock_semaphore_key(zend_string *full);
/* The semaphore's own key (full above) from its holders' key: how messages name it. A new
 * string. */
zend_string *rlock_semaphore_name(zend_string *key);

/* An acquire of a holder token whose reply never came (a dropped connection, a timeout):
 * Redis may have credited the token with its n permits, or queued its ticket, all the
 * same. The holder's next acquire settles it: for n again, it is that acquire sent again
 * (served already, it wins with what it took: claimed once); for another count, what it
 * took goes back first. A release gives them back with the rest. (rlock_sem_lost, in
 * context.h: each context's part of an object keeps its own.) */

/* Take n of limit permits for h->token (a new token when NULL, then h->token is the
 * caller's), waiting up to wait_ms, first come first served, within the smallest count the
 * holders named. lost: the token's acquire whose reply never came, settled first (then
 * NULL), or this one's when its reply never comes (the caller frees it). 1 taken
 * (h->valid_until set, *held the permits h->token has now, as Redis counts them: those of an
 * ended lease are not), 0 not within wait_ms (h->token kept), -1 err set. */
int rlock_semaphore_acquire(const rlock_opts *o, zend_string *key, zend_long limit, zend_long n, zend_long wait_ms,
	rlock_hold *h, zend_long *held, rlock_sem_lost *lost, rlock_err *err);

/* Give back n of token's permits (0: all); the queue is served. lost (or NULL): the ticket
 * of an acquire of token whose reply never came, first taken out of the queue; n > 0 then
 * goes back only if that acquire took permits. 1 given (*left the permits token has still),
 * 0 none were ours (its lease had ended), -1 err set. */
int rlock_semaphore_release(const rlock_opts *o, zend_string *key, zend_string *token, zend_long limit, zend_long n,
	zend_string *lost, zend_long *left, rlock_err *err);

/* The permits of limit free now (holders whose lease ended counted free): 0 or -1. */
int rlock_semaphore_available(const rlock_opts *o, zend_string *key, zend_long limit, zend_long *out, rlock_err *err);

#endif
