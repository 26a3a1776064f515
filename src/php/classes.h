#ifndef RLOCK_PHP_CLASSES_H
#define RLOCK_PHP_CLASSES_H

/* What the files of the PHP classes (src/php/class_*.c) share with the module entry (rlock.c),
 * and the helpers they share (src/php/shared.c). */

#include "php.h"
#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/primitives/lock.h"
#include "src/state/context.h"

/* Each class file's MINIT part: ce is the class its stub registered. */
void rlock_class_rlock_minit(zend_class_entry *ce);
void rlock_class_rreadwritelock_minit(zend_class_entry *ce);
void rlock_class_rsemaphore_minit(zend_class_entry *ce);
void rlock_class_rratelimiter_minit(zend_class_entry *ce);

/* A new RLock in out, on full (the Redis key, prefix included), whose holds are kept by the
 * algorithm a: for the classes whose objects hand out RLocks of another kind (the sides of
 * a read-write lock, a lock over several keys). o and full are shared, not taken. */
void rlock_class_rlock_new(zval *out, rlock_opts *o, zend_string *full, const rlock_algo *a);

/* lock's (an RLock's) onLost() callback from now on: fn, a Closure, or none (NULL). */
void rlock_class_rlock_on_lost(zval *lock, zval *fn);

/* var_dump()'s array of an object: info, holding what the class shows of it, with the lease
 * its holds ask and its options (passwords masked) added last. */
HashTable *rlock_debug_array(zval *info, const rlock_opts *o);

/* Whether lock (an RLock, or UNDEF: none) is held by this process, as var_dump() shows it. */
bool rlock_class_rlock_held(zval *lock);

/* err thrown, with every password of o masked: the one way a failure leaves the extension
 * (a server's text, a host a MOVED names, may have echoed one). */
void rlock_throw(const rlock_opts *o, rlock_err *err);

/* A lock's Redis key: prefix and key (escaped should they begin like a companion key). */
zend_string *rlock_full_key(const rlock_opts *o, zend_string *key);

/* A lock constructor's arguments, key (#1) and options (#2): the options, and in *full the
 * lock's Redis key (prefix included; one whose companions share its Cluster slot). NULL with
 * a ValueError or TypeError thrown. */
rlock_opts *rlock_construct_args(zend_string *key, HashTable *options, zend_string **full);

/* A ms argument: null means the option's value (def). -1 with a ValueError out of the
 * range of that option. */
zend_long rlock_ms_arg(const char *option, zend_long def, zend_long ms, bool is_null, uint32_t arg_num);

/* A call that gives back or extends (verb: "unlock", "release", "extend") what an object
 * holds, made in a context that holds nothing through it while another context does: it
 * must never act on that context's hold. Throws an RLockException naming what (e.g. "the
 * lock") and name, true; false when no other context holds through w. */
bool rlock_refuse_elsewhere(rlock_owners *w, const char *verb, const char *what, zend_string *name);

/* Gives back what synchronized() took: 1 given back (or given back by $fn itself, and not
 * found lost), 0 it was no longer ours, -1 thrown (only when throw is set). */
typedef int (*rlock_give_back)(void *holder, bool throw);

/* synchronized()'s part once acquired: $fn($this) into return_value, then give_back(holder).
 * $fn's exception wins over anything the release says; a hold found no longer ours throws
 * RLockLostException carrying $fn's result, its message lost_format with name. */
void rlock_synchronized_run(zval *return_value, zval *this_ptr, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	rlock_give_back give_back, void *holder, const char *lost_format, zend_string *name);

#endif
