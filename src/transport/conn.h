#ifndef RLOCK_CONN_H
#define RLOCK_CONN_H

#ifdef HAVE_CONFIG_H
# include "config.h"  /* RLOCK_HAVE_TLS */
#endif
#include <hiredis/hiredis.h>
#ifdef RLOCK_HAVE_TLS
# include <hiredis/hiredis_ssl.h>
# include <openssl/ssl.h>
#endif
#include "src/core/options.h"
#include "src/core/errors.h"

/* Replies are input. No reply of ours comes near these: the largest, CLUSTER SLOTS, has at
 * most 16384 slot ranges, a few elements each, and a few MB on the biggest cluster. A reply
 * that would outgrow one fails the call ("reply too large") before hiredis allocates for it:
 * a header of *268435456 would have it allocate 2 GB. */
#define RLOCK_REPLY_MAX_ELEMENTS 65536      /* in one array */
#define RLOCK_REPLY_MAX_OBJECTS (1 << 20)   /* in one reply, nested arrays included */
#define RLOCK_REPLY_MAX_BYTES (32 << 20)    /* of one reply: buffered, or in its strings */
#define RLOCK_REPLY_MAX_LINE (64 << 10)     /* a status, error, integer or length line */

/* What the reply being read has taken of the caps so far: one beside each context. */
typedef struct {
	size_t objects;
	size_t bytes;
} rlock_reply_budget;

/* Cap every reply read on ctx, counting in budget (which lives as long as ctx). Plain C,
 * as the watchdog's thread calls it too. */
void rlock_conn_guard(redisContext *ctx, rlock_reply_budget *budget);


/* Read what the socket has into ctx's reader (at once on a non-blocking ctx): false, ctx->err
 * set, on an error or when what is buffered of a reply outgrows the caps. For a caller that
 * polls the socket itself, then asks the reader for a reply. */
bool rlock_conn_read(redisContext *ctx);

/* redisBufferWrite(), with a TLS failure told in OpenSSL's words: plain C. */
bool rlock_conn_write(redisContext *ctx, int *done);

#ifdef RLOCK_HAVE_TLS
/* The TLS context of o's TLS options (cached for the process; the caller up-refs one it
 * keeps beyond the request): NULL with why set when a file would not load. */
SSL_CTX *rlock_tls_ctx(const rlock_opts *o, char *why, size_t why_size);

/* One step of the TLS handshake on ctx, a non-blocking context whose TCP connect is over:
 * the first call (*ssl NULL) begins it, sending name as SNI (unless an IP address) and,
 * with verify, checking the certificate names it; ctx owns *ssl from there on. 0: done;
 * POLLIN or POLLOUT: call again once the socket is ready for that; -1: failed, why says
 * why. Plain C: the watchdog's thread calls it too. */
int rlock_tls_handshake(redisContext *ctx, SSL_CTX *sctx, const char *name, bool verify, SSL **ssl, char *why,
	size_t why_size);
#endif

/* AUTH (when pass) and SELECT (when db != 0) appended to a fresh guarded ctx's output, not
 * sent: how many replies they will have (AUTH's first), or -1. The caller sends them and
 * reads the replies its own way (the watchdog's thread too: plain C). */
int rlock_conn_handshake_append(redisContext *ctx, const char *user, size_t user_len, const char *pass, size_t pass_len,
	long long db);

/* r, the reply to a command of the handshake (auth: AUTH's, else SELECT db's; NULL: none
 * came, ctx says why), freed: true when it is not an error (and, for AUTH, is +OK), else
 * false with what failed in why, in rlock's words: a hostile server could echo the password
 * in its own. */
bool rlock_conn_handshake_check(redisContext *ctx, redisReply *r, bool auth, long long db, const char *pass,
	size_t pass_len, char *why, size_t why_size);

/* Whether r, a reply to a command that is not AUTH, says the connection has not
 * authenticated and must (NOAUTH; a command too long for a client that has not: "ERR
 * Protocol error: unauthenticated ..."): then that failure in why (unless NULL), in rlock's
 * words, as rlock_conn_handshake_check() says AUTH's. Plain C. */
