/* A lost lock known the moment it is lost (lost.h): the objects with an onLost callback, and
 * the interrupt function that calls them.
 *
 * Three steps, none of which can see freed memory:
 * - the watchdog's thread sets two flags of the request thread (watchdog.c, under its mutex:
 *   an entry is unwatched, under that mutex, before the hold it renews is let go, and every
 *   hold is let go by the end of the request);
 * - at the next opcode, on the request's thread, the registry tells which holds were lost
 *   (registry.c: each hold once, as it is found, or as it is let go if that comes first: an
 *   unlock() that found it lost before the opcode was reached); each object holding one, as
 *   its parts name their holds by serial, has a callback due (counted in the part, which
 *   names its context);
 * - the callbacks due run, one at a time, each in a context it may run in (a coroutine's in
 *   that coroutine: the others wait for it to run): an object freed meanwhile took its own
 *   off the list (rlock_lost_forget() from its free_obj). */

#include "php.h"
#include "php_rlock.h"
#include "zend_closures.h"
#include "zend_interfaces.h"
#include "zend_fibers.h"
#include "zend_exceptions.h"
#include "src/state/lost.h"
#include "src/state/registry.h"
#include "src/runtime/swoole.h"
#include "zend_execute.h"

static void (*prev_interrupt)(zend_execute_data *execute_data);
static void (*prev_execute_internal)(zend_execute_data *execute_data, zval *return_value);

/* Have the engine call zend_interrupt_function at this thread's next opcode. */
static void interrupt_soon(void)
{
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool_store_ex(&EG(vm_interrupt), true);
#else
	EG(vm_interrupt) = 1;
#endif
}

/* Whether the watchdog found a lock of this thread lost since the last look: the flag
 * cleared. The one read of the flag the thread writes: an atomic (tests/helgrind.supp). */
#ifndef PHP_WIN32
# define PENDING_TAKE() __atomic_exchange_n(&RLOCK_G(lost_pending), 0, __ATOMIC_ACQ_REL)
# define PENDING_PEEK() __atomic_load_n(&RLOCK_G(lost_pending), __ATOMIC_ACQUIRE)
#else
/* no watchdog thread there: nothing else writes it */
# define PENDING_TAKE() (RLOCK_G(lost_pending) ? (RLOCK_G(lost_pending) = 0, 1) : 0)
# define PENDING_PEEK() RLOCK_G(lost_pending)
#endif

static bool take_pending(void)
{
	return PENDING_TAKE() != 0;
}

/* Whether a callback due for a hold of context ctx runs in the context running (cur): a
 * coroutine's in that coroutine only; the main flow's and a Fiber's in any of them. */
static bool runs_here(rlock_ctx ctx, rlock_ctx cur)
{
	return ctx == cur || !((ctx | cur) & RLOCK_CTX_COROUTINE);
}

/* The first object with a callback due that runs here (cur), its part due into *part, or NULL.
 * A part of a context ended (or of a parent process) has its callbacks dropped on the way;
 * RLOCK_G(lost_due) is counted again: those left for other contexts, and this one's. */
static rlock_on_lost *next_due(rlock_ctx cur, rlock_own **part)
{
	rlock_on_lost *l, *found = NULL;
	rlock_own *p;
	uint32_t due = 0;

	ZEND_HASH_FOREACH_PTR(&RLOCK_G(lost_listeners), l) {
		for (uint32_t i = 0; (p = rlock_owners_at(l->own, i)); i++) {
			if (p->lost_due == 0) {
				continue;
			}
			if (p->pid != rlock_getpid() || !rlock_context_alive(p->ctx)) {
				p->lost_due = 0;  /* no one to tell: counted lost in the statistics all the same */
				continue;
			}
			due += p->lost_due;
			if (!found && runs_here(p->ctx, cur)) {
				found = l;
				*part = p;
			}
		}
	} ZEND_HASH_FOREACH_END();
	RLOCK_G(lost_due) = due;
	return found;
}

/* A callback's exception, kept aside: the engine calls no function with one in flight. The
 * later one's getPrevious() is the earlier. */
static void set_aside(zend_object **thrown, zend_execute_data *ex)
{
	if (*thrown) {
		zend_exception_set_previous(EG(exception), *thrown);
	}
	*thrown = EG(exception);
	EG(exception) = NULL;
	/* the frame as it was before the engine pointed it at the exception's handling */
	if (ex && ex->func && ZEND_USER_CODE(ex->func->type) && ex->opline->opcode == ZEND_HANDLE_EXCEPTION) {
		ex->opline = EG(opline_before_exception);
	}
}

