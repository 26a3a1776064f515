/* The execution context a hold belongs to, and what an object holds in each.
 *
 * The request's main flow is one context, each Fiber another (any fiber context the engine
 * runs: a Fiber object's, or another extension's). A Fiber's id is made at its first call
 * that asks, kept by its zend_fiber_context until the engine destroys that context (once the
 * Fiber returned or threw, or was destroyed while suspended), then never given again: the
 * engine reuses the memory of a dead Fiber's context for the next, its id is not reused.
 *
 * A Swoole coroutine (hooks on or off, swoole.h) is one too, by its cid: its id is made at
 * its first call that asks, and ends in coroutine_end(), after all the coroutine's defers. */

#include "php.h"
#include "php_rlock.h"
#include "src/state/context.h"
#include "src/transport/conn.h"
#include "src/core/errors.h"
#include "zend_exceptions.h"
#include "zend_observer.h"
#include "zend_fibers.h"

/* A Fiber's key in RLOCK_G(ctx_fibers): its context's address. */
#define FIBER_KEY(c) ((zend_ulong) (uintptr_t) (c))

static rlock_ctx new_id(void)
{
	return ++RLOCK_G(ctx_last);
}

/* A new id for Fiber c (for its context), alive from now on. */
static rlock_ctx fiber_new_id(zend_fiber_context *c, rlock_ctx mark)
{
	zval v;
	ZVAL_LONG(&v, new_id() | mark);
	zend_hash_index_update(&RLOCK_G(ctx_fibers), FIBER_KEY(c), &v);
	zend_hash_index_add_empty_element(&RLOCK_G(ctx_alive), Z_LVAL(v));
	return Z_LVAL(v);
}

/* Fiber c's id, or 0 before its first call that asks (an id is never 0). */
static rlock_ctx fiber_known(zend_fiber_context *c)
{
	zval *id = zend_hash_index_find(&RLOCK_G(ctx_fibers), FIBER_KEY(c));
	return id ? (rlock_ctx) Z_LVAL_P(id) : 0;
}

/* Fiber c's id, made at its first call that asks (with mark: a Fiber inside a Swoole
 * coroutine, whose onLost callbacks run in a coroutine only, as a coroutine's do). */
static rlock_ctx fiber_id(zend_fiber_context *c, rlock_ctx mark)
{
	rlock_ctx id = fiber_known(c);
	return id ? id : fiber_new_id(c, mark);
}

rlock_ctx rlock_context_fiber(void)
{
	return fiber_id(EG(current_fiber_context), 0);
}

bool rlock_context_fiber_alive(rlock_ctx ctx)
{
	return zend_hash_index_exists(&RLOCK_G(ctx_alive), ctx);
}

/* A Swoole coroutine's: its id, whether its onLost callbacks run, its connection slot
 * (0: none), and the PHP Fibers it entered and has not left, innermost last: a Fiber started
 * inside a coroutine is a context of its own, as anywhere. Swoole does not keep the engine's
 * current Fiber per coroutine: while one coroutine is inside a Fiber, another runs with the
 * engine taking that Fiber for the current one (a Fiber it starts then "returns" into it),
 * so each coroutine's Fibers are followed here, from the engine's Fiber switches. */
typedef struct {
	rlock_ctx ctx;
	bool lost_dispatching;  /* its onLost callbacks run (lost.c) */
	uint32_t slot;
	uint32_t nfibers;
	zend_fiber_context **fibers;  /* nfibers of them; the last runs now */
} co_state;

static co_state *co_find(long cid)
{
	return zend_hash_index_find_ptr(&RLOCK_G(ctx_coros), (zend_ulong) cid);
}

/* The running coroutine cid's state, made when it has none. */
static co_state *co_get(long cid)
{
	co_state *st = co_find(cid);
	if (!st) {
		st = pecalloc(1, sizeof(*st), 1);
		st->ctx = new_id() | RLOCK_CTX_COROUTINE;
		zend_hash_index_add_empty_element(&RLOCK_G(ctx_alive), st->ctx);
		zend_hash_index_add_new_ptr(&RLOCK_G(ctx_coros), (zend_ulong) cid, st);
	}
	return st;
}

