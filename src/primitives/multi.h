#ifndef RLOCK_MULTI_H
#define RLOCK_MULTI_H

#include "src/core/options.h"
#include "src/primitives/lock.h"

/* The most keys one lock over several keys takes (its release passes 5 Redis keys of each
 * to one script: RLOCK_MAX_ARGS). */
#define RLOCK_MULTI_MAX_KEYS RLOCK_ALGO_MAX_KEYS

/* A lock over several keys on one server: all of them or none (multi.c). The key it is
 * given is rlock_multi_key()'s. */
extern const rlock_algo rlock_multi_algo;

/* The key of a lock over the n lock keys full (prefix included): the keys sorted, each as a
 * netstring ("len:bytes,"), so that one set of keys is one key whatever their order. NULL
 * when a key is there twice. */
zend_string *rlock_multi_key(zend_string **full, uint32_t n);
/* Whether key is one rlock_multi_key() makes. */
bool rlock_multi_is_key(zend_string *key);

void rlock_multi_minit(void);

#endif
