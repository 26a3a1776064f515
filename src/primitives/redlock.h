#ifndef RLOCK_REDLOCK_H
#define RLOCK_REDLOCK_H

#include "src/primitives/lock.h"

/* The lock over N independent masters (option "servers"): the Redlock algorithm. */
extern const rlock_algo rlock_redlock_algo;

#endif