/* The PHP Fiber of st's coroutine that runs now, or NULL: the coroutine's own flow runs. */
static zend_fiber_context *co_fiber(const co_state *st)
{
	return st->nfibers > 0 ? st->fibers[st->nfibers - 1] : NULL;
}

rlock_ctx rlock_context_coroutine(long cid)
{
	co_state *st = co_get(cid);
	zend_fiber_context *f = co_fiber(st);
	return UNEXPECTED(f != NULL) ? fiber_id(f, RLOCK_CTX_COROUTINE) : st->ctx;
}

static bool is_php_fiber(const zend_fiber_context *c)
{
	return c && c->kind == zend_ce_fiber;
}

/* Where Fiber c sits in st's, or -1. */
static int co_fiber_at(const co_state *st, const zend_fiber_context *c)
{
	for (uint32_t i = 0; i < st->nfibers; i++) {
		if (st->fibers[i] == c) {
			return (int) i;
		}
	}
	return -1;
}

/* The engine switches Fibers (Swoole loaded), inside coroutine cid. Entered: to, a PHP Fiber
 * that from starts or resumes (the engine sets its caller to from before the switch; from may
 * be a Fiber another coroutine yielded inside, which the engine takes for the current one: it
 * comes back there, on this coroutine's stack). Left: from, the coroutine's innermost Fiber,
 * suspended or returned. Left, a PHP Fiber the coroutine is not inside: another coroutine's,
 * left current by a yield inside it (Swoole keeps the engine's current and active Fibers per
 * thread, not per coroutine), which the engine now suspends or ends in place of the one that
 * runs, and jumps to where that one's caller was: code may from now on run on another
 * coroutine's stack, under this coroutine's id. rlock refuses every call from then on
 * (rlock_context_check_fibers()). Swoole's own fiber contexts (its fiber mock) are told
 * with a from that is not the engine's current: none of the engine's switches. */
static void fiber_switched(zend_fiber_context *from, zend_fiber_context *to)
{
	long cid = rlock_swoole_coroutine();
	if (cid <= 0 || from != EG(current_fiber_context) || RLOCK_G(ctx_fibers_broken)) {
		/* (once broken, from and to may be Fibers freed meanwhile: nothing is read) */
		return;
	}
	if (is_php_fiber(to) && zend_fiber_from_context(to)->caller == from) {
		co_state *st = co_get(cid);
		st->fibers = perealloc(st->fibers, (st->nfibers + 1) * sizeof(*st->fibers), 1);
		st->fibers[st->nfibers++] = to;
		return;
	}
	co_state *st = co_find(cid);
	if (st && co_fiber(st) == from) {
		st->nfibers--;
	} else if (is_php_fiber(from)) {
		RLOCK_G(ctx_fibers_broken) = true;
	}
}

bool rlock_context_may_yield(void)
{
	long cid = rlock_swoole_coroutine();
	co_state *st;
	if (cid <= 0 || RLOCK_G(ctx_fiber_ending)) {
		/* (a Fiber's end is told in the engine's switch, the ended Fiber still the active
		 * one: a yield would leave it to the other coroutines) */
		return false;
	}
	st = co_find(cid);
	return !st || st->nfibers == 0;
}

bool rlock_context_check_fibers(void)
{
	long cid;
	co_state *st;
	zend_fiber_context *f;

	if (UNEXPECTED(RLOCK_G(ctx_fibers_broken))) {
		zend_throw_exception(rlock_ce_exception, "rlock refuses every call in this process: Swoole switched PHP "
			"Fibers with another coroutine's Fiber taken for the current one, and code may now run as another "
			"execution context (a coroutine yielded inside a Fiber, e.g. in Co::sleep() or a hooked socket, while "
			"another coroutine's Fiber ran: Swoole 6.2.2 keeps PHP's current Fiber per thread, not per coroutine). "
			"Inside a Fiber in a coroutine, do not yield the coroutine", 0);
		return false;
	}
	cid = rlock_swoole_coroutine();
	if (cid <= 0 || !(st = co_find(cid)) || !(f = co_fiber(st))
			|| (EG(current_fiber_context) == f && EG(active_fiber) == zend_fiber_from_context(f))) {
		return true;
	}
	zend_throw_exception(rlock_ce_exception, "Cannot use rlock in this Fiber: Swoole runs it with another "
		"coroutine's Fiber for PHP's current one, so the call could be taken for that Fiber's (a coroutine "
		"yielded inside a Fiber, e.g. in Co::sleep() or a hooked socket, while this one was inside its own: "
		"Swoole 6.2.2 keeps PHP's current Fiber per thread, not per coroutine). Inside a Fiber in a coroutine, "
		"do not yield the coroutine", 0);
	return false;
}