/* What the engine's exception handling frees at the op an exception is thrown from, taking
 * that op for run, when it has not: thrown from an interrupt, it is the op the code was about
 * to run (the target of a jump, the op after an internal call). Made right first, as the
 * engine empties that op's own result before it frees it (zend_interrupt_helper):
 * - a SEND (f($c ? 1 : 2), at the ternary's jump): HANDLE_EXCEPTION (cleanup_unfinished_calls)
 *   frees that argument's slot in the call being prepared with those sent before it; the slot
 *   holds what an earlier call left there, freed once more: emptied;
 * - a ROPE_INIT or ROPE_ADD (a string built at a loop's first op, "$name-$i"; "x{$o->m()}y"
 *   after the call): the rope's cleanup (cleanup_live_vars) frees its parts up to the one that
 *   op adds, which holds what an earlier rope left there: given an empty string, and the value
 *   the op would have taken freed, as it would have;
 * - an END_SILENCE (@f(), after the call): the @'s range ends before it, error_reporting would
 *   stay silenced for the rest of the request: given back, as the op does.
 * An object still in use lost a reference each time, then was freed: the API fuzz found it;
 * pcntl's signal handlers that throw meet it too (PHP 8.4 interrupts an internal call before
 * it returns: the jumps' cases are left there). Called from zend_call_function()'s look after
 * an internal function instead (an internal error handler, a destructor), the op at is still
 * running: a SEND_VAR_NO_REF's notice, say, comes after it filled the slot, which then leaks
 * (not freed twice). */
static void unrun_op_settle(zend_execute_data *ex, const zend_op *at)
{
	switch (at->opcode) {
		case ZEND_SEND_VAL:
		case ZEND_SEND_VAL_EX:
		case ZEND_SEND_VAR:
		case ZEND_SEND_VAR_EX:
		case ZEND_SEND_FUNC_ARG:
		case ZEND_SEND_REF:
		case ZEND_SEND_VAR_NO_REF:
		case ZEND_SEND_VAR_NO_REF_EX:
		case ZEND_SEND_USER:
			/* (a named argument, op2 its name, is not counted: its slot is found as it is sent) */
			if (ex->call && at->op2_type != IS_CONST) {
				ZVAL_UNDEF(ZEND_CALL_VAR(ex->call, at->result.var));
			}
			break;
		case ZEND_ROPE_INIT:
		case ZEND_ROPE_ADD:
			/* (the rope is the op's result; a ROPE_INIT's live range takes it in: its part 0) */
			((zend_string **) ZEND_CALL_VAR(ex, at->result.var))[at->opcode == ZEND_ROPE_INIT ? 0 : at->extended_value]
				= ZSTR_EMPTY_ALLOC();
			if (at->op2_type & (IS_TMP_VAR | IS_VAR)) {
				zval_ptr_dtor_nogc(ZEND_CALL_VAR(ex, at->op2.var));
				ZVAL_UNDEF(ZEND_CALL_VAR(ex, at->op2.var));
			}
			break;
		case ZEND_END_SILENCE:
			/* the @'s live range ends before this op: nothing else gives error_reporting back */
			if (E_HAS_ONLY_FATAL_ERRORS(EG(error_reporting))
					&& !E_HAS_ONLY_FATAL_ERRORS(Z_LVAL_P(ZEND_CALL_VAR(ex, at->op1.var)))) {
				EG(error_reporting) = Z_LVAL_P(ZEND_CALL_VAR(ex, at->op1.var));
			}
			break;
		default:
			break;
	}
}

/* Call every callback due, each once. One that throws does not keep the others from running
 * (its exception is kept aside meanwhile, as the engine does around destructors): the
 * exceptions surface together where the code runs, the later one's getPrevious() the earlier.
 * An exception the code was throwing when interrupted (at a catch block's jump, say) is kept
 * aside too, and handed back to the engine where it stood, the callbacks' before it. exit()
 * in one ends it all. A callback may free objects, set or remove callbacks, take and lose
 * locks: the next one due is looked up after each. */
