#ifndef RLOCK_REDLOCK_H
#define RLOCK_REDLOCK_H

#include "lock.h"

/* The lock over N independent masters (option "servers"): the Redlock algorithm. */
extern const rlock_algo rlock_redlock_algo;

/* The clock drift Redlock allows for a lease of ttl ms: what a validity leaves out of it. */
zend_long rlock_redlock_drift(zend_long ttl);

#endif
