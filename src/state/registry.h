#ifndef RLOCK_REGISTRY_H
#define RLOCK_REGISTRY_H

#include "src/core/options.h"
#include "src/primitives/lock.h"
#include "src/state/context.h"

/* Every function takes the algorithm a hold is kept by (rlock_algo_of(o) for RLock's
 * mutex): holds of different kinds on one key (a read and a write side) are distinct.
 *
 * A hold belongs to the execution context that took it (context.h): the request's main flow
 * or a Fiber. Reentrancy is within a context: another context of this process takes a key
 * with a token of its own, as another process does. A hold is named by its token wherever
 * a token is given: any context may give one back (an object's free, RLock::release()). */

/* Acquire through the registry of what this process holds: a reentrant acquire of a key the
 * running context holds counts one more hold (and renews its lease). With the watchdog
 * option the lease is renewed from then on, until the last hold is given back. Same results
 * as rlock_lock_acquire(); out->token is the caller's. -1 too, with err set and nothing
 * asked of Redis, when the running context holds a key of it through another hold (a lock
 * over several keys and one of its keys): it would wait for itself. */
int rlock_registry_acquire(const rlock_algo *a, rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err);

/* Keep hold, taken outside the registry (by a shared algorithm, a->shared: a semaphore's
 * permits; or restored: RLock::restore()): released at request end (auto_release), renewed
 * with the watchdog option; a hold of the same token already kept stays one hold. 0; 1 when
 * it replaced a hold the watchdog had found lost, that loss counted in the statistics (the
 * caller counts it not again); -1 with err set when the watchdog could not start (the caller
 * gives the hold back). */
int rlock_registry_add(const rlock_algo *a, rlock_opts *o, zend_string *key, const rlock_hold *hold, rlock_err *err);

/* Give back one hold of token; the last one releases the key in Redis. 1, 0 not ours, -1. A
 * loss is counted in the statistics (here, or as the watchdog found it): not by the caller. */
int rlock_registry_release(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err);

/* Our lease on key was extended to h->valid_until (ttl ms): the watchdog renews to ttl from
 * then on. */
void rlock_registry_extended(const rlock_algo *a, const rlock_opts *o, zend_string *key, const rlock_hold *h, zend_long ttl);

/* Forget token's holds without asking Redis (it was lost, or released elsewhere). Whether the
 * watchdog had found it lost: counted in the statistics then (a caller that found the loss
 * itself counts it only when not). */
bool rlock_registry_forget(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token);

/* Whether the watchdog found token's lock on key no longer ours. No round trip. */
bool rlock_registry_lost(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token);

/* The token the running context holds key with (a's kind), or NULL; borrowed. No round trip. */
zend_string *rlock_registry_token(const rlock_algo *a, const rlock_opts *o, zend_string *key);

/* The serial of token's hold of key (a's kind): what names that hold in this process, never
 * another's; 0 when none. No round trip. */
uint64_t rlock_registry_serial(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token);

/* MINIT, from lost.c, which sits above: fn(serial) is told of each hold the watchdog found
 * lost (rlock_lost_found()), once per hold. */
void rlock_registry_on_lost(void (*fn)(uint64_t serial));

/* Tell lost.c (rlock_lost_found()) of every hold the watchdog found lost and not told of yet:
 * each hold once, told now or as it is let go, whichever comes first. */
void rlock_registry_tell_lost(void);

/* Stop renewing token's lock without releasing it (an object let go with auto_release off). */
void rlock_registry_unwatch(const rlock_algo *a, const rlock_opts *o, zend_string *key, zend_string *token);

/* Request life cycle. The end is the module's post_deactivate, which runs after every
 * extension's RSHUTDOWN and after the engine freed the request's objects: no PHP code runs
 * later, so every lock the request took is known by then. It releases every lock held with
 * auto_release, and stops renewing every lock. */
void rlock_registry_rinit(void);
/* MINIT: what the layers below tell the registry, and ask it, through callbacks: a context's
 * end (src/state/context.c), the write side a context holds (src/primitives/rwlock.c). */
void rlock_registry_minit(void);
void rlock_registry_post_deactivate(void);

/* The context ctx ended (a Fiber), or gave up what it held (RLock::releaseAll()): as at a
 * request's end, its holds are no longer renewed, those with auto_release are released, and
 * none is its own any more. How many it released. Runs no PHP code and throws nothing: a
 * release that fails leaves the lock to its ttl. */
zend_long rlock_registry_end(rlock_ctx ctx);

#endif
