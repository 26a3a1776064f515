#ifndef RLOCK_REDLOCK_H
#define RLOCK_REDLOCK_H

#include "src/primitives/lock.h"

/* The lock over N independent masters (option "servers"): the Redlock algorithm. */
extern const rlock_algo rlock_redlock_algo;

/* The algorithm o asks for: Redlock over its masters ("servers"), else the lock on one server
 * (rlock_lock_algo). Here, above lock.c: Redlock waits through lock.c's wait. */
const rlock_algo *rlock_algo_of(const rlock_opts *o);

/* MINIT: Redlock's own scripts. */
void rlock_redlock_minit(void);

/* The clock drift Redlock allows for a lease of ttl ms: what a validity leaves out of it. */
zend_long rlock_redlock_drift(zend_long ttl);

#endif