bool *rlock_context_running(rlock_ctx *ctx)
{
	long cid = rlock_swoole ? rlock_swoole_coroutine() : 0;
	if (cid > 0) {
		co_state *st = co_find(cid);
		zend_fiber_context *f = st ? co_fiber(st) : NULL;
		/* (inside one of its Fibers: that Fiber's, its callbacks run there) */
		rlock_ctx id = !st ? 0 : f ? fiber_known(f) : st->ctx;
		*ctx = id ? id : RLOCK_CTX_COROUTINE;
		return st ? &st->lost_dispatching : NULL;
	}
	*ctx = RLOCK_G(ctx_main);  /* (the main flow and the Fibers: one for the callbacks) */
	return &RLOCK_G(lost_dispatching);
}

uint32_t rlock_context_coroutine_slot(void)
{
	long cid = rlock_swoole_coroutine();
	if (cid <= 0) {
		return 0;
	}
	co_state *st = co_get(cid);
	if (st->slot == 0) {
		uint32_t n = 1;
		while (zend_hash_index_exists(&RLOCK_G(co_slots), n)) {
			n++;
		}
		zend_hash_index_add_empty_element(&RLOCK_G(co_slots), n);
		st->slot = n;
	}
	return st->slot;
}

/* What ends a context's holds: the registry's, given at MINIT (rlock_context_on_end()). */
static void (*context_ended)(rlock_ctx ctx);

void rlock_context_on_end(void (*fn)(rlock_ctx ctx))
{
	context_ended = fn;
}

/* The running coroutine ends (every coroutine's, its defers run: swoole.h). What it held
 * ends as at a request's end (the releases yield, on its own connections), then its slot is
 * free. */
static void coroutine_end(void)
{
	long cid = rlock_swoole->get_id();
	co_state *st = co_find(cid);
	if (st) {
		context_ended(st->ctx);
		if ((st = co_find(cid))) {  /* (found again: the table may have grown meanwhile) */
			zend_hash_index_del(&RLOCK_G(ctx_alive), st->ctx);
			zend_hash_index_del(&RLOCK_G(co_slots), st->slot);
			zend_hash_index_del(&RLOCK_G(ctx_coros), (zend_ulong) cid);
		}
	}
}

rlock_ctx rlock_context_renew(void)
{
	rlock_ctx old = rlock_context();
	zend_fiber_context *c = EG(current_fiber_context);
	long cid = rlock_swoole ? rlock_swoole_coroutine() : 0;
	co_state *st = cid > 0 ? co_find(cid) : NULL;
	if (st && co_fiber(st)) {
		c = co_fiber(st);  /* a Fiber inside the coroutine: as a Fiber */
	}
	if (st && !co_fiber(st)) {
		zend_hash_index_del(&RLOCK_G(ctx_alive), old);
		st->ctx = new_id() | RLOCK_CTX_COROUTINE;
		zend_hash_index_add_empty_element(&RLOCK_G(ctx_alive), st->ctx);
	} else if (c == EG(main_fiber_context)) {
		RLOCK_G(ctx_main) = new_id();
	} else {
		zend_hash_index_del(&RLOCK_G(ctx_alive), old);
		fiber_new_id(c, st ? RLOCK_CTX_COROUTINE : 0);
	}
	return old;
}

/* A fiber context ends: what it held ends as at a request's end. Nothing here runs PHP code
 * or throws; a release that fails leaves the lock to its ttl. */
static void fiber_destroyed(zend_fiber_context *c)
{
	rlock_ctx ctx = fiber_known(c);
	if (!ctx) {
		return;  /* it never took a lock */
	}
	zend_hash_index_del(&RLOCK_G(ctx_fibers), FIBER_KEY(c));
	zend_hash_index_del(&RLOCK_G(ctx_alive), ctx);
	if (UNEXPECTED(rlock_swoole != NULL)) {
		/* (a coroutine that was inside it and never switched back: ended in a bailout) */
		co_state *st;
		ZEND_HASH_FOREACH_PTR(&RLOCK_G(ctx_coros), st) {
			int at = co_fiber_at(st, c);
			if (at >= 0) {
				st->nfibers = (uint32_t) at;
			}
		} ZEND_HASH_FOREACH_END();
	}
	bool ending = RLOCK_G(ctx_fiber_ending);
	RLOCK_G(ctx_fiber_ending) = true;
	context_ended(ctx);
	RLOCK_G(ctx_fiber_ending) = ending;
}

