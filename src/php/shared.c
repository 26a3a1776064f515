/* What the files of the PHP classes share: a constructor's arguments, a lock's Redis key, a ms
 * argument, var_dump()'s array, the refusal to act on another context's hold, synchronized()'s
 * run, and the one way a failure leaves the extension (src/php/classes.h). */

#include "php.h"
#include "zend_exceptions.h"
#include "php_rlock.h"
#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/primitives/scripts.h"
#include "src/state/context.h"
#include "src/php/classes.h"

/* err thrown, with every password of o masked: the one way a failure leaves the extension
 * (a server's text, a host a MOVED names, may have echoed one). */
void rlock_throw(const rlock_opts *o, rlock_err *err)
{
	rlock_opts_scrub(o, err->msg, sizeof(err->msg));
	rlock_err_throw(err);
}

/* The lock's Redis key: prefix and key (escaped should they begin like a companion key). */
zend_string *rlock_full_key(const rlock_opts *o, zend_string *key)
{
	return rlock_keys_lock_key(zend_string_concat2(ZSTR_VAL(o->prefix), ZSTR_LEN(o->prefix), ZSTR_VAL(key), ZSTR_LEN(key)));
}

rlock_opts *rlock_construct_args(zend_string *key, HashTable *options, zend_string **full)
{
	if (ZSTR_LEN(key) == 0) {
		zend_argument_value_error(1, "must not be empty");
		return NULL;
	}
	rlock_opts *o = rlock_opts_create(options, 2);
	if (!o) {
		return NULL;
	}
	*full = rlock_full_key(o, key);
	if (o->nnodes && !rlock_keys_cluster_safe(*full)) {
		zend_argument_value_error(1, "must not contain \"}\" outside a {hash tag} with the \"cluster\" option, "
			"or its companion keys could not share its slot");
		zend_string_release(*full);
		rlock_opts_release(o);
		return NULL;
	}
	return o;
}

/* A ms argument: null means the option's value (def). -1 with a ValueError out of the
 * range of that option. */
zend_long rlock_ms_arg(const char *option, zend_long def, zend_long ms, bool is_null, uint32_t arg_num)
{
	if (is_null) {
		return def;
	}
	return rlock_opts_check_arg(option, ms, arg_num) ? ms : -1;
}

HashTable *rlock_debug_array(zval *info, const rlock_opts *o)
{
	zval opts;

	add_assoc_long(info, "ttl", o->ttl);
	rlock_opts_debug(o, NULL, &opts);
	add_assoc_zval(info, "options", &opts);
	return Z_ARR_P(info);
}

bool rlock_refuse_elsewhere(rlock_owners *w, const char *verb, const char *what, zend_string *name)
{
	if (!rlock_owners_elsewhere(w)) {
		return false;
	}
	zend_throw_exception_ex(rlock_ce_exception, 0, "Cannot %s %s \"%s\" from this execution context: another one "
		"(the main flow, another Fiber or another Swoole coroutine) holds it through this object, and a hold belongs to the "
		"context that took it",
		verb, what, ZSTR_VAL(name));
	return true;
}

void rlock_synchronized_run(zval *return_value, zval *this_ptr, zend_fcall_info *fci, zend_fcall_info_cache *fcc,
	rlock_give_back give_back, void *holder, const char *lost_format, zend_string *name)
{
	zval arg, result;

	ZVAL_OBJ_COPY(&arg, Z_OBJ_P(this_ptr));
	ZVAL_UNDEF(&result);
	fci->retval = &result;
	fci->param_count = 1;
	fci->params = &arg;
	zend_call_function(fci, fcc);
	zval_ptr_dtor(&arg);

	if (EG(exception)) {
		/* $fn's exception wins over anything the release has to say. */
		give_back(holder, false);
		zval_ptr_dtor(&result);
		return;
	}
	int rc = give_back(holder, true);
	if (rc == 0) {
		zend_object *ex = zend_throw_exception_ex(rlock_ce_lost_exception, 0, lost_format, ZSTR_VAL(name));
		zend_update_property(rlock_ce_lost_exception, ex, "result", sizeof("result") - 1, &result);
	}
	if (rc <= 0) {
		zval_ptr_dtor(&result);
		return;
	}
	RETURN_COPY_VALUE(&result);
}
