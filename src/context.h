#ifndef RLOCK_CONTEXT_H
#define RLOCK_CONTEXT_H

/* The execution context a hold belongs to: the request's main flow or a Fiber (a coroutine,
 * a thread, once a runtime layer adds them). This file is the one place that knows what a
 * context is: a runtime replaces rlock_context() and calls rlock_registry_end() (registry.h)
 * where one of its contexts ends, as the Fiber observer here does. */

#include "php.h"

/* A context's id: never given to another context of this process. */
typedef zend_ulong rlock_ctx;

/* The context running now. Only while a request runs (from RINIT to its objects' freeing). */
rlock_ctx rlock_context(void);

/* Whether ctx still runs or may run again (a suspended Fiber may): not ended, not renewed. */
bool rlock_context_alive(rlock_ctx ctx);

/* The running context gives up its id and goes on under a new one (RLock::releaseAll(): what
 * it held is no longer its own): the old id, no longer alive. */
rlock_ctx rlock_context_renew(void);

/* MINIT: the Fiber observer, which ends a Fiber's holds (rlock_registry_end()) as its
 * context is destroyed: returned, thrown, or destroyed while suspended. */
void rlock_context_minit(void);
void rlock_context_ginit(HashTable *fibers, HashTable *alive);
void rlock_context_gshutdown(HashTable *fibers, HashTable *alive);
/* Request start and end: no context of the last request is alive in the next. */
void rlock_context_rinit(void);

/* What an object (a lock, a semaphore) holds in one context. */
typedef struct {
	rlock_ctx ctx;
	pid_t pid;              /* a forked child holds nothing of its parent's */
	zend_string *token;     /* while held (a semaphore keeps its token between holds) */
	zend_long count;        /* a lock's nested holds, a semaphore's permits */
	zend_long fence;
	zend_long valid_until;  /* when the lease (Redlock: its validity) ends, by our clock */
	bool lost;              /* found no longer ours before its release */
} rlock_own;

/* What an object holds, each context its own part: the first in place (an object is mostly
 * used by one context), the others beside it. */
typedef struct {
	rlock_own first;
	rlock_own *more;
	uint32_t nmore;
} rlock_owners;

/* The running context's part of w: NULL when it has none, unless create (then an empty one,
 * in place of a part no context needs any more when there is one). Valid until the next
 * call that creates one: never kept across a call of PHP code. */
rlock_own *rlock_owners_get(rlock_owners *w, bool create);

/* The i-th part of w (0 first), NULL past the last: with rlock_own_holds(), every hold of
 * an object (its free releases them all, whichever context took them). */
rlock_own *rlock_owners_at(rlock_owners *w, uint32_t i);

/* Whether p holds, for a context still alive of this process. */
bool rlock_own_holds(const rlock_own *p);

/* Whether another context than the running one holds through w. */
bool rlock_owners_elsewhere(rlock_owners *w);

/* p holds nothing any more (its token given up). */
void rlock_own_drop(rlock_own *p);

void rlock_owners_free(rlock_owners *w);

#endif