bool rlock_conn_unauthenticated(const redisReply *r, bool pass, char *why, size_t why_size);

/* One hiredis connection, owned by the process that opened it. */
typedef struct {
	redisContext *ctx;
	rlock_reply_budget budget;  /* of the reply being read on ctx */
	pid_t pid;             /* never written to, nor closed with QUIT, by another pid */
	bool busy;             /* a command was sent whose reply was not read: never reuse */
	bool blocked_before;   /* a call_block sent an EVAL through it: its server knows the scripts */
	int handshake;         /* replies of AUTH and SELECT not read yet (a new connection) */
	short want;            /* a connect under way: the poll() events it waits for */
	bool tcp_up;           /* the TCP connect is over (a TLS handshake may follow) */
	bool tls;              /* rediss:// (TLS or not, the socket is non-blocking) */
	bool answered;         /* a reply came on it (of the handshake, or to a command) */
	uint8_t spin_misses;   /* replies in a row not caught by the spin (conn.c: spun()) */
	uint16_t spin_skip;    /* replies still to wait for without a spin */
	uint64_t sent_us;      /* statistics: when the command under way was written (0: not timed) */
	void *stats;           /* statistics: the server's place in the table, once known */
#ifdef RLOCK_HAVE_TLS
	SSL *ssl;              /* the context's (redisFree frees it) */
#endif
} rlock_conn;

#define RLOCK_MAX_SERVERS 16
/* A lock over several keys (multi.c) passes 5 keys of each of its keys to a script. */
#define RLOCK_MAX_ARGS 56

/* One command: argv/lens point into memory the caller keeps alive. */
typedef struct {
	int argc;
	const char *argv[RLOCK_MAX_ARGS];
	size_t lens[RLOCK_MAX_ARGS];
} rlock_cmd;

/* A public call begins: every connect, read and write until the next one ends by its one
 * deadline, now + connect_timeout + read_timeout + wait_ms (saturating), each taking the
 * least of its own timeout and what is left. The deadline, in rlock_now_ms() time. */
zend_long rlock_conn_begin(const rlock_opts *o, zend_long wait_ms);

/* A public call made of others (a reentrant lock(): extend, then acquire; an acquire whose
 * watchdog failed: the release) begins: rlock_conn_begin as above, and the rlock_conn_begin
 * of the calls inside keep its deadline, until rlock_conn_leave. rlock_conn_reset forgets
 * every call begun (request start and end: a bailout may skip a leave). */
void rlock_conn_enter(const rlock_opts *o, zend_long wait_ms);
void rlock_conn_leave(void);
void rlock_conn_reset(void);

/* The ms left to the call's deadline, 0 once passed. */
zend_long rlock_conn_left(void);

/* A reply that means "not ready yet", to be waited out (retry_delay) within the call:
 * LOADING, BUSY, MASTERDOWN, TRYAGAIN. */
bool rlock_conn_not_ready(const redisReply *r);

/* Send one command to server s and read its reply, waiting up to read_timeout + block_ms.
 * The reply (error replies included) is the caller's to freeReplyObject(); NULL with err
 * set when the server could not be reached or did not answer in time, in which case the
 * connection is thrown away and the next call reconnects. */
redisReply *rlock_conn_call(const rlock_opts *o, const rlock_server *s, const rlock_cmd *cmd,
	zend_long block_ms, rlock_err *err);

/* How a blocked command is ended early: a push on what it waits for (the block's wake
 * commands), a PING when its own timeout has passed already (an idle server only looks at
 * timeouts on its 100 ms timer; any command makes it look), or closing the connection (the
 * command before it failed: the round is over). */
typedef enum { RLOCK_WAKE_PUSH, RLOCK_WAKE_PING, RLOCK_WAKE_CLOSE } rlock_wake_how;

/* When to stop waiting for the blocking command, decided from the reply of the command
 * sent before it: ms from now, or -1 to wait as long as the command itself does; *how, and
 * how to end it then (RLOCK_WAKE_PUSH unless set). */
