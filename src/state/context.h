#ifndef RLOCK_CONTEXT_H
#define RLOCK_CONTEXT_H

/* The execution context a hold belongs to: the request's main flow, a Fiber, or a Swoole
 * coroutine (swoole.h; a thread, once a runtime layer adds it). This
 * file is the one place that knows what a context is: a runtime replaces rlock_context() and
 * tells where one of its contexts ends (the callback the registry, the layer above, gave
 * rlock_context_on_end() at MINIT), as the Fiber observer and the coroutine's end here do. */

#include "php.h"
#include "php_rlock.h"
#include "src/runtime/swoole.h"

/* A context's id: never given to another context of this process. A Swoole coroutine's has
 * its top bit set. */
typedef zend_ulong rlock_ctx;
#define RLOCK_CTX_COROUTINE ((rlock_ctx) 1 << (sizeof(rlock_ctx) * 8 - 1))

/* The two below when a Fiber runs (the main flow's id is at hand). */
rlock_ctx rlock_context_fiber(void);
bool rlock_context_fiber_alive(rlock_ctx ctx);
/* Swoole coroutine cid's (its first call that asks has its end release what it holds). */
rlock_ctx rlock_context_coroutine(long cid);

/* For the onLost callbacks (lost.c): the running coroutine's id into *ctx, made by no call
 * (RLOCK_CTX_COROUTINE, no context's id, for one that never asked), else the main flow's (a
 * Fiber's callbacks run in the main flow and any Fiber alike); and the flag telling its
 * callbacks run (a coroutine's own, NULL for one that never asked; else one for the thread). */
bool *rlock_context_running(rlock_ctx *ctx);

/* The context running now. Only while a request runs (from RINIT to its objects' freeing). */
static zend_always_inline rlock_ctx rlock_context(void)
{
	long cid;
	if (UNEXPECTED(rlock_swoole != NULL) && (cid = rlock_swoole_coroutine()) > 0) {
		return rlock_context_coroutine(cid);
	}
	if (EXPECTED(EG(current_fiber_context) == EG(main_fiber_context))) {
		return RLOCK_G(ctx_main);
	}
	return rlock_context_fiber();
}

/* Whether a wait of the running Swoole coroutine may yield it (conn.c): not while one of its
 * PHP Fibers runs, nor while the engine tells a Fiber's end. Swoole 6.2.2 keeps neither the
 * engine's current Fiber nor its active one per coroutine: a coroutine that yields inside a
 * Fiber leaves that Fiber current for the coroutines that run meanwhile, and a Fiber switch
 * in one of them then suspends, resumes or returns into the wrong Fiber (FiberErrors, a
 * segfault). rlock's waits in a Fiber block the worker instead, as a Fiber's waits do
 * outside Swoole. */
bool rlock_context_may_yield(void);

/* Whether an rlock call may go on in the running context: false with an RLockException thrown
 * once Swoole was found running a PHP Fiber's switch, or an rlock call in one of the
 * coroutine's Fibers, with another coroutine's Fiber for the engine's current one (a
 * coroutine yielded inside a Fiber, see above): the call could be taken for another
 * context's. Only with Swoole loaded. */
bool rlock_context_check_fibers(void);
static zend_always_inline bool rlock_context_usable(void)
{
	return EXPECTED(rlock_swoole == NULL) || rlock_context_check_fibers();
}

/* The running coroutine's connection slot (src/transport/conn.c, given at MINIT): 0 outside
 * one, else its own n > 0, given back at its end, so that two coroutines never interleave
 * commands on one connection, and the next coroutines reuse the connections of those that
 * ended. */
uint32_t rlock_context_coroutine_slot(void);

/* Whether a round trip may let other contexts of this process run meanwhile (Swoole loaded:
 * a coroutine's waits yield): then what a caller found in a table before one is to be found
 * again after it. */
static zend_always_inline bool rlock_context_yields(void)
{
	return UNEXPECTED(rlock_swoole != NULL);
}

/* Whether ctx still runs or may run again (a suspended Fiber may): not ended, not renewed. */
static zend_always_inline bool rlock_context_alive(rlock_ctx ctx)
{
	return ctx == RLOCK_G(ctx_main) || rlock_context_fiber_alive(ctx);
}

/* The running context gives up its id and goes on under a new one (RLock::releaseAll(): what
 * it held is no longer its own): the old id, no longer alive. */
rlock_ctx rlock_context_renew(void);

