#ifndef RLOCK_CONN_H
#define RLOCK_CONN_H

#include <hiredis/hiredis.h>
#include "options.h"
#include "errors.h"

/* One hiredis connection, owned by the process that opened it. */
typedef struct {
	redisContext *ctx;
	pid_t pid;             /* never written to, nor closed with QUIT, by another pid */
	bool busy;             /* a command was sent whose reply was not read: never reuse */
	uint32_t checked_gen;  /* the request in which it was last checked for liveness */
} rlock_conn;

/* Send one command to o's server and read its reply, waiting up to read_timeout +
 * block_ms. The reply (error replies included) is the caller's to freeReplyObject();
 * NULL with err set when the server could not be reached or did not answer in time, in
 * which case the connection is thrown away and the next call reconnects. */
redisReply *rlock_conn_call(const rlock_opts *o, int argc, const char **argv, const size_t *lens,
	zend_long block_ms, rlock_err *err);

/* Module and request life cycle. */
void rlock_conn_ginit(HashTable *pool, HashTable *request_conns);
void rlock_conn_gshutdown(HashTable *pool, HashTable *request_conns);
void rlock_conn_rinit(void);
void rlock_conn_rshutdown(void);
uint32_t rlock_conn_pooled_count(void);

#endif