typedef zend_long (*rlock_wake_fn)(redisReply *first, void *arg, rlock_wake_how *how);

/* A command that blocks on the server, and what goes with it. */
typedef struct {
	const rlock_cmd *first;      /* sent in the same write just before it, or NULL */
	/* first's first two arguments on a connection that never did this (NULL: none): the EVAL
	 * of an EVALSHA, as a NOSCRIPT there would leave blocking to block */
	const char *first_new[2];
	size_t first_new_lens[2];
	const rlock_cmd *blocking;   /* blocks up to block_ms on the server */
	zend_long block_ms;
	rlock_wake_fn wake_at;       /* NULL: wait as long as blocking does */
	void *arg;
	const rlock_cmd *wake;       /* RLOCK_WAKE_PUSH: these nwake commands, sent from a */
	int nwake;                   /* connection opened for that moment, end blocking */
} rlock_block;

/* Send b's first and blocking commands in one write and read both replies. 0 with *r1 (NULL
 * without first) and *r2 set, or *r2 NULL when blocking was ended by closing the connection
 * (a failed wake push, RLOCK_WAKE_CLOSE); -1 with err set and the connection thrown away
 * (*r1 set still when first's reply came). */
int rlock_conn_call_block(const rlock_opts *o, const rlock_server *s, const rlock_block *b,
	redisReply **r1, redisReply **r2, rlock_err *err);

/* cmds[i] to servers[i] (none where cmds[i] is NULL): the new connections among them
 * connected together within one connect_timeout (AUTH and SELECT sent with the command),
 * every command written before any reply is read, and every reply awaited together (poll)
 * within one read_timeout: N servers cost one round trip and one timeout. Reading stops
 * once `enough` replies answer (neither an error nor nil); the others are not awaited.
 * replies[i] NULL, with errs[i] set for a server that failed or was not awaited. */
void rlock_conn_fanout(const rlock_opts *o, uint32_t n, const rlock_server *servers, const rlock_cmd *const *cmds,
	uint32_t enough, redisReply **replies, rlock_err *errs);

/* Sleep about base_ms (jittered between half and all of it), never past max_ms. */
void rlock_sleep_jittered(zend_long base_ms, zend_long max_ms);
/* Sleep us microseconds (a Swoole coroutine's sleep yields). */
void rlock_sleep_us(zend_long us);

/* MINIT, from the contexts (src/state/context.c), which sit above: fn() is the running Swoole
 * coroutine's connection slot (rlock_context_coroutine_slot()), each coroutine its own
 * connections; called only with Swoole loaded. */
void rlock_conn_slot_by(uint32_t (*fn)(void));
/* MINIT, from the contexts: fn() is whether a wait of the running Swoole coroutine may yield
 * it (rlock_context_may_yield()); called only with Swoole loaded. */
void rlock_conn_yield_by(bool (*fn)(void));

/* Module and request life cycle. The request's own connections (persistent = false) are
 * closed at its very end, post_deactivate, as locks can be taken and released until then. */
void rlock_conn_minit(void);
void rlock_conn_ginit(HashTable *pool, HashTable *request_conns, HashTable *tls_ctxs);
void rlock_conn_gshutdown(HashTable *pool, HashTable *request_conns, HashTable *tls_ctxs);
void rlock_conn_post_deactivate(void);
uint32_t rlock_conn_pooled_count(void);

/* Whether r, a reply from s, is an error reply: then err is set from it and r freed. */
bool rlock_reply_error(const rlock_server *s, redisReply *r, rlock_err *err);
/* err set from r, an error reply from s, its text after what ("" or "COMMAND: "): a refusal
 * for want of a password (rlock_conn_unauthenticated()) an authentication failure
 * (RLOCK_ERR_AUTH), as AUTH's own are, any other a reply error (its text with s's password, should the server
 * echo it, shown as "***": rlock_err_quote). */
void rlock_reply_error_set(const rlock_server *s, const redisReply *r, const char *what, rlock_err *err);

#endif
