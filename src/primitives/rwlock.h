#ifndef RLOCK_RWLOCK_H
#define RLOCK_RWLOCK_H

#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/primitives/lock.h"

/* The two sides of a read-write lock on one server or a Cluster (rwlock.c): each an
 * algorithm whose holds an RLock keeps. The key each is given is the read-write lock's own
 * (prefix and key, as rlock_full_key() makes it); its sides' Redis keys are companions of
 * it. */
extern const rlock_algo rlock_rwlock_read_algo;
extern const rlock_algo rlock_rwlock_write_algo;

void rlock_rwlock_minit(void);

/* MINIT, from the registry (src/state/registry.c), which sits above: fn(a, o, key) is the
 * token the running context holds key with (a's kind), or NULL (rlock_registry_token()): a
 * reader gets in past its own context's writer. */
void rlock_rwlock_held_by(zend_string *(*fn)(const rlock_algo *a, const rlock_opts *o, zend_string *key));

#endif