void rlock_context_minit(void)
{
	rlock_conn_slot_by(rlock_context_coroutine_slot);
	rlock_conn_yield_by(rlock_context_may_yield);
	zend_observer_fiber_destroy_register(fiber_destroyed);
	rlock_swoole_minit(coroutine_end);
	if (rlock_swoole) {
		zend_observer_fiber_switch_register(fiber_switched);
	}
}

static void co_state_dtor(zval *zv)
{
	co_state *st = Z_PTR_P(zv);
	if (st->fibers) {
		pefree(st->fibers, 1);
	}
	pefree(st, 1);
}

void rlock_context_ginit(HashTable *fibers, HashTable *alive, HashTable *coros, HashTable *slots)
{
	zend_hash_init(fibers, 8, NULL, NULL, 1);
	zend_hash_init(alive, 8, NULL, NULL, 1);
	zend_hash_init(coros, 8, NULL, co_state_dtor, 1);
	zend_hash_init(slots, 8, NULL, NULL, 1);
}

void rlock_context_gshutdown(HashTable *fibers, HashTable *alive, HashTable *coros, HashTable *slots)
{
	zend_hash_destroy(fibers);
	zend_hash_destroy(alive);
	zend_hash_destroy(coros);
	zend_hash_destroy(slots);
}

void rlock_context_rinit(void)
{
	zend_hash_clean(&RLOCK_G(ctx_fibers));
	zend_hash_clean(&RLOCK_G(ctx_alive));
	zend_hash_clean(&RLOCK_G(ctx_coros));
	zend_hash_clean(&RLOCK_G(co_slots));
	RLOCK_G(ctx_fiber_ending) = false;
	RLOCK_G(ctx_fibers_broken) = false;
	RLOCK_G(ctx_main) = new_id();
}

/* ---- what an object holds, per context ---- */

/* Whether p is no context's part any more: its context ended (or renewed) or is of another
 * process, or it holds nothing, was not found lost and has no acquire whose reply never came
 * (its ticket the context's next call settles). Not that last where contexts yield (Swoole):
 * a coroutine waiting in its acquire holds nothing yet, and keeps its part. */
static bool own_vacant(const rlock_own *p)
{
	return p->pid != rlock_getpid() || !rlock_context_alive(p->ctx)
		|| (p->count == 0 && !p->lost && !p->unanswered.ticket && !rlock_context_yields());
}

rlock_own *rlock_owners_find(rlock_owners *w, rlock_ctx ctx, bool create)
{
	pid_t pid = rlock_getpid();
	rlock_own *p, *vacant = NULL;

	for (uint32_t i = 0; (p = rlock_owners_at(w, i)); i++) {
		if (p->ctx == ctx && p->pid == pid) {
			return p;
		}
		if (!vacant && own_vacant(p)) {
			vacant = p;
		}
	}
	if (!create) {
		return NULL;
	}
	if (!vacant) {
		w->more = erealloc(w->more, (w->nmore + 1) * sizeof(*w->more));
		vacant = w->more[w->nmore++] = ecalloc(1, sizeof(**w->more));
	}
	if (vacant->token) {
		zend_string_release(vacant->token);
	}
	if (vacant->unanswered.ticket) {
		/* an ended context's: the registry gave back what it took (rsemaphore_acquire()) */
		zend_string_release(vacant->unanswered.ticket);
	}
	*vacant = (rlock_own) { .ctx = ctx, .pid = pid };
	return vacant;
}

bool rlock_owners_elsewhere(rlock_owners *w)
{
	rlock_ctx ctx = rlock_context();
	rlock_own *p;
	for (uint32_t i = 0; (p = rlock_owners_at(w, i)); i++) {
		if (p->ctx != ctx && rlock_own_holds(p)) {
			return true;
		}
	}
	return false;
}

