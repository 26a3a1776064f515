#ifndef PHP_RLOCK_H
#define PHP_RLOCK_H

extern zend_module_entry rlock_module_entry;
#define phpext_rlock_ptr &rlock_module_entry

#define PHP_RLOCK_VERSION "0.1.0"

#ifdef ZTS
# include "TSRM.h"
#endif

/* What this process counts, shown by phpinfo(). */
typedef struct {
	zend_ulong acquired;
	zend_ulong contended;
	zend_ulong timeouts;
	zend_ulong lost;
	zend_ulong reconnects;
	zend_ulong handovers;  /* acquires a release handed to us (src/primitives/lock.c), for src/stats/stats.c */
} rlock_counters;

ZEND_BEGIN_MODULE_GLOBALS(rlock)
	/* php.ini defaults, bound by the INI table in rlock.c */
	char *server;
	char *servers;   /* comma-separated lists */
	char *cluster;
	char *sentinel;
	char *service;
	char *prefix;
	zend_long sync_replicas;
	zend_long ttl;
	zend_long wait;
	zend_long retry_delay;
	zend_long connect_timeout;
	zend_long read_timeout;
	zend_long spin_us;
	bool persistent;
	bool reentrant;
	bool auto_release;
	bool fencing;
	bool fair;
	bool watchdog;
	char *tls_ca;
	char *tls_cert;
	char *tls_key;
	char *tls_server_name;
	bool tls_verify_peer;
	/* the integer and bool settings above whose php.ini value is invalid, one bit each by
	 * their place in src/core/options.c's table: kept as given, every call that uses one throws */
	uint32_t ini_invalid;
	/* connections that outlive the request (src/transport/conn.c), per process */
	HashTable pool;
	/* connections of this request only (persistent = false) */
	HashTable request_conns;
	/* TLS contexts (SSL_CTX, src/transport/conn.c) by the options that made them, per process */
	HashTable tls_ctxs;
	/* when the public call under way must have returned (src/transport/conn.c), 0 before the first */
	zend_long call_deadline;
	/* calls begun with rlock_conn_enter and not left: inner calls keep call_deadline */
	int call_depth;
	/* slot maps of clusters and masters named by Sentinels (src/transport/route.c) */
	HashTable topology;
	/* keys found taken lately, and tokens of acquires whose reply was lost (src/primitives/lock.c) */
	HashTable hot_keys;
	HashTable lost_tokens;
	pid_t lost_tokens_pid;
	/* locks this request holds (src/state/registry.c), and how many of them are over several keys */
	HashTable held;
	uint32_t held_over_keys;
	bool request_active;
	uint64_t held_serial;  /* the last serial given to a hold: never reused in the process */
	/* lost locks told the moment they are lost (src/state/lost.c): set by the watchdog's thread (an
	 * atomic) when it finds one of this thread's locks lost; the objects with an onLost
	 * callback, by handle; how many callbacks are due; the callbacks running */
	int lost_pending;
	HashTable lost_listeners;
	uint32_t lost_due;
	bool lost_dispatching;
	/* execution contexts (src/state/context.c): the main flow's id, each Fiber's by its
	 * zend_fiber_context, the ids alive, the last id given (per process) */
	zend_ulong ctx_main;
	HashTable ctx_fibers;
	HashTable ctx_alive;
	zend_ulong ctx_last;
	/* Swoole coroutines (src/state/context.c): each one's id and connection slot by its cid, and
	 * the slots in use */
	HashTable ctx_coros;
	HashTable co_slots;
	/* (src/state/context.c, Swoole) a Fiber's end being told (its releases may not yield), and
	 * Swoole found switching Fibers with another coroutine's Fiber for the current one */
	bool ctx_fiber_ending;
	bool ctx_fibers_broken;
	/* CSPRNG bytes not handed out yet, for tokens, drawn in process random_pid: not used in
	 * a forked child */
	unsigned char random_pool[256];
	uint32_t random_used;
	pid_t random_pid;
	rlock_counters counters;
	/* the acquire under way's statistics (src/stats/stats.h), NULL outside one; kept across a
	 * wait that yields the coroutine, as call_deadline */
	struct rlock_stats_mark *stats_call;
ZEND_END_MODULE_GLOBALS(rlock)

ZEND_EXTERN_MODULE_GLOBALS(rlock)
#define RLOCK_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(rlock, v)

/* This process' id: a connection or a hold of another pid is not ours (fork safety).
 * getpid(), cached (glibc does not) and refreshed in a forked child: one for the process, not
 * a global of each thread (ZTS), as the thread that forks may be one that never ran PHP. */
extern pid_t rlock_pid;
#define rlock_getpid() (rlock_pid)

/* The monotonic clock, in ms and in us (touch no Zend state: the watchdog's thread uses
 * them too). rlock_globals, rlock_pid and the clock are defined in src/core/globals.c, the
 * bottom layer: every file uses them. */
zend_long rlock_now_ms(void);
zend_long rlock_now_us(void);

#if defined(ZTS) && defined(COMPILE_DL_RLOCK)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

#endif /* PHP_RLOCK_H */
