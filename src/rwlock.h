#ifndef RLOCK_RWLOCK_H
#define RLOCK_RWLOCK_H

#include "options.h"
#include "errors.h"
#include "lock.h"

/* The two sides of a read-write lock on one server or a Cluster (rwlock.c): each an
 * algorithm whose holds an RLock keeps. Their keys are the side keys below. */
extern const rlock_algo rlock_rwlock_read_algo;
extern const rlock_algo rlock_rwlock_write_algo;

/* The Redis key of the read side (a sorted set of readers) or of the write side (a string
 * holding the writer's token) of the read-write lock on lock_key (prefix and key, as
 * rlock_full_key() makes it). A new string. */
zend_string *rlock_rwlock_side_key(zend_string *lock_key, bool write);

void rlock_rwlock_minit(void);

#endif
