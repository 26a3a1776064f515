#ifndef RLOCK_LOCK_H
#define RLOCK_LOCK_H

#include "options.h"
#include "errors.h"

/* One acquisition of a key. */
typedef struct {
	zend_string *token;  /* 32 hex digits: 128 bits from the OS CSPRNG */
	zend_long fence;     /* fencing token, 0 without the option */
	bool queued;         /* got it through the waiters' queue, where it is counted until release */
} rlock_hold;

void rlock_lock_minit(void);

/* The batch renewal script the watchdog thread runs on its own connections: its source and
 * SHA1, plain C strings that do not change after MINIT. */
void rlock_lock_renew_script(const char **source, const char **sha);

/* Acquire key, waiting up to wait_ms for a release to hand it over. 1 acquired (out filled;
 * out->token is the caller's), 0 not within wait_ms, -1 err set. */
int rlock_lock_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err);

/* Compare-and-delete, handing the key to the longest waiter if any. 1 released, 0 it was not
 * ours, -1 err set. */
int rlock_lock_release(const rlock_opts *o, zend_string *key, zend_string *token, bool queued, rlock_err *err);

/* Compare-and-pexpire. 1 extended, 0 not ours, -1 err set. */
int rlock_lock_extend(const rlock_opts *o, zend_string *key, zend_string *token, zend_long ttl, rlock_err *err);

/* Queries: 1 yes, 0 no, -1 err set. */
int rlock_lock_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err);
int rlock_lock_exists(const rlock_opts *o, zend_string *key, rlock_err *err);

/* PTTL of key into *out (-2 no key, -1 no expiry); 0, or -1 with err set. */
int rlock_lock_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err);

#endif
