#ifndef RLOCK_LOST_H
#define RLOCK_LOST_H

/* A lost lock known the moment it is lost: RLock::onLost() and the same on each primitive.
 *
 * The watchdog's thread, finding a lease gone, sets the request thread's RLOCK_G(lost_pending)
 * and its EG(vm_interrupt) (watchdog.c); the engine calls zend_interrupt_function at the next
 * opcode, on the request's thread, whatever runs (a loop that calls nothing, a Fiber), as it
 * does for a signal with pcntl_async_signals(). There this file asks the registry which holds
 * were lost (each told once, registry.c), and calls the callback of each object holding one:
 * $fn($object), where the code is running, so an exception it throws surfaces there. A Swoole
 * coroutine's hold has it called in that coroutine, the next time it runs (not in another
 * one: another request's); the main flow's and a Fiber's, in whichever of them runs. A hold
 * whose context ended (or gave it up: releaseAll()) has no callback called. */

#include "php.h"
#include "src/state/context.h"
#include "src/primitives/lock.h"

/* An object's callback, and what it needs to name its holds: kept in the object, which
 * calls rlock_lost_forget() before it is freed. */
typedef struct {
	zval fn;              /* a Closure; UNDEF: none */
	zend_object *obj;     /* what fn is given */
	rlock_owners *own;    /* the object's holds, each part naming its hold by serial */
	const rlock_algo *algo;
	rlock_opts *opts;
	zend_string *key;
} rlock_on_lost;

/* MINIT: chain zend_interrupt_function (the one before is called after ours, as pcntl does). */
void rlock_lost_minit(void);
void rlock_lost_ginit(HashTable *listeners);
void rlock_lost_gshutdown(HashTable *listeners);
void rlock_lost_rinit(void);
/* Before the registry's end of the request: no callback runs any more, no object is asked. */
void rlock_lost_post_deactivate(void);

/* obj's callback from now on: fn (any callable, kept as a Closure made in the caller's scope),
 * or none (fn NULL). algo, opts and key are the object's: they outlive l. Its holds taken
 * before are watched too. false with an exception thrown (fn not made into a Closure). */
bool rlock_lost_listen(rlock_on_lost *l, zend_object *obj, rlock_owners *own, const rlock_algo *algo,
	rlock_opts *opts, zend_string *key, zval *fn);

/* fn (a callable) made a Closure callable from anywhere, as the caller's scope sees it
 * ([$this, 'privateMethod']), into out: false with an exception thrown. */
bool rlock_lost_closure(zval *fn, zval *out);

/* The object's get_gc: the callback (the object has no properties of its own). */
HashTable *rlock_lost_get_gc(rlock_on_lost *l, zend_object *obj, zval **table, int *n);

/* The object of l is being freed: no callback for it any more. */
void rlock_lost_forget(rlock_on_lost *l);

/* me, a part of l's object, has taken a hold: it is named by its serial from now on (only
 * while the object has a callback: else nothing to do, no lookup). */
void rlock_lost_track_hold(rlock_on_lost *l, rlock_own *me);
static zend_always_inline void rlock_lost_track(rlock_on_lost *l, rlock_own *me)
{
	if (UNEXPECTED(!Z_ISUNDEF(l->fn))) {
		rlock_lost_track_hold(l, me);
	}
}

/* The registry's hold serial was found lost by the watchdog (once per hold): the objects
 * holding it have their callback called at the next opcode. */
void rlock_lost_found(uint64_t serial);

#endif
