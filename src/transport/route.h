#ifndef RLOCK_ROUTE_H
#define RLOCK_ROUTE_H

#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/transport/conn.h"

/* Send cmd about key to the server that has it: the one "server", the master the
 * Sentinels name for "service" (asked again after a failover), or the Cluster node that
 * serves key's slot (following MOVED and ASK, refreshing the slot map). The reply, or NULL
 * with err set; error replies come back as err too, except NOSCRIPT, which the caller
 * answers with EVAL. */
redisReply *rlock_route_call(const rlock_opts *o, zend_string *key, const rlock_cmd *cmd, zend_long block_ms, rlock_err *err);

/* The server whose reply the last rlock_route_call() or rlock_route_call_block() returned,
 * for what the caller says of that reply: o->server with the label of the node or master
 * that answered (a Cluster node, the Sentinels' master), valid until the next call. */
const rlock_server *rlock_route_answered(const rlock_opts *o);

/* rlock_conn_call_block() to the server that has key. */
int rlock_route_call_block(const rlock_opts *o, zend_string *key, const rlock_block *b, redisReply **r1, redisReply **r2,
	rlock_err *err);

/* The Cluster node that serves key's slot as far as this process knows (its slot map, not
 * asked for): its host (valid until the next routed call) and port; false when it knows none. */
bool rlock_route_known_node(const rlock_opts *o, zend_string *key, const char **host, int *port);

/* The {hash tag} of key (what is between its first '{' and the next '}', when not empty),
 * or NULL. */
const char *rlock_route_hash_tag(const char *key, size_t len, size_t *tag_len);

/* The Cluster hash slot of key (CRC16 of its {hash tag} or of the whole key). */
uint16_t rlock_route_slot(const char *key, size_t len);

/* The per-process table of what rlock knows of clusters and sentinels (freed with the table). */
void rlock_route_ginit(HashTable *topology);

#endif
