/* Failures into the exception classes. */

#include "php.h"
#include "zend_exceptions.h"
#include "errors.h"

zend_class_entry *rlock_ce_exception;
zend_class_entry *rlock_ce_connection_exception;
zend_class_entry *rlock_ce_timeout_exception;
zend_class_entry *rlock_ce_lost_exception;

void rlock_err_set(rlock_err *err, rlock_err_kind kind, const char *label, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err->msg, sizeof(err->msg), "Redis %s: ", label);
	if (n < 0 || (size_t) n >= sizeof(err->msg)) {
		n = 0;
	}
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - n, fmt, ap);
	va_end(ap);
	err->kind = kind;
}

void rlock_err_throw(const rlock_err *err)
{
	zend_class_entry *ce = err->kind == RLOCK_ERR_CONNECTION ? rlock_ce_connection_exception : rlock_ce_exception;
	zend_throw_exception(ce, err->msg, 0);
}