/* MINIT, from the registry (src/state/registry.c), which sits above: fn is called where a
 * context ends, to end what it held (rlock_registry_end()). Runs no PHP code. */
void rlock_context_on_end(void (*fn)(rlock_ctx ctx));

/* MINIT: the Fiber observer, which ends a Fiber's holds (rlock_context_on_end()) as its
 * context is destroyed: returned, thrown, or destroyed while suspended; and the end of a
 * Swoole coroutine, which does the same (Swoole\Coroutine::defer()). */
void rlock_context_minit(void);
void rlock_context_ginit(HashTable *fibers, HashTable *alive, HashTable *coros, HashTable *slots);
void rlock_context_gshutdown(HashTable *fibers, HashTable *alive, HashTable *coros, HashTable *slots);
/* RINIT: no context of the last request is alive in this one. */
void rlock_context_rinit(void);

/* An acquire whose reply never came (a semaphore's ticket and count): Redis may count
 * permits the object does not. */
typedef struct {
	zend_string *ticket;  /* NULL: none */
	zend_long n;
} rlock_sem_lost;

/* What an object (a lock, a semaphore) holds in one context. */
typedef struct {
	rlock_ctx ctx;
	zend_string *token;     /* while held (a semaphore keeps its token between holds) */
	zend_long fence;        /* its fencing token; -1: none known (a hold restored) */
	zend_long valid_until;  /* when the lease (Redlock: its validity) ends, by our clock */
	uint32_t count;         /* a lock's nested holds, a semaphore's permits */
	pid_t pid;              /* a forked child holds nothing of its parent's */
	bool lost;              /* found no longer ours before its release */
	rlock_sem_lost unanswered;  /* a semaphore's acquire whose reply never came */
	uint64_t serial;        /* its registry hold's, while its object has an onLost callback (lost.h) */
	uint32_t lost_due;      /* its holds found lost whose callback has not run yet (lost.c) */
} rlock_own;

/* What an object holds, each context its own part: the first in place (an object is mostly
 * used by one context), the others beside it, each where it was made (a Swoole coroutine
 * keeps its part across a round trip, in which others may add theirs). */
typedef struct {
	rlock_own first;
	rlock_own **more;
	uint32_t nmore;
} rlock_owners;

/* rlock_owners_get() past its first part. */
rlock_own *rlock_owners_find(rlock_owners *w, rlock_ctx ctx, bool create);

/* The running context's part of w: NULL when it has none, unless create (then an empty one,
 * in place of a part no context needs any more when there is one). Valid until the next
 * call that creates one: never kept across a call of PHP code. */
static zend_always_inline rlock_own *rlock_owners_get(rlock_owners *w, bool create)
{
	rlock_ctx ctx = rlock_context();
	if (EXPECTED(w->first.ctx == ctx && w->first.pid == rlock_getpid())) {
		return &w->first;
	}
	if (create && w->first.pid == 0) {
		/* an object's first hold */
		w->first.ctx = ctx;
		w->first.pid = rlock_getpid();
		return &w->first;
	}
	return rlock_owners_find(w, ctx, create);
}

/* The i-th part of w (0 first), NULL past the last: with rlock_own_holds(), every hold of
 * an object (its free releases them all, whichever context took them). */
static zend_always_inline rlock_own *rlock_owners_at(rlock_owners *w, uint32_t i)
{
	return i == 0 ? &w->first : i <= w->nmore ? w->more[i - 1] : NULL;
}

/* Whether p holds, for a context still alive of this process. */
static zend_always_inline bool rlock_own_holds(const rlock_own *p)
{
	return p->count > 0 && p->pid == rlock_getpid() && rlock_context_alive(p->ctx);
}

/* Whether another context than the running one holds through w. */
bool rlock_owners_elsewhere(rlock_owners *w);

/* p holds nothing any more (its token given up). */
static zend_always_inline void rlock_own_drop(rlock_own *p)
{
	p->count = 0;
	if (p->token) {
		zend_string_release(p->token);
		p->token = NULL;
	}
}

/* Every part of w dropped, w's memory freed. */
static zend_always_inline void rlock_owners_free(rlock_owners *w)
{
	rlock_own *p;
	for (uint32_t i = 0; (p = rlock_owners_at(w, i)); i++) {
		rlock_own_drop(p);
		if (p->unanswered.ticket) {
			zend_string_release(p->unanswered.ticket);
		}
	}
	for (uint32_t i = 0; i < w->nmore; i++) {
		efree(w->more[i]);
	}
	if (w->more) {
		efree(w->more);
	}
}

#endif
