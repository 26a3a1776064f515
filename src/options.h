#ifndef RLOCK_OPTIONS_H
#define RLOCK_OPTIONS_H

#include "php.h"

/* One Redis server, parsed from a DSN. */
typedef struct {
	zend_string *host;  /* host name or address; the socket path when port == 0 */
	int port;           /* 0: unix socket */
	zend_long db;
	zend_string *user;  /* NULL: no ACL user */
	zend_string *pass;  /* NULL: no AUTH; never printed */
	zend_string *id;    /* every field above: the connection pool's key */
	char label[280];    /* "host:port" or "unix:/path", for messages */
} rlock_server;

/* Every option of one RLock, validated. Shared (refcounted) by the object and the locks it
 * holds, for the length of a request. */
typedef struct {
	uint32_t refcount;
	rlock_server server;
	rlock_server *servers;  /* Redlock masters ("servers"), NULL when not given */
	uint32_t nservers;
	rlock_server *nodes;    /* Redis Cluster seed nodes ("cluster") */
	uint32_t nnodes;
	rlock_server *sentinels;  /* Sentinels ("sentinel") asked for the master of "service" */
	uint32_t nsentinels;
	zend_string *service;
	zend_long sync_replicas;
	zend_string *id;        /* the server(s): what the registry keys a held lock by */
	zend_string *prefix;
	zend_long ttl;
	zend_long wait;
	zend_long retry_delay;
	zend_long connect_timeout;
	zend_long read_timeout;
	bool persistent;
	bool reentrant;
	bool auto_release;
	bool fencing;
	bool fair;
	bool watchdog;
} rlock_opts;

/* php.ini defaults overridden by $options (argument arg_num of the calling function).
 * NULL with a ValueError or TypeError thrown. */
rlock_opts *rlock_opts_create(HashTable *options, uint32_t arg_num);
rlock_opts *rlock_opts_addref(rlock_opts *o);
/* What tells one lock apart from every other: its server(s) and key. */
zend_string *rlock_opts_lock_id(const rlock_opts *o, zend_string *key);
void rlock_opts_release(rlock_opts *o);

/* Parse a DSN into out (fields allocated persistent or not); SUCCESS or FAILURE with a
 * reason in *why. */
zend_result rlock_server_parse(const char *dsn, size_t len, rlock_server *out, bool persistent, const char **why);
void rlock_server_free(rlock_server *s, bool persistent);

/* host:port with the credentials and database of like: a node a Sentinel or the Cluster
 * named. */
void rlock_server_with_address(rlock_server *out, const rlock_server *like, const char *host, int port);

#endif
