/* Failures into the exception classes. */

#include "php.h"
#include "zend_exceptions.h"
#include "src/core/errors.h"

zend_class_entry *rlock_ce_exception;
zend_class_entry *rlock_ce_connection_exception;
zend_class_entry *rlock_ce_timeout_exception;
zend_class_entry *rlock_ce_lost_exception;

void rlock_err_set(rlock_err *err, rlock_err_kind kind, const char *label, const char *fmt, ...)
{
	va_list ap;
	int n = label ? snprintf(err->msg, sizeof(err->msg), "Redis %s: ", label) : 0;
	if (n < 0 || (size_t) n >= sizeof(err->msg)) {
		n = 0;
	}
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - n, fmt, ap);
	va_end(ap);
	err->kind = kind;
}

const char *rlock_err_quote(char *out, size_t size, const char *text, size_t len, const char *secret, size_t secret_len)
{
	size_t n = 0;
	for (size_t i = 0; i < len && n + 1 < size; ) {
		if (secret && secret_len > 0 && len - i >= secret_len && memcmp(text + i, secret, secret_len) == 0) {
			for (const char *m = "***"; *m && n + 1 < size; m++) {
				out[n++] = *m;
			}
			i += secret_len;
		} else {
			out[n++] = text[i++];
		}
	}
	out[n] = '\0';
	return out;
}

void rlock_err_throw(const rlock_err *err)
{
	zend_class_entry *ce = err->kind == RLOCK_ERR_CONNECTION || err->kind == RLOCK_ERR_AUTH
		? rlock_ce_connection_exception : rlock_ce_exception;
	zend_throw_exception(ce, err->msg, 0);
}
