#ifndef RLOCK_ERRORS_H
#define RLOCK_ERRORS_H

#include "php.h"

extern zend_class_entry *rlock_ce_exception;
extern zend_class_entry *rlock_ce_connection_exception;
extern zend_class_entry *rlock_ce_timeout_exception;
extern zend_class_entry *rlock_ce_lost_exception;

typedef enum {
	RLOCK_ERR_NONE = 0,
	RLOCK_ERR_CONNECTION,  /* unreachable, I/O error, timeout: RLockConnectionException */
	RLOCK_ERR_AUTH,        /* credentials refused, or wanted: RLockConnectionException too, but
	                        * Redis answered, and nothing ran: waiting or retrying is no help */
	RLOCK_ERR_REPLY,       /* Redis answered with an error: RLockException */
	RLOCK_ERR_USE          /* a call that could never succeed as made (nothing asked of Redis): RLockException */
} rlock_err_kind;

/* A failure below rlock.c, carried up as data and thrown (or ignored) at the top. */
typedef struct {
	rlock_err_kind kind;
	char msg[512];
} rlock_err;

/* "Redis <label>: <cause>"; the label names host and port, never a password. NULL: the cause
 * alone (RLOCK_ERR_USE). */
void rlock_err_set(rlock_err *err, rlock_err_kind kind, const char *label, const char *fmt, ...)
	ZEND_ATTRIBUTE_FORMAT(printf, 4, 5);

/* What a server sent, [text, text + len), as a NUL-terminated string for a message in out
 * (cut to size): every occurrence of secret (the password the connection sends, which a
 * hostile server may echo back; NULL: none) shown as "***", found before the cut, so that no
 * part of it shows either. */
const char *rlock_err_quote(char *out, size_t size, const char *text, size_t len, const char *secret, size_t secret_len);

/* Throw err as the exception class its kind names. */
void rlock_err_throw(const rlock_err *err);

#endif