static void dispatch(rlock_ctx cur)
{
	rlock_on_lost *l;
	rlock_own *p;
	zval fn, arg, rv;
	zend_object *thrown = NULL;
	zend_execute_data *ex = EG(current_execute_data);  /* where the code runs */
	zend_object *in_flight = EG(exception);
	const zend_op *at = ex ? ex->opline : NULL, *before = EG(opline_before_exception);

	EG(exception) = NULL;
	for (;;) {
		if (take_pending()) {
			rlock_registry_tell_lost();
		}
		if (RLOCK_G(lost_due) == 0 || !(l = next_due(cur, &p))) {
			break;
		}
		p->lost_due--;
		RLOCK_G(lost_due)--;
		ZVAL_COPY(&fn, &l->fn);
		ZVAL_OBJ_COPY(&arg, l->obj);
		ZVAL_UNDEF(&rv);
		call_user_function(NULL, NULL, &fn, &rv, 1, &arg);
		zval_ptr_dtor(&rv);
		zval_ptr_dtor(&arg);
		zval_ptr_dtor(&fn);
		if (EG(exception)) {
			if (zend_is_unwind_exit(EG(exception))) {
				break;
			}
			set_aside(&thrown, ex);
		}
	}
	if (EG(exception)) {
		/* exit(): the others are dropped */
		if (thrown) {
			OBJ_RELEASE(thrown);
		}
		if (in_flight) {
			OBJ_RELEASE(in_flight);
		}
	} else if (in_flight) {
		/* the engine was handling in_flight from here: the same, with ours before it */
		if (thrown) {
			zend_exception_set_previous(thrown, in_flight);
			in_flight = thrown;
		}
		EG(exception) = in_flight;
		if (ex) {
			ex->opline = at;
		}
		EG(opline_before_exception) = before;
	} else if (thrown) {
		/* thrown where the code runs */
		zend_throw_exception_internal(thrown);
	}
	/* (one of ours, or exit(), thrown at the op the code was about to run) */
	if (EG(exception) && ex && ex->func && ZEND_USER_CODE(ex->func->type) && at
			&& ex->opline->opcode == ZEND_HANDLE_EXCEPTION && EG(opline_before_exception) == at) {
		unrun_op_settle(ex, at);
	}
}

/* zend_interrupt_function: ours, then the one before ours. Nothing while exit() unwinds.
 * Within a callback of ours in the same context, the losses are only told (a coroutine's
 * callback that yields lets the others run, their callbacks due): its loop looks again
 * after each. */
static void lost_interrupt(zend_execute_data *execute_data)
{
	rlock_ctx cur;
	bool *busy;

	if (RLOCK_G(request_active) && (RLOCK_G(lost_due) > 0 || PENDING_PEEK())
			&& !(EG(exception) && zend_is_unwind_exit(EG(exception)))) {
		busy = rlock_context_running(&cur);
		if (busy && *busy) {
			if (take_pending()) {
				rlock_registry_tell_lost();
			}
		} else if (cur & RLOCK_CTX_COROUTINE) {
			/* the coroutine's own callbacks: they may yield, as its code may */
			if (busy) {
				*busy = true;
			}
			dispatch(cur);
			/* (its flag found again: its state may have been made meanwhile) */
			if ((busy = rlock_context_running(&cur))) {
				*busy = false;
			}
		} else {
			/* as pcntl does for a signal's handler: the callback runs in whatever context
			 * runs, and may not leave it */
			*busy = true;
			zend_fiber_switch_block();
			dispatch(cur);
			zend_fiber_switch_unblock();
			*busy = false;
		}
	}
	if (prev_interrupt) {
		prev_interrupt(execute_data);
	}
}

/* zend_execute_internal with Swoole: a coroutine runs again where it yielded, in an internal
 * function (Co::sleep(), a hooked read, an rlock wait): as that returns, callbacks due (a
 * coroutine not running had its own left due) have the engine look, at its next opcode. */
static void lost_execute_internal(zend_execute_data *execute_data, zval *return_value)
{
	if (prev_execute_internal) {
		prev_execute_internal(execute_data, return_value);
	} else {
		execute_data->func->internal_function.handler(execute_data, return_value);
	}
	if (UNEXPECTED(RLOCK_G(lost_due) > 0)) {
		interrupt_soon();
	}
}

