#ifndef RLOCK_OPTIONS_H
#define RLOCK_OPTIONS_H

#ifdef HAVE_CONFIG_H
# include "config.h"  /* RLOCK_HAVE_TLS */
#endif

#include "php.h"
#include "zend_smart_str.h"

/* The longest duration, in ms, that any option or argument takes (ttl, wait, retry_delay,
 * the timeouts, lock($waitMs), extend($ttlMs)): 2^31 - 1, about 24.8 days, the most one
 * poll() can wait and what hiredis takes for a connect timeout. A sum of a few of them
 * (connect + read + wait, now + ttl) cannot overflow a 64-bit count of ms. */
#define RLOCK_MS_MAX 2147483647
/* The least a duration may be where a number of seconds is as likely written (ttl, the
 * timeouts): 'ttl' => 5, seconds meant, is refused (a ValueError that says milliseconds),
 * never taken for 5 ms. */
#define RLOCK_MS_FLOOR 100
/* The largest database number: Redis allows at most 2^31 - 1 databases. */
#define RLOCK_DB_MAX 2147483646

/* One Redis server, parsed from a DSN. */
typedef struct {
	zend_string *host;  /* host name or address; the socket path when port == 0 */
	int port;           /* 0: unix socket */
	zend_long db;
	zend_string *user;  /* NULL: no ACL user */
	zend_string *pass;  /* NULL: no AUTH; never printed */
	bool tls;           /* rediss:// */
	zend_string *id;    /* every field above (and the TLS options, for tls): the connection pool's key */
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
	zend_long spin_us;     /* us a call spins for a reply before it sleeps (transport/conn.c) */
	bool persistent;
	bool reentrant;
	bool auto_release;
	bool fencing;
	bool fair;
	bool watchdog;
	/* TLS, for the rediss:// servers: paths, NULL when not given (never empty) */
	zend_string *tls_ca;
	zend_string *tls_cert;
	zend_string *tls_key;
	zend_string *tls_server_name;  /* NULL: each server's host */
	bool tls_verify_peer;
	bool tls_nodes;  /* the nodes the Cluster or the Sentinels name are reached over TLS */
} rlock_opts;

/* php.ini defaults overridden by $options (argument arg_num of the calling function).
 * NULL with a ValueError or TypeError thrown. */
rlock_opts *rlock_opts_create(HashTable *options, uint32_t arg_num);
rlock_opts *rlock_opts_addref(rlock_opts *o);
/* Drop the options kept for the array they were last made from (rlock_opts_create() makes
 * them once per distinct array): php.ini changed, or the request ends. */
void rlock_opts_forget(void);
/* What tells one hold apart from every other in this process: its server(s), its kind (an
 * algorithm's: rlock_algo.kind) and key. */
zend_string *rlock_opts_lock_id(const rlock_opts *o, const char *kind, zend_string *key);
void rlock_opts_release(rlock_opts *o);
/* o's TLS options (CA, certificate and key files, the server name when with_name, peer
 * verification) appended to out, each after a NUL byte: what tells connections (with the
 * name) and TLS contexts (without: the name is checked per connection) apart. */
void rlock_opts_tls_id(const rlock_opts *o, bool with_name, smart_str *out);

/* msg (a NUL-terminated message of at most size bytes) with every password of o shown as
 * "***": the last guard before a message leaves the extension, for text a server chose (a
 * host a MOVED names, say) that reached it. */
void rlock_opts_scrub(const rlock_opts *o, char *msg, size_t size);

/* Whether v is within the range of the integer option name (a method's ms argument,
 * arg_num, that defaults to it); false with a ValueError. */
bool rlock_opts_check_arg(const char *name, zend_long v, uint32_t arg_num);

/* Whether v, the ms argument arg_num that is no option (a rate limiter's period), is
 * RLOCK_MS_FLOOR to RLOCK_MS_MAX; false with a ValueError worded as ttl's (under the floor:
 * "is in milliseconds", seconds meant). */
bool rlock_ms_floor_arg(zend_long v, uint32_t arg_num);

/* The first option of names (NULL-terminated) that the array options gives, or NULL: what a
 * class refuses as asked by its caller, never as a php.ini default (set for the locks). */
const char *rlock_opts_given(HashTable *options, const char *const *names);

/* A class's own option, outside the table of connection options (a rate limiter's "burst"):
 * its value into *own (UNDEF: not given), and the options without it, for
 * rlock_opts_create(): options itself when it was not there, else a copy that the caller
 * releases (zend_array_release). */
HashTable *rlock_opts_split(HashTable *options, const char *name, zval *own);
/* v as the integer option name of argument arg_num takes it (coercive mode), min to max: false
 * with a TypeError or a ValueError naming it (why, when not NULL, said after the range). */
bool rlock_opts_own_long(const char *name, zval *v, zend_long min, zend_long max, const char *why, uint32_t arg_num,
	zend_long *out);

/* php.ini's rlock.name set to value, into global (the INI table's binding): integers and
 * bools parsed, strings kept. Never refused: an invalid value is kept as given and (false)
 * every call that would use it throws, naming the setting and the value, until it is set
 * right; warn: say so now (a warning). */
bool rlock_opts_ini_update(const char *name, zend_string *value, void *global, bool warn);

/* A php.ini integer setting that is no option (rlock.stats_keys), s (len bytes) read as an
 * option's is (decimal digits only, min to max) into *out; false with the reason in why,
 * worded as an option's. */
bool rlock_ini_long(const char *s, size_t len, zend_long min, zend_long max, zend_long *out, char *why, size_t size);

/* The effective options of o for var_dump() and print_r(), passwords masked, into out (an
 * array); those named in omit (NULL-terminated, or NULL) left out: what the class has no use for. */
void rlock_opts_debug(const rlock_opts *o, const char *const *omit, zval *out);
/* Decimal digits [s, s + len) into *out, refused (false) when empty, anything but a digit,
 * or above max. */
bool rlock_parse_number(const char *s, size_t len, zend_long max, zend_long *out);

/* Parse a DSN into out (fields allocated persistent or not); SUCCESS or FAILURE with a
 * reason in *why. */
zend_result rlock_server_parse(const char *dsn, size_t len, rlock_server *out, bool persistent, const char **why);
void rlock_server_free(rlock_server *s, bool persistent);
/* An entry of a server list ("servers", "cluster", "sentinel"): a DSN, or host:port (as
 * tcp://host:port); as rlock_server_parse(). */
zend_result rlock_server_parse_entry(const char *entry, size_t len, rlock_server *out, const char **why);
/* An entry (as rlock_server_parse_entry() reads it) for display, into out: the password the
 * parser would send replaced by "***"; an entry it refuses has everything up to its last
 * '@' replaced. */
void rlock_server_mask(const char *entry, size_t len, smart_str *out);
/* A comma-separated list of entries (or one DSN) masked entry by entry, as rlock_server_mask(). */
void rlock_servers_mask(const char *list, size_t len, smart_str *out);

/* host:port with the credentials and database of like: a node a Sentinel or the Cluster
 * named, over TLS (o's TLS options) when o->tls_nodes. */
void rlock_server_with_address(rlock_server *out, const rlock_opts *o, const rlock_server *like, const char *host,
	int port);

#endif
