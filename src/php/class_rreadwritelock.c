/* The class RReadWriteLock: many readers or one writer. Its two sides are RLocks whose holds
 * the read-write algorithm keeps (src/primitives/rwlock.c); this file only makes them. */

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "php_rlock.h"
#include "src/primitives/rwlock.h"
#include "src/state/lost.h"
#include "src/php/classes.h"
#include "src/core/errors.h"

static zend_object_handlers rrwlock_object_handlers;

typedef struct {
	rlock_opts *opts;
	zend_string *key;  /* the lock's key, prefix included: its sides' too (their Redis keys are its companions) */
	zval read, write;  /* the sides, made at their first call: every call hands out the same RLock */
	zval on_lost;      /* onLost()'s callback (a Closure), each side's too: UNDEF none */
	zend_object std;
} rrwlock_object;

static inline rrwlock_object *rrwlock_from_obj(zend_object *obj)
{
	return (rrwlock_object *) ((char *) obj - XtOffsetOf(rrwlock_object, std));
}

#define Z_RRWLOCK_P(zv) rrwlock_from_obj(Z_OBJ_P(zv))

static zend_object *rrwlock_create(zend_class_entry *ce)
{
	rrwlock_object *rw = zend_object_alloc(sizeof(rrwlock_object), ce);
	zend_object_std_init(&rw->std, ce);
	object_properties_init(&rw->std, ce);
	rw->std.handlers = &rrwlock_object_handlers;
	ZVAL_UNDEF(&rw->read);
	ZVAL_UNDEF(&rw->write);
	ZVAL_UNDEF(&rw->on_lost);
	return &rw->std;
}

static void rrwlock_free(zend_object *obj)
{
	rrwlock_object *rw = rrwlock_from_obj(obj);
	zval_ptr_dtor(&rw->read);
	zval_ptr_dtor(&rw->write);
	zval_ptr_dtor(&rw->on_lost);
	if (rw->key) {
		zend_string_release(rw->key);
	}
	if (rw->opts) {
		rlock_opts_release(rw->opts);
	}
	zend_object_std_dtor(obj);
}

PHP_METHOD(RReadWriteLock, __construct)
{
	zend_string *key;
	HashTable *options = NULL;
	rrwlock_object *rw = Z_RRWLOCK_P(ZEND_THIS);

	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_STR(key)
		Z_PARAM_OPTIONAL
		Z_PARAM_ARRAY_HT(options)
	ZEND_PARSE_PARAMETERS_END();

	if (rw->opts) {
		/* a misuse, as restore() on a holder is: rlock throws no plain Error */
		zend_throw_exception(rlock_ce_exception, "Cannot call RReadWriteLock::__construct() twice", 0);
		RETURN_THROWS();
	}
	zend_string *full;
	rlock_opts *o = rlock_construct_args(key, options, &full);
	if (!o) {
		RETURN_THROWS();
	}
	if (o->nservers > 0) {
		/* the sides' scripts keep readers, writers and their queues together on one server */
		zend_argument_value_error(2, "option \"servers\" (Redlock) is not supported by RReadWriteLock: "
			"use \"server\", \"cluster\" or \"sentinel\"");
		zend_string_release(full);
		rlock_opts_release(o);
		RETURN_THROWS();
	}
	rw->opts = o;
	rw->key = full;
}

/* The side (made at its first call) into return_value. */
static void rrwlock_side(zval *this_ptr, bool write, zval *return_value)
{
	rrwlock_object *rw = Z_RRWLOCK_P(this_ptr);
	zval *side = write ? &rw->write : &rw->read;

	if (!rw->opts) {
		zend_throw_error(NULL, "RReadWriteLock object is not initialized");
		return;
	}
	if (Z_ISUNDEF_P(side)) {
		rlock_class_rlock_new(side, rw->opts, rw->key, write ? &rlock_rwlock_write_algo : &rlock_rwlock_read_algo);
		if (!Z_ISUNDEF(rw->on_lost)) {
			rlock_class_rlock_on_lost(side, &rw->on_lost);
		}
	}
	RETURN_COPY(side);
}

PHP_METHOD(RReadWriteLock, readLock)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rrwlock_side(ZEND_THIS, false, return_value);
}

PHP_METHOD(RReadWriteLock, writeLock)
{
	ZEND_PARSE_PARAMETERS_NONE();
	rrwlock_side(ZEND_THIS, true, return_value);
}

PHP_METHOD(RReadWriteLock, onLost)
{
	zend_fcall_info fci = empty_fcall_info;
	zend_fcall_info_cache fcc = empty_fcall_info_cache;
	rrwlock_object *rw = Z_RRWLOCK_P(ZEND_THIS);
	zval fn;

	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC_OR_NULL(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if (!rw->opts) {
		zend_throw_error(NULL, "RReadWriteLock object is not initialized");
		RETURN_THROWS();
	}
	ZVAL_UNDEF(&fn);
	if (ZEND_FCI_INITIALIZED(fci) && !rlock_lost_closure(&fci.function_name, &fn)) {
		RETURN_THROWS();
	}
	zval_ptr_dtor(&rw->on_lost);
	ZVAL_COPY_VALUE(&rw->on_lost, &fn);
	/* the sides made already; the others as they are made */
	for (int i = 0; i < 2; i++) {
		zval *side = i ? &rw->write : &rw->read;
		if (!Z_ISUNDEF_P(side)) {
			rlock_class_rlock_on_lost(side, Z_ISUNDEF(fn) ? NULL : &fn);
		}
	}
	RETURN_OBJ_COPY(&rw->std);
}

/* var_dump() and print_r(): the key, which side this object's RLocks hold, the lease they
 * ask and the options, passwords masked. */
static HashTable *rrwlock_debug_info(zend_object *obj, int *is_temp)
{
	rrwlock_object *rw = rrwlock_from_obj(obj);
	zval info;

	*is_temp = 1;
	array_init(&info);
	if (!rw->opts) {
		return Z_ARR(info);
	}
	add_assoc_str(&info, "key", zend_string_copy(rw->key));
	add_assoc_bool(&info, "read_held", rlock_class_rlock_held(&rw->read));
	add_assoc_bool(&info, "write_held", rlock_class_rlock_held(&rw->write));
	return rlock_debug_array(&info, rw->opts);
}

/* The cycle collector sees the sides and the callback (a Closure may hold this object). */
static HashTable *rrwlock_get_gc(zend_object *obj, zval **table, int *n)
{
	rrwlock_object *rw = rrwlock_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zend_get_gc_buffer_add_zval(buf, &rw->read);
	zend_get_gc_buffer_add_zval(buf, &rw->write);
	zend_get_gc_buffer_add_zval(buf, &rw->on_lost);
	zend_get_gc_buffer_use(buf, table, n);
	return obj->properties;
}

void rlock_class_rreadwritelock_minit(zend_class_entry *ce)
{
	ce->create_object = rrwlock_create;
	memcpy(&rrwlock_object_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	rrwlock_object_handlers.offset = XtOffsetOf(rrwlock_object, std);
	rrwlock_object_handlers.free_obj = rrwlock_free;
	rrwlock_object_handlers.clone_obj = NULL;
	rrwlock_object_handlers.get_debug_info = rrwlock_debug_info;
	rrwlock_object_handlers.get_gc = rrwlock_get_gc;
}