void rlock_lost_minit(void)
{
	rlock_registry_on_lost(rlock_lost_found);
	prev_interrupt = zend_interrupt_function;
	zend_interrupt_function = lost_interrupt;
	if (rlock_swoole) {
		/* (only there: elsewhere every internal call goes on as it did) */
		prev_execute_internal = zend_execute_internal;
		zend_execute_internal = lost_execute_internal;
	}
}

void rlock_lost_ginit(HashTable *listeners)
{
	zend_hash_init(listeners, 8, NULL, NULL, 1);
}

void rlock_lost_gshutdown(HashTable *listeners)
{
	zend_hash_destroy(listeners);
}

void rlock_lost_rinit(void)
{
	take_pending();
	RLOCK_G(lost_due) = 0;
	RLOCK_G(lost_dispatching) = false;
}

void rlock_lost_post_deactivate(void)
{
	/* the objects were freed (each took itself off), or never will be (a fatal error in the
	 * shutdown): none is looked at any more */
	zend_hash_clean(&RLOCK_G(lost_listeners));
	RLOCK_G(lost_due) = 0;
}

bool rlock_lost_closure(zval *fn, zval *out)
{
	ZVAL_UNDEF(out);
	if (Z_TYPE_P(fn) == IS_OBJECT && Z_OBJCE_P(fn) == zend_ce_closure) {
		ZVAL_COPY(out, fn);
		return true;
	}
	zend_call_method_with_1_params(NULL, zend_ce_closure, NULL, "fromcallable", out, fn);
	if (EG(exception) || Z_TYPE_P(out) != IS_OBJECT) {
		zval_ptr_dtor(out);
		ZVAL_UNDEF(out);
		return false;
	}
	return true;
}

HashTable *rlock_lost_get_gc(rlock_on_lost *l, zend_object *obj, zval **table, int *n)
{
	*table = Z_ISUNDEF(l->fn) ? NULL : &l->fn;
	*n = Z_ISUNDEF(l->fn) ? 0 : 1;
	return obj->properties;
}

bool rlock_lost_listen(rlock_on_lost *l, zend_object *obj, rlock_owners *own, const rlock_algo *algo,
	rlock_opts *opts, zend_string *key, zval *fn)
{
	zval closure;
	rlock_own *p;

	if (fn && !rlock_lost_closure(fn, &closure)) {
		return false;
	}
	rlock_lost_forget(l);
	if (!fn) {
		return true;
	}
	ZVAL_COPY_VALUE(&l->fn, &closure);
	l->obj = obj;
	l->own = own;
	l->algo = algo;
	l->opts = opts;
	l->key = key;
	zend_hash_index_update_ptr(&RLOCK_G(lost_listeners), obj->handle, l);
	/* what it holds now, in every context */
	for (uint32_t i = 0; (p = rlock_owners_at(own, i)); i++) {
		if (p->count > 0 && p->pid == rlock_getpid()) {
			rlock_lost_track_hold(l, p);
		}
	}
	return true;
}

void rlock_lost_forget(rlock_on_lost *l)
{
	rlock_own *p;

	if (l->obj && zend_hash_index_find_ptr(&RLOCK_G(lost_listeners), l->obj->handle) == l) {
		zend_hash_index_del(&RLOCK_G(lost_listeners), l->obj->handle);
		/* (RLOCK_G(lost_due) is counted again at the next look) */
		for (uint32_t i = 0; (p = rlock_owners_at(l->own, i)); i++) {
			p->lost_due = 0;
		}
	}
	l->obj = NULL;
	zval_ptr_dtor(&l->fn);
	ZVAL_UNDEF(&l->fn);
}

void rlock_lost_track_hold(rlock_on_lost *l, rlock_own *me)
{
	me->serial = me->token ? rlock_registry_serial(l->algo, l->opts, l->key, me->token) : 0;
}

void rlock_lost_found(uint64_t serial)
{
	rlock_on_lost *l;
	rlock_own *p;

	ZEND_HASH_FOREACH_PTR(&RLOCK_G(lost_listeners), l) {
		for (uint32_t i = 0; (p = rlock_owners_at(l->own, i)); i++) {
			if (p->serial == serial && p->count > 0 && p->pid == rlock_getpid()) {
				p->lost_due++;
				RLOCK_G(lost_due)++;
			}
		}
	} ZEND_HASH_FOREACH_END();
	if (RLOCK_G(lost_due) > 0) {
		interrupt_soon();
	}
}
