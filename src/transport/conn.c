/* hiredis connections: connect with timeouts, a persistent pool per process, pid ownership,
 * liveness checks before reuse, pipelined and parallel calls. The request's only door to
 * hiredis (the watchdog's thread keeps connections of its own, in src/state/watchdog.c). */

#include "php.h"
#include "php_rlock.h"
#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h"
#endif
#include "src/transport/conn.h"
#include "src/runtime/swoole.h"
#include "src/stats/stats.h"

#include <poll.h>
#include <sched.h>
#include <unistd.h>
#include <time.h>
#include <errno.h>
#include <limits.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#ifdef RLOCK_HAVE_TLS
# include <openssl/err.h>
# include <openssl/x509v3.h>
#endif

/* a + b for a, b >= 0, ZEND_LONG_MAX where that would overflow. */
static zend_long add_sat(zend_long a, zend_long b)
{
	return a > ZEND_LONG_MAX - b ? ZEND_LONG_MAX : a + b;
}

zend_long rlock_conn_begin(const rlock_opts *o, zend_long wait_ms)
{
	if (RLOCK_G(call_depth) > 0) {
		return RLOCK_G(call_deadline);  /* inside a call that has its deadline already */
	}
	zend_long span = add_sat(add_sat(MAX(o->connect_timeout, 0), MAX(o->read_timeout, 0)), MAX(wait_ms, 0));
	RLOCK_G(call_deadline) = add_sat(rlock_now_ms(), span);
	return RLOCK_G(call_deadline);
}

void rlock_conn_enter(const rlock_opts *o, zend_long wait_ms)
{
	rlock_conn_begin(o, wait_ms);
	RLOCK_G(call_depth)++;
}

void rlock_conn_leave(void)
{
	RLOCK_G(call_depth) = MAX(RLOCK_G(call_depth) - 1, 0);
}

void rlock_conn_reset(void)
{
	RLOCK_G(call_depth) = 0;
	RLOCK_G(stats_call) = NULL;  /* (a bailout skipped its end) */
}

zend_long rlock_conn_left(void)
{
	return RLOCK_G(call_deadline) == 0 ? ZEND_LONG_MAX : MAX(RLOCK_G(call_deadline) - rlock_now_ms(), 0);
}

/* own_ms, or less when the call's deadline comes first; at least 1. */
static zend_long bound(zend_long own_ms)
{
	return MAX(MIN(own_ms, rlock_conn_left()), 1);
}

/* When an exchange that may take own_ms (less when the call ends first) must be over. */
static zend_long deadline_of(zend_long own_ms)
{
	return add_sat(rlock_now_ms(), bound(own_ms));
}

bool rlock_conn_not_ready(const redisReply *r)
{
	static const char *const words[] = { "LOADING ", "BUSY ", "MASTERDOWN ", "TRYAGAIN " };
	for (size_t i = 0; r && r->type == REDIS_REPLY_ERROR && i < sizeof(words) / sizeof(words[0]); i++) {
		size_t n = strlen(words[i]);
		if (r->len >= n && strncmp(r->str, words[i], n) == 0) {
			return true;
		}
	}
	return false;
}

/* The call under way, kept across a wait that yields the running coroutine, and none under
 * way for the coroutines that run meanwhile: they begin calls of their own (a call begun
 * inside another keeps the outer one's deadline). */
typedef struct {
	zend_long deadline;
	int depth;
	rlock_stats_mark *stats;
} call_state;

/* Whether a wait of the running Swoole coroutine may yield it: the contexts' layer, above,
 * says (rlock_context_may_yield(), given at MINIT: rlock_conn_yield_by()). */
static bool (*may_yield)(void);

void rlock_conn_yield_by(bool (*fn)(void))
{
	may_yield = fn;
}

/* Whether the running coroutine's waits yield (swoole.h; not inside one of its Fibers:
 * src/state/context.h). */
static zend_always_inline bool waits_yield(void)
{
	return UNEXPECTED(rlock_swoole != NULL) && may_yield();
}

/* waits_yield(), and then *saved is the call's. */
static zend_always_inline bool yielding(call_state *saved)
{
	if (!waits_yield()) {
		return false;
	}
	saved->deadline = RLOCK_G(call_deadline);
	saved->depth = RLOCK_G(call_depth);
	saved->stats = RLOCK_G(stats_call);
	RLOCK_G(call_deadline) = 0;
	RLOCK_G(call_depth) = 0;
	RLOCK_G(stats_call) = NULL;
	return true;
}

static void resumed(const call_state *saved)
{
	RLOCK_G(call_deadline) = saved->deadline;
	RLOCK_G(call_depth) = saved->depth;
	RLOCK_G(stats_call) = saved->stats;
}

/* poll() through EINTR: what it returns. Inside a coroutine it yields while it waits. */
static int poll_for(struct pollfd *fds, nfds_t n, zend_long ms)
{
	call_state saved;
	int rc;
	if (yielding(&saved)) {
		rc = rlock_swoole_poll(fds, n, MAX(ms, 0));
		resumed(&saved);
		return rc;
	}
	do {
		rc = poll(fds, n, (int) MIN(MAX(ms, 0), INT_MAX));
	} while (rc < 0 && errno == EINTR);
	return rc;
}

/* Wait until ctx's socket is ready for events (POLLIN: a read, POLLOUT: a write) by deadline
 * (rlock_now_ms() time): every read and write of a reply is bounded by its exchange's
 * deadline, not by a socket timeout that each read would get afresh (a reply that comes a
 * byte at a time). false with ctx->err set when the deadline passed. A deadline passed
 * already (the process was stopped or starved) still looks once, without waiting: what has
 * arrived is taken, not reported as a timeout. */
static bool wait_io(redisContext *ctx, short events, zend_long deadline)
{
	struct pollfd p = { .fd = ctx->fd, .events = events };
	int rc = poll_for(&p, 1, MAX(deadline - rlock_now_ms(), 0));

	if (rc > 0) {
		return true;
	}
	ctx->err = REDIS_ERR_IO;
	if (rc == 0) {
		snprintf(ctx->errstr, sizeof(ctx->errstr), "%s timed out", events == POLLIN ? "read" : "write");
	} else {
		snprintf(ctx->errstr, sizeof(ctx->errstr), "%s", strerror(errno));
	}
	return false;
}

/* prefix, the decimal digits of n, then CRLF; the end. */
static char *put_header(char *p, char prefix, size_t n)
{
	char digits[24];
	int d = 0;
	*p++ = prefix;
	do {
		digits[d++] = (char) ('0' + n % 10);
		n /= 10;
	} while (n);
	while (d) {
		*p++ = digits[--d];
	}
	*p++ = '\r';
	*p++ = '\n';
	return p;
}

/* cmd in the Redis protocol, appended to the context's output buffer. hiredis' own
 * formatter (sdscatfmt per argument) was half the client's work per lock cycle. */
static int append_command(redisContext *ctx, const rlock_cmd *cmd)
{
	char stack[1024];
	size_t len = 16;
	for (int i = 0; i < cmd->argc; i++) {
		len += 1 + 20 + 2 + cmd->lens[i] + 2;
	}
	char *buf = len <= sizeof(stack) ? stack : emalloc(len);
	char *p = put_header(buf, '*', (size_t) cmd->argc);
	for (int i = 0; i < cmd->argc; i++) {
		p = put_header(p, '$', cmd->lens[i]);
		memcpy(p, cmd->argv[i], cmd->lens[i]);
		p += cmd->lens[i];
		*p++ = '\r';
		*p++ = '\n';
	}
	int rc = redisAppendFormattedCommand(ctx, buf, p - buf);
	if (buf != stack) {
		efree(buf);
	}
	return rc;
}

/* The cause of a hiredis context's error, in words. A read or a write that times out says
 * so itself (wait_io()): no socket has a timeout, and EAGAIN is no error to hiredis on a
 * non-blocking socket. Only a connect fails with it: Linux refuses one to a Unix socket at
 * once when the server's queue of connections to accept is full. */
static const char *cause(const redisContext *ctx)
{
	if (ctx->err == REDIS_ERR_IO && ctx->connection_type == REDIS_CONN_UNIX && strcmp(ctx->errstr, strerror(EAGAIN)) == 0) {
		return "Resource temporarily unavailable (the server's queue of connections to accept is full)";
	}
	if (ctx->err == REDIS_ERR_EOF) {
		return "server closed the connection";
	}
#if HIREDIS_MAJOR >= 1
	if (ctx->err == REDIS_ERR_PROTOCOL && strstr(ctx->errstr, "length out of range")) {
		return "reply too large";
	}
#endif
	if (ctx->err == REDIS_ERR_OOM) {
		/* our caps (hiredis 0.14 aborts the process when malloc fails) */
		return "reply too large";
	}
	return ctx->errstr;
}

/* ---- replies are input: the caps of conn.h ---- */

/* Whether one more object of len bytes fits the budget of the reply it belongs to; the
 * root of a reply starts a new count. */
static bool budget_take(const redisReadTask *task, size_t len)
{
	rlock_reply_budget *b = task->privdata;
	if (!task->parent) {
		b->objects = 0;
		b->bytes = 0;
	}
	b->objects++;
	b->bytes += len;
	return b->objects <= RLOCK_REPLY_MAX_OBJECTS && b->bytes <= RLOCK_REPLY_MAX_BYTES;
}

/* hiredis allocates whatever a header announces (1.x refuses an array past the reader's
 * maxelements, and caps no total): its reply-object functions, wrapped with the caps. A NULL
 * from one fails the read (hiredis says "out of memory"). */
static redisReplyObjectFunctions *hiredis_fn;

static void *guard_string(const redisReadTask *task, char *str, size_t len)
{
	return budget_take(task, len) ? hiredis_fn->createString(task, str, len) : NULL;
}

#if HIREDIS_MAJOR >= 1
static void *guard_array(const redisReadTask *task, size_t elements)
#else
static void *guard_array(const redisReadTask *task, int elements)
#endif
{
	return elements <= RLOCK_REPLY_MAX_ELEMENTS && budget_take(task, 0) ? hiredis_fn->createArray(task, elements) : NULL;
}

static void *guard_integer(const redisReadTask *task, long long value)
{
	return budget_take(task, 0) ? hiredis_fn->createInteger(task, value) : NULL;
}

static void *guard_nil(const redisReadTask *task)
{
	return budget_take(task, 0) ? hiredis_fn->createNil(task) : NULL;
}

#if HIREDIS_MAJOR >= 1
/* RESP3 types: a server speaking RESP2 sends none, but a reply is input */
static void *guard_double(const redisReadTask *task, double value, char *str, size_t len)
{
	return budget_take(task, len) ? hiredis_fn->createDouble(task, value, str, len) : NULL;
}

static void *guard_bool(const redisReadTask *task, int value)
{
	return budget_take(task, 0) ? hiredis_fn->createBool(task, value) : NULL;
}
#endif

static redisReplyObjectFunctions guarded_fn = {
	.createString = guard_string,
	.createArray = guard_array,
	.createInteger = guard_integer,
	.createNil = guard_nil,
#if HIREDIS_MAJOR >= 1
	.createDouble = guard_double,
	.createBool = guard_bool,
#endif
	.freeObject = freeReplyObject,
};

void rlock_conn_minit(void)
{
	/* hiredis' own functions are static in it: the table a reader starts with points at them */
	redisReader *r = redisReaderCreate();
	if (r) {
		hiredis_fn = r->fn;
		redisReaderFree(r);
	}
}

void rlock_conn_guard(redisContext *ctx, rlock_reply_budget *budget)
{
#if HIREDIS_MAJOR >= 1
	ctx->reader->maxelements = RLOCK_REPLY_MAX_ELEMENTS;
#endif
	if (hiredis_fn) {
		ctx->reader->fn = &guarded_fn;
		ctx->reader->privdata = budget;
	}
}

/* Fail ctx when what it has buffered of a reply outgrows any reply of ours: a bulk string
 * is buffered whole before hiredis makes anything of it, and a line that does not end is
 * searched for its end again at every read (quadratic). What is buffered past the reader's
 * position starts with the item it waits for. */
static bool buffer_fits(redisContext *ctx)
{
	const redisReader *r = ctx->reader;
	size_t pending = r->len - r->pos;
	if (pending <= RLOCK_REPLY_MAX_LINE || (pending <= RLOCK_REPLY_MAX_BYTES
			&& memchr(r->buf + r->pos, '\n', RLOCK_REPLY_MAX_LINE))) {
		return true;
	}
	ctx->err = REDIS_ERR_OOM;
	snprintf(ctx->errstr, sizeof(ctx->errstr), "reply too large");
	return false;
}

#ifdef RLOCK_HAVE_TLS
/* hiredis' privctx is its TLS state: a plain context has none */
# define IS_TLS(ctx) ((ctx)->privctx != NULL)
#else
# define IS_TLS(ctx) false
#endif

/* A TLS read or write of ctx failed: say why in OpenSSL's words, which hiredis leaves out
 * (its text is errno's, "Success" often). The thread's error queue is left empty. */
static void tls_io_failed(redisContext *ctx)
{
#ifdef RLOCK_HAVE_TLS
	unsigned long e = ERR_peek_last_error();
	if (IS_TLS(ctx) && e != 0 && (ctx->err == REDIS_ERR_IO || ctx->err == REDIS_ERR_EOF)) {
		/* an alert from the server (a client certificate it wants, say) reads as EOF */
		ctx->err = REDIS_ERR_IO;
		snprintf(ctx->errstr, sizeof(ctx->errstr), "TLS: %s", ERR_reason_error_string(e));
	}
	ERR_clear_error();
#else
	(void) ctx;
#endif
}

/* OpenSSL reads its error queue to tell a failure from a retry: empty it before each I/O */
static void tls_io_begin(redisContext *ctx)
{
#ifdef RLOCK_HAVE_TLS
	if (IS_TLS(ctx)) {
		ERR_clear_error();
	}
#else
	(void) ctx;
#endif
}

bool rlock_conn_read(redisContext *ctx)
{
	tls_io_begin(ctx);
	if (redisBufferRead(ctx) != REDIS_OK) {
		tls_io_failed(ctx);
		return false;
	}
	return buffer_fits(ctx);
}

bool rlock_conn_write(redisContext *ctx, int *done)
{
	tls_io_begin(ctx);
	if (redisBufferWrite(ctx, done) != REDIS_OK) {
		tls_io_failed(ctx);
		return false;
	}
	return true;
}

/* Write out what hiredis has buffered by deadline (it writes only when a reply is asked for,
 * and we may poll for one first). The first write goes at once (a command fits the socket's
 * buffer: no poll() per command), every one after a partial write waits for room until the
 * deadline. */
static bool flush(redisContext *ctx, zend_long deadline)
{
	int done = 0;
	if (!rlock_conn_write(ctx, &done)) {
		return false;
	}
	while (!done) {
		if (!wait_io(ctx, POLLOUT, deadline) || !rlock_conn_write(ctx, &done)) {
			return false;
		}
	}
	return true;
}

/* The short spin for a reply. A Redis nearby answers in tens of us, and a process that
 * sleeps in poll() for the answer pays its own sleep and wake-up on top: on a virtual machine
 * more than the round trip itself (100-200 us on the bench's, bench/README.md). A call that
 * expects its reply at once (not a blocking command's, which waits for another client) looks
 * for it without sleeping for up to spin_us (the option), giving the CPU to any other
 * runnable process between two looks, and sleeps only then. A connection whose replies stop
 * coming within that time (a distant server, a busy one, a loaded machine) spins less: after
 * m misses in a row only one reply in 2^m (at most 1024) is spun for, until one is caught
 * again. Never in a Swoole coroutine, whose waits yield to its reactor instead, nor past
 * deadline (rlock_now_ms() time), as the sleep it stands for would not be. true: the socket
 * is ready (or in error: the read that follows says). */
static bool spun(rlock_conn *c, zend_long spin_us, zend_long deadline)
{
#ifndef PHP_WIN32
	if (spin_us <= 0 || waits_yield()) {
		return false;
	}
	if (c->spin_skip > 0) {
		c->spin_skip--;
		return false;
	}
	struct pollfd p = { .fd = c->ctx->fd, .events = POLLIN };
	uint64_t until = rlock_now_us() + (uint64_t) spin_us;
	if (deadline < ZEND_LONG_MAX / 1000) {
		until = MIN(until, (uint64_t) MAX(deadline, 0) * 1000);
	}
	do {
		if (poll(&p, 1, 0) > 0) {
			c->spin_misses = 0;
			return true;
		}
		sched_yield();
	} while (rlock_now_us() < until);
	c->spin_misses = (uint8_t) MIN(c->spin_misses + 1, 10);
	c->spin_skip = (uint16_t) ((1u << c->spin_misses) - 1);
#else
	(void) c; (void) spin_us; (void) deadline;
#endif
	return false;
}

/* redisGetReply() on a guarded ctx: writes what is buffered, then reads until a
 * reply has come, failing one that grows past the caps while it is buffered, or that has not
 * come by deadline (rlock_now_ms() time; each read and write polls for the time left). */
static int ctx_get_reply(redisContext *ctx, zend_long deadline, void **reply, rlock_conn *spin, zend_long spin_us)
{
	void *r = NULL;
	if (redisGetReplyFromReader(ctx, &r) != REDIS_OK) {
		return REDIS_ERR;
	}
	if (!r && !flush(ctx, deadline)) {
		return REDIS_ERR;
	}
	while (!r) {
		if ((!(spin && spun(spin, spin_us, deadline)) && !wait_io(ctx, POLLIN, deadline)) || !rlock_conn_read(ctx)
				|| redisGetReplyFromReader(ctx, &r) != REDIS_OK) {
			return REDIS_ERR;
		}
		spin = NULL;  /* (the rest of a reply that came in parts: the sleeping way) */
	}
	*reply = r;
	return REDIS_OK;
}

/* What an AUTH refusal means, in rlock's words (Redis' own name neither the password nor the
 * user, but a hostile server's may). */
static const char *auth_refusal(const redisReply *r)
{
	if (r->type != REDIS_REPLY_ERROR) {
		return "unexpected reply";
	}
	if (r->len >= 9 && memcmp(r->str, "WRONGPASS", 9) == 0) {
		return "WRONGPASS (wrong user name or password, or the user is disabled)";
	}
	if (zend_memnstr(r->str, "no password is set", 18, r->str + r->len)
			|| zend_memnstr(r->str, "without any password configured", 31, r->str + r->len)) {
		return "the server has no password set";
	}
	return "the server refused the credentials";
}

bool rlock_conn_unauthenticated(const redisReply *r, bool pass, char *why, size_t why_size)
{
	static const char unauthenticated[] = "ERR Protocol error: unauthenticated";
	size_t n = sizeof(unauthenticated) - 1;
	if (!r || r->type != REDIS_REPLY_ERROR || !((r->len >= 6 && memcmp(r->str, "NOAUTH", 6) == 0)
			|| (r->len >= n && memcmp(r->str, unauthenticated, n) == 0))) {
		return false;
	}
	if (why) {
		snprintf(why, why_size, "authentication failed: the server wants a password%s",
			pass ? " (NOAUTH)" : ", and the DSN gives none (redis://user:password@host)");
	}
	return true;
}

bool rlock_conn_handshake_check(redisContext *ctx, redisReply *r, bool auth, long long db, const char *pass,
	size_t pass_len, char *why, size_t why_size)
{
	char what[32], text[201];
	bool ok;

	snprintf(what, sizeof(what), auth ? "AUTH" : "SELECT %lld", db);
	if (!r) {
		snprintf(why, why_size, "%s failed: %s", what, cause(ctx));
		return false;
	}
	ok = auth ? r->type == REDIS_REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0
		: r->type != REDIS_REPLY_ERROR;
	if (!ok && auth) {
		snprintf(why, why_size, "authentication failed: %s", auth_refusal(r));
	} else if (!ok && !rlock_conn_unauthenticated(r, pass != NULL, why, why_size)) {
		snprintf(why, why_size, "%s failed: %s", what, rlock_err_quote(text, sizeof(text), r->str, r->len, pass, pass_len));
	}
	freeReplyObject(r);
	return ok;
}

int rlock_conn_handshake_append(redisContext *ctx, const char *user, size_t user_len, const char *pass, size_t pass_len,
	long long db)
{
	int n = 0;
	if (pass) {
		const char *argv[3] = { "AUTH", user, pass };
		size_t lens[3] = { 4, user_len, pass_len };
		if (!user) {
			argv[1] = pass;
			lens[1] = pass_len;
		}
		if (redisAppendCommandArgv(ctx, user ? 3 : 2, argv, lens) != REDIS_OK) {
			return -1;
		}
		n++;
	}
	if (db != 0) {
		if (redisAppendCommand(ctx, "SELECT %lld", db) != REDIS_OK) {
			return -1;
		}
		n++;
	}
	return n;
}

static void conn_free(rlock_conn *c)
{
	/* redisFree closes the socket without a word to the server: safe in a forked child.
	 * Not one Swoole keeps (swoole.h): Swoole closes it (hiredis' REDIS_INVALID_FD, -1). */
	if (c->ctx) {
		if (UNEXPECTED(rlock_swoole != NULL) && !rlock_swoole_fd_closable(c->ctx->fd)) {
			c->ctx->fd = -1;
		}
		redisFree(c->ctx);
	}
	pefree(c, 1);
}

static void conn_dtor(zval *zv)
{
	conn_free(Z_PTR_P(zv));
}

static HashTable *table_for(const rlock_opts *o)
{
	return o->persistent ? &RLOCK_G(pool) : &RLOCK_G(request_conns);
}

/* r, the reply to the next AUTH or SELECT of c's handshake (NULL: none came), freed; false
 * with err set when it failed. */
static bool handshake_reply(rlock_conn *c, const rlock_server *s, redisReply *r, rlock_err *err)
{
	char why[256];
	bool auth = s->pass && c->handshake == (s->db != 0 ? 2 : 1);
	bool refused = r && r->type == REDIS_REPLY_ERROR && (auth || rlock_conn_unauthenticated(r, false, NULL, 0));

	c->handshake--;
	c->answered |= r != NULL;
	if (!rlock_conn_handshake_check(c->ctx, r, auth, (long long) s->db, s->pass ? ZSTR_VAL(s->pass) : NULL,
			s->pass ? ZSTR_LEN(s->pass) : 0, why, sizeof(why))) {
		rlock_err_set(err, refused ? RLOCK_ERR_AUTH : RLOCK_ERR_CONNECTION, s->label, "%s", why);
		return false;
	}
	return true;
}

/* The replies of c's handshake, read by deadline: false with err set when one failed. */
static bool finish_handshake(rlock_conn *c, const rlock_server *s, zend_long deadline, rlock_err *err)
{
	while (c->handshake > 0) {
		void *r = NULL;
		if (ctx_get_reply(c->ctx, deadline, &r, NULL, 0) != REDIS_OK) {
			r = NULL;
		}
		if (!handshake_reply(c, s, r, err)) {
			return false;
		}
	}
	return true;
}

/* The host to hand hiredis for s: a name resolved by a coroutine through Swoole into addr,
 * yielding (hiredis' getaddrinfo() would block the worker), else s's host as it is. */
static const char *connect_host(const rlock_server *s, char *addr, size_t size)
{
	call_state saved;
	unsigned char bin[sizeof(struct in6_addr)];
	const char *host = ZSTR_VAL(s->host), *resolved;
	if (inet_pton(AF_INET, host, bin) == 1 || inet_pton(AF_INET6, host, bin) == 1 || !yielding(&saved)) {
		return host;
	}
	resolved = rlock_swoole_resolve(host, addr, size);
	resumed(&saved);
	return resolved ? resolved : host;
}

/* A connect to s begun, not awaited (await_connects): NULL with err set when it failed at
 * once. Busy until a command's reply has been read from it. */
static rlock_conn *conn_start(const rlock_server *s, rlock_err *err)
{
	char addr[INET6_ADDRSTRLEN];
	redisContext *ctx = s->port
		? redisConnectNonBlock(connect_host(s, addr, sizeof(addr)), s->port)
		: redisConnectUnixNonBlock(ZSTR_VAL(s->host));

	if (!ctx || ctx->err) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "cannot connect: %s",
			ctx ? cause(ctx) : "out of memory");
		if (ctx) {
			redisFree(ctx);
		}
		return NULL;
	}
	rlock_conn *c = pecalloc(1, sizeof(*c), 1);
	c->ctx = ctx;
	c->pid = rlock_getpid();
	c->busy = true;
	c->want = POLLOUT;  /* writable once the connect is over */
	c->tls = s->tls;
	rlock_conn_guard(ctx, &c->budget);
	return c;
}

#ifdef RLOCK_HAVE_TLS
/* SSL_CTX_free, for the table of contexts */
static void tls_ctx_dtor(zval *zv)
{
	SSL_CTX_free(Z_PTR_P(zv));
}

/* What OpenSSL's error queue (the thread's) says last, and the queue emptied. */
static const char *tls_reason(void)
{
	unsigned long e = ERR_peek_last_error();
	const char *r = e ? ERR_reason_error_string(e) : NULL;
	ERR_clear_error();
	return r ? r : "unknown error";
}

/* A new TLS client context for o's options: NULL with why set. */
static SSL_CTX *tls_ctx_new(const rlock_opts *o, char *why, size_t why_size)
{
	SSL_CTX *c = SSL_CTX_new(TLS_client_method());
	const char *what = "cannot create a TLS context";

	ERR_clear_error();
	if (!c || !SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION)) {
		goto fail;
	}
	SSL_CTX_set_mode(c, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
	SSL_CTX_set_verify(c, o->tls_verify_peer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, NULL);
	if (o->tls_verify_peer) {
		what = o->tls_ca ? "cannot load tls_ca" : "cannot load the system's CA certificates";
		if (!(o->tls_ca ? SSL_CTX_load_verify_locations(c, ZSTR_VAL(o->tls_ca), NULL) : SSL_CTX_set_default_verify_paths(c))) {
			goto fail;
		}
	}
	if (o->tls_cert) {
		what = "cannot load tls_cert";
		if (!SSL_CTX_use_certificate_chain_file(c, ZSTR_VAL(o->tls_cert))) {
			goto fail;
		}
		what = "cannot load tls_key";  /* the key's text is never shown: OpenSSL's reason only */
		if (!SSL_CTX_use_PrivateKey_file(c, ZSTR_VAL(o->tls_key), SSL_FILETYPE_PEM) || !SSL_CTX_check_private_key(c)) {
			goto fail;
		}
	}
	return c;

fail:
	snprintf(why, why_size, "%s: %s", what, tls_reason());
	if (c) {
		SSL_CTX_free(c);
	}
	return NULL;
}

SSL_CTX *rlock_tls_ctx(const rlock_opts *o, char *why, size_t why_size)
{
	smart_str key = {0};
	SSL_CTX *c;

	/* the name is checked per connection, not by the context */
	rlock_opts_tls_id(o, false, &key);
	smart_str_0(&key);
	if (!(c = zend_hash_find_ptr(&RLOCK_G(tls_ctxs), key.s)) && (c = tls_ctx_new(o, why, why_size))) {
		zend_hash_str_update_ptr(&RLOCK_G(tls_ctxs), ZSTR_VAL(key.s), ZSTR_LEN(key.s), c);
	}
	smart_str_free(&key);
	return c;
}

/* Why the handshake of ssl failed (rc, SSL_connect's), in words. */
static void tls_failure(SSL *ssl, int rc, char *why, size_t why_size)
{
	/* without tls_verify_peer a certificate that does not verify is no reason to fail */
	long v = SSL_get_verify_mode(ssl) & SSL_VERIFY_PEER ? SSL_get_verify_result(ssl) : X509_V_OK;
	int e = SSL_get_error(ssl, rc);

	if (v != X509_V_OK) {
		snprintf(why, why_size, "TLS handshake failed: certificate verify failed (%s)", X509_verify_cert_error_string(v));
	} else if (ERR_peek_last_error() != 0) {
		snprintf(why, why_size, "TLS handshake failed: %s", tls_reason());
	} else if (e == SSL_ERROR_SYSCALL && errno != 0) {
		snprintf(why, why_size, "TLS handshake failed: %s", strerror(errno));
	} else {
		snprintf(why, why_size, "TLS handshake failed: the server closed the connection");
	}
	ERR_clear_error();
}

int rlock_tls_handshake(redisContext *ctx, SSL_CTX *sctx, const char *name, bool verify, SSL **ssl, char *why,
	size_t why_size)
{
	unsigned char addr[sizeof(struct in6_addr)];
	int rc;

	ERR_clear_error();
	if (!*ssl) {
		bool ip = inet_pton(AF_INET, name, addr) == 1 || inet_pton(AF_INET6, name, addr) == 1;
		SSL *s = SSL_new(sctx);
		if (!s || (!ip && !SSL_set_tlsext_host_name(s, name))
				|| (verify && !(ip ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(s), name) : SSL_set1_host(s, name)))) {
			snprintf(why, why_size, "TLS setup failed: %s", tls_reason());
			SSL_free(s);
			return -1;
		}
		/* on a non-blocking context hiredis begins the handshake and leaves the rest to us */
		if (redisInitiateSSL(ctx, s) != REDIS_OK) {
			tls_failure(s, -1, why, why_size);
			SSL_free(s);
			return -1;
		}
		*ssl = s;
	}
	rc = SSL_connect(*ssl);
	if (rc == 1) {
		return 0;
	}
	switch (SSL_get_error(*ssl, rc)) {
		case SSL_ERROR_WANT_READ:
			return POLLIN;
		case SSL_ERROR_WANT_WRITE:
			return POLLOUT;
	}
	tls_failure(*ssl, rc, why, why_size);
	return -1;
}
#endif

/* The next step of c's connect to s, its socket ready for c->want: the TCP connect's
 * outcome, then (rediss://) the TLS handshake's. 0: connected, with AUTH and SELECT appended
 * for s (the socket stays non-blocking, TLS or not: every read and write polls against its
 * deadline, and no socket timeout is ever set); > 0: poll() for those events and step
 * again; -1: failed, err set. */
static int conn_step(const rlock_opts *o, rlock_conn *c, const rlock_server *s, rlock_err *err)
{
	int fd = c->ctx->fd, so_err = 0;
	socklen_t len = sizeof(so_err);

	if (!c->tcp_up) {
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_err, &len) < 0) {
			so_err = errno;
		}
		if (so_err != 0) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "cannot connect: %s", strerror(so_err));
			return -1;
		}
		c->tcp_up = true;
	}
	if (c->tls) {
#ifdef RLOCK_HAVE_TLS
		char why[256];
		SSL_CTX *sctx = c->ssl ? NULL : rlock_tls_ctx(o, why, sizeof(why));
		if (!c->ssl && !sctx) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "%s", why);
			return -1;
		}
		int next = rlock_tls_handshake(c->ctx, sctx, ZSTR_VAL(o->tls_server_name ? o->tls_server_name : s->host),
			o->tls_verify_peer, &c->ssl, why, sizeof(why));
		if (next != 0) {
			if (next < 0) {
				rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "%s", why);
			}
			return next;
		}
		c->ctx->flags |= REDIS_CONNECTED;
#else
		/* options.c refuses rediss:// without TLS: never plain text to it */
		(void) o;
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "this build of rlock has no TLS");
		return -1;
#endif
	} else {
		c->ctx->flags |= REDIS_CONNECTED;
	}
	if ((c->handshake = rlock_conn_handshake_append(c->ctx, s->user ? ZSTR_VAL(s->user) : NULL, s->user ? ZSTR_LEN(s->user) : 0,
			s->pass ? ZSTR_VAL(s->pass) : NULL, s->pass ? ZSTR_LEN(s->pass) : 0, (long long) s->db)) < 0) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "out of memory");
		return -1;
	}
	return 0;
}

/* The connects begun in conns[i] (NULL: none) to servers[i], all awaited together within
 * one connect_timeout, TLS handshakes included: each one connected (conn_step), or freed and
 * NULL with errs[i] set. */
static void await_connects(const rlock_opts *o, uint32_t n, rlock_conn **conns, const rlock_server *servers,
	rlock_err *errs)
{
	struct pollfd fds[RLOCK_MAX_SERVERS];
	bool waiting[RLOCK_MAX_SERVERS];
	zend_long deadline = deadline_of(o->connect_timeout);
	uint32_t pending = 0;

	for (uint32_t i = 0; i < n; i++) {
		waiting[i] = conns[i] != NULL;
		pending += waiting[i];
	}
	while (pending > 0) {
		nfds_t nfds = 0;
		for (uint32_t i = 0; i < n; i++) {
			if (waiting[i]) {
				fds[nfds].fd = conns[i]->ctx->fd;
				fds[nfds].events = conns[i]->want;
				fds[nfds++].revents = 0;
			}
		}
		zend_long left = deadline - rlock_now_ms();
		if (left <= 0 || poll_for(fds, nfds, left) < 0) {
			break;
		}
		for (uint32_t i = 0, f = 0; i < n; i++) {
			if (!waiting[i] || fds[f++].revents == 0) {
				continue;
			}
			int next = conn_step(o, conns[i], &servers[i], &errs[i]);
			if (next > 0) {
				conns[i]->want = (short) next;
				continue;
			}
			waiting[i] = false;
			pending--;
			if (next < 0) {
				conn_free(conns[i]);
				conns[i] = NULL;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (waiting[i]) {
			rlock_err_set(&errs[i], RLOCK_ERR_CONNECTION, servers[i].label, "%s: %s",
				conns[i]->tcp_up ? "TLS handshake failed" : "cannot connect", strerror(ETIMEDOUT));
			conn_free(conns[i]);
			conns[i] = NULL;
		}
	}
}

/* A new connection to s, connected within connect_timeout (its handshake appended, not
 * read), not in any table; NULL with err set. */
static rlock_conn *conn_open(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	rlock_conn *c = conn_start(s, err);
	if (c) {
		await_connects(o, 1, &c, s, err);
	}
	return c;
}

/* ---- statistics (src/stats/stats.h) ---- */

/* Statistics: the round trip of one command in RTT_SAMPLE is timed (every command counted),
 * from a clock reading as it is written to the reply: the cost of the statistics stays a
 * few instructions per command and a clock reading per RTT_SAMPLE. No reading is cached
 * for it: the watchdog's thread reads the clock too (in NTS a ZEND_TLS is one variable). */
#define RTT_SAMPLE 4
#define SENT_UNTIMED 1  /* c->sent_us: a command counted, not timed (a time is never 1 us) */
ZEND_TLS uint32_t rtt_tick;

/* c carries a command from now on. */
static void conn_sent(rlock_conn *c)
{
	c->busy = true;
	c->sent_us = !rlock_stats_enabled() ? 0 : ++rtt_tick % RTT_SAMPLE
		? SENT_UNTIMED : (uint64_t) rlock_now_us();
}

/* c's command answered: counted, and its round trip when timed. */
static void conn_timed(const rlock_server *s, rlock_conn *c)
{
	if (c->sent_us) {
		rlock_stats_command(&c->stats, s->label, c->sent_us == SENT_UNTIMED ? 0 : (uint64_t) rlock_now_us() - c->sent_us,
			c->sent_us != SENT_UNTIMED);
		c->sent_us = 0;
	}
}

/* A call to s failed with err. */
static void stats_failed(const rlock_server *s, const rlock_err *err)
{
	if (strstr(err->msg, "not awaited")) {
		return;  /* a Redlock master slower than the quorum: no failure */
	}
	rlock_stats_server_error(s->label, err->kind == RLOCK_ERR_AUTH ? RLOCK_STAT_ERR_AUTH
		: err->kind == RLOCK_ERR_REPLY ? RLOCK_STAT_ERR_REPLY
		: strstr(err->msg, "timed out") || strstr(err->msg, "timeout") ? RLOCK_STAT_ERR_TIMEOUT : RLOCK_STAT_ERR_CONNECTION);
}

/* Whether a connection from the table may carry the next command: ours, idle, and with
 * nothing to read, neither in hiredis' reader (bytes that came in the same read as the last
 * reply: the next command would take them for its answer) nor on the socket (EOF, a server
 * restarted or a CLIENT KILL, or a stale reply): else it is thrown away, not used. The
 * reader's buf, pos and len are the same in hiredis 0.14 and 1.x. */
static bool conn_usable(rlock_conn *c)
{
	struct pollfd p = { .fd = c->ctx->fd, .events = POLLIN };
	return c->pid == rlock_getpid() && !c->busy && !c->ctx->err && c->ctx->reader->pos == c->ctx->reader->len
		&& poll(&p, 1, 0) == 0;
}

/* The running context's connection slot: 0, but a Swoole coroutine's own n > 0, given back
 * at its end, so that two coroutines never interleave commands on one connection, and the
 * next coroutines reuse the connections of those that ended. The contexts' layer, above,
 * says which (rlock_conn_slot_by(), at MINIT). */
static uint32_t (*coroutine_slot)(void);

void rlock_conn_slot_by(uint32_t (*fn)(void))
{
	coroutine_slot = fn;
}

static zend_always_inline uint32_t context_slot(void)
{
	return UNEXPECTED(rlock_swoole != NULL) ? coroutine_slot() : 0;
}

/* The key of the running context's connection to s in its table: s's id, and beside it a
 * Swoole coroutine's slot (context_slot()): each coroutine its own connection. The caller
 * releases it. */
static zend_string *conn_key(const rlock_server *s)
{
	uint32_t slot = context_slot();
	if (slot == 0) {
		return zend_string_copy(s->id);
	}
	/* (an id is binary: its bytes, a NUL, then the slot's) */
	zend_string *key = zend_string_alloc(ZSTR_LEN(s->id) + 1 + sizeof(slot), 0);
	memcpy(ZSTR_VAL(key), ZSTR_VAL(s->id), ZSTR_LEN(s->id));
	ZSTR_VAL(key)[ZSTR_LEN(s->id)] = '\0';
	memcpy(ZSTR_VAL(key) + ZSTR_LEN(s->id) + 1, &slot, sizeof(slot));
	ZSTR_VAL(key)[ZSTR_LEN(key)] = '\0';
	return key;
}

/* The running context's connection to s in its table, or NULL. */
static rlock_conn *conn_find(const rlock_opts *o, const rlock_server *s)
{
	if (EXPECTED(context_slot() == 0)) {
		return zend_hash_find_ptr(table_for(o), s->id);
	}
	zend_string *key = conn_key(s);
	rlock_conn *c = zend_hash_str_find_ptr(table_for(o), ZSTR_VAL(key), ZSTR_LEN(key));
	zend_string_release(key);
	return c;
}

/* The connection to s out of the table, and closed: the next call reconnects. */
static void conn_forget(const rlock_opts *o, const rlock_server *s)
{
	zend_string *key = conn_key(s);
	zend_hash_str_del(table_for(o), ZSTR_VAL(key), ZSTR_LEN(key));
	zend_string_release(key);
}

/* The connection to s from the table when it may be used, else NULL (and none there). */
static rlock_conn *conn_take(const rlock_opts *o, const rlock_server *s)
{
	rlock_conn *c = conn_find(o, s);
	if (c && !conn_usable(c)) {
		if (c->pid == rlock_getpid()) {
			rlock_stats_reconnect(s->label);  /* (a forked child's first connection is none) */
		}
		conn_forget(o, s);
		c = NULL;
	}
	return c;
}

/* c, a new connection to s, into the table (a persistent table takes a persistent copy of
 * the key). */
static void conn_keep(const rlock_opts *o, const rlock_server *s, rlock_conn *c)
{
	zend_string *key = conn_key(s);
	zend_hash_str_update_ptr(table_for(o), ZSTR_VAL(key), ZSTR_LEN(key), c);
	zend_string_release(key);
}

/* The connection to s from the table, checked, or a new one. */
static rlock_conn *conn_get(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	rlock_conn *c = conn_take(o, s);
	if (!c && (c = conn_open(o, s, err))) {
		conn_keep(o, s, c);
	} else if (!c) {
		stats_failed(s, err);
	}
	return c;
}

/* The reply to the command written after c's handshake, read by deadline: the handshake's
 * replies first. false with err set (the connection is the caller's to drop). */
static bool get_reply(rlock_conn *c, const rlock_server *s, zend_long deadline, zend_long spin_us, redisReply **r,
	rlock_err *err)
{
	*r = NULL;
	if (!finish_handshake(c, s, deadline, err) || ctx_get_reply(c->ctx, deadline, (void **) r, c, spin_us) != REDIS_OK) {
		return false;
	}
	c->answered = true;
	return true;
}

/* Whether the server ended plain-text connection c before any reply came on it: closed it,
 * reset it, or sent what is no reply. */
static bool closed_early(const rlock_conn *c)
{
	const redisContext *ctx = c->ctx;
	return !c->answered && !c->tls && (ctx->err == REDIS_ERR_EOF || ctx->err == REDIS_ERR_PROTOCOL
		|| (ctx->err == REDIS_ERR_IO && strcmp(ctx->errstr, strerror(ECONNRESET)) == 0));
}

/* What the server did to c when it is what a TLS port does with plain text: closed or reset
 * it before any reply, or sent a TLS record (an alert: hiredis takes its first byte, 0x15,
 * or 0x16 for a handshake, for a reply type it does not know). NULL: not that. */
static const char *tls_like(const rlock_conn *c)
{
	const redisContext *ctx = c->ctx;
	if (!closed_early(c)) {
		return NULL;
	}
	if (ctx->err == REDIS_ERR_PROTOCOL) {
		return strstr(ctx->errstr, "\"\\x15\"") || strstr(ctx->errstr, "\"\\x16\"") ? "answered with a TLS record" : NULL;
	}
	return "closed the connection before any reply";  /* or reset it, which is timing */
}

/* A plain-text connection to s ended before any reply (closed_early()): why, asked with a
 * PING on a connection opened for it, into err. A server that wants a password closes a
 * client without one whose first command is long (the error it sent first may be lost to
 * the reset): the PING gets NOAUTH. A TLS port closes on plain text, or answers with a TLS
 * alert: the PING fares no better. */
static void closed_why(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	static const rlock_cmd ping = { .argc = 1, .argv = { "PING" }, .lens = { 4 } };
	rlock_err ignored = {0};
	rlock_conn *c;
	redisReply *r = NULL;
	const char *what;
	char why[256];

	/* a connect after a failure, as any: no sooner than retry_delay allows */
	rlock_sleep_jittered(o->retry_delay, rlock_conn_left());
	if (!(c = conn_open(o, s, &ignored))) {
		return;
	}
	if (append_command(c->ctx, &ping) == REDIS_OK && get_reply(c, s, deadline_of(o->read_timeout), 0, &r, &ignored)) {
		if (rlock_conn_unauthenticated(r, s->pass != NULL, why, sizeof(why))) {
			rlock_err_set(err, RLOCK_ERR_AUTH, s->label, "%s", why);
		}
		freeReplyObject(r);
	} else if (s->port && (what = tls_like(c))) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "server %s: it may want TLS (rediss://)", what);
	}
	conn_free(c);
}

/* After an I/O error or a timeout the reply may still come: never read it, reconnect. */
static void conn_drop(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	rlock_conn *c = conn_find(o, s);
	bool early = c && closed_early(c);
	if (c && err->kind == RLOCK_ERR_NONE) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "%s", cause(c->ctx));
	}
	conn_forget(o, s);
	if (early) {
		closed_why(o, s, err);
	}
	stats_failed(s, err);
}

/* c's exchange with s is over, r its last reply: c may carry the next command, unless r is
 * an error after which the server closes the connection ("ERR Protocol error: ...", a
 * command too long for a client that has not authenticated, say). */
static void conn_done(const rlock_opts *o, const rlock_server *s, rlock_conn *c, const redisReply *r)
{
	static const char closing[] = "ERR Protocol error";
	c->busy = false;
	conn_timed(s, c);
	if (r && r->type == REDIS_REPLY_ERROR && !(r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0)) {
		/* (a script to load again is no failure) */
		rlock_stats_server_error(s->label, RLOCK_STAT_ERR_REPLY);
	}
	if (r && r->type == REDIS_REPLY_ERROR && r->len >= sizeof(closing) - 1 && memcmp(r->str, closing, sizeof(closing) - 1) == 0) {
		conn_forget(o, s);
	}
}

redisReply *rlock_conn_call(const rlock_opts *o, const rlock_server *s, const rlock_cmd *cmd,
	zend_long block_ms, rlock_err *err)
{
	rlock_conn *c = conn_get(o, s, err);
	redisReply *r = NULL;

	if (!c) {
		return NULL;
	}
	zend_long deadline = deadline_of(add_sat(o->read_timeout, block_ms));
	conn_sent(c);
	/* no spin for a command that blocks (WAIT): its reply waits for others, and its misses,
	 * between the hits of the acquire before it, would never start the back-off */
	if (append_command(c->ctx, cmd) != REDIS_OK || !get_reply(c, s, deadline, block_ms > 0 ? 0 : o->spin_us, &r, err)) {
		conn_drop(o, s, err);
		return NULL;
	}
	conn_done(o, s, c, r);
	return r;
}

/* The next reply: from what hiredis has buffered already, else from the socket within
 * wait_ms (-1: as long as it may take, until deadline). 1 read, 0 not within wait_ms, -1 I/O
 * error or the deadline passed. */
static int read_reply(rlock_conn *c, zend_long deadline, zend_long wait_ms, zend_long spin_us, redisReply **r)
{
	void *reply = NULL;
	if (redisGetReplyFromReader(c->ctx, &reply) != REDIS_OK) {
		return -1;
	}
	if (!reply && wait_ms >= 0) {
		struct pollfd p = { .fd = c->ctx->fd, .events = POLLIN };
		int rc = poll_for(&p, 1, MIN(wait_ms, MAX(deadline - rlock_now_ms(), 0)));
		if (rc == 0) {
			return 0;
		}
		/* ready: read what came at once, not after a second wait (one that yields a
		 * coroutine resumes it only at the reactor's next round, behind every other) */
		if (rc > 0 && (!rlock_conn_read(c->ctx) || redisGetReplyFromReader(c->ctx, &reply) != REDIS_OK)) {
			return -1;
		}
	}
	if (!reply && ctx_get_reply(c->ctx, deadline, &reply, c, spin_us) != REDIS_OK) {
		return -1;
	}
	*r = reply;
	c->answered = true;
	return 1;
}

/* Send the n commands from a connection of their own, opened for this and closed (a pooled
 * one would double every process's connections for what ends only some waits). Whether all
 * of them were answered without an error. */
static bool side_call(const rlock_opts *o, const rlock_server *s, const rlock_cmd *cmds, int n)
{
	rlock_err ignored = {0};
	rlock_conn *side = conn_open(o, s, &ignored);
	redisReply *r;
	int ok = 0;
	if (!side) {
		return false;
	}
	zend_long deadline = deadline_of(o->read_timeout);
	for (int i = 0; i < n; i++) {
		append_command(side->ctx, &cmds[i]);
	}
	for (int i = 0; i < n && get_reply(side, s, deadline, 0, &r, &ignored); i++) {
		ok += r->type != REDIS_REPLY_ERROR;
		freeReplyObject(r);
	}
	conn_free(side);
	return ok == n;
}

int rlock_conn_call_block(const rlock_opts *o, const rlock_server *s, const rlock_block *b,
	redisReply **r1, redisReply **r2, rlock_err *err)
{
	static const rlock_cmd ping = { .argc = 1, .argv = { "PING" }, .lens = { 4 } };
	rlock_conn *c = conn_get(o, s, err);
	const rlock_cmd *first = b->first;
	rlock_cmd first_new;
	zend_long own = add_sat(o->read_timeout, b->block_ms), deadline = deadline_of(own);
	*r1 = *r2 = NULL;

	if (!c) {
		return -1;
	}
	if (first && b->first_new[0] && !c->blocked_before) {
		/* (first copied only as far as its arguments go) */
		first_new.argc = first->argc;
		memcpy(first_new.argv, first->argv, first->argc * sizeof(first->argv[0]));
		memcpy(first_new.lens, first->lens, first->argc * sizeof(first->lens[0]));
		memcpy(first_new.argv, b->first_new, sizeof(b->first_new));
		memcpy(first_new.lens, b->first_new_lens, sizeof(b->first_new_lens));
		first = &first_new;
	}
	c->blocked_before |= b->first_new[0] != NULL;
	conn_sent(c);
	if ((first && append_command(c->ctx, first) != REDIS_OK) || append_command(c->ctx, b->blocking) != REDIS_OK
			|| !flush(c->ctx, deadline) || !finish_handshake(c, s, deadline, err)
			|| (first && read_reply(c, deadline, -1, o->spin_us, r1) < 0)) {
		goto fail;
	}
	/* the round trip is the first command's: the blocking one's time is a wait */
	if (first) {
		conn_timed(s, c);
	}
	c->sent_us = 0;
	/* the blocking command's reply: a deadline of its own, as it blocks from here */
	rlock_wake_how how = RLOCK_WAKE_PUSH;
	int got = read_reply(c, deadline = deadline_of(own), b->wake_at ? b->wake_at(*r1, b->arg, &how) : -1, 0, r2);
	if (got == 0) {
		/* Time to stop waiting, and the server has not answered yet: wake the command from
		 * a side connection, and read what it answers then (the wake, or what it was given
		 * just before), within what is left of the call. One whose own timeout has passed
		 * needs no wake: an idle server only looks at timeouts on its timer, and any command
		 * makes it look. */
		bool woke = how != RLOCK_WAKE_CLOSE && side_call(o, s, how == RLOCK_WAKE_PING ? &ping : b->wake,
			how == RLOCK_WAKE_PING ? 1 : b->nwake);
		if (!woke && how != RLOCK_WAKE_PING) {
			/* nothing else ends it (the push refused under maxmemory, say): closing does */
			conn_forget(o, s);
			return 0;
		}
		got = read_reply(c, deadline, -1, 0, r2);
	}
	if (got < 0) {
		goto fail;
	}
	conn_done(o, s, c, *r1 && (*r1)->type == REDIS_REPLY_ERROR ? *r1 : *r2);
	return 0;

fail:
	conn_drop(o, s, err);
	return -1;
}

void rlock_sleep_jittered(zend_long base_ms, zend_long max_ms)
{
	/* base/2 to base, counted in us: a 1 ms base sleeps 0.5 to 1 ms, not 0 */
	zend_long us = MIN(base_ms, RLOCK_MS_MAX) * 1000, jitter = 0;
	if (us > 0 && php_random_int(0, us, &jitter, false) == SUCCESS) {
		us = us / 2 + jitter / 2;
	}
	rlock_sleep_us(MIN(us, MIN(max_ms, RLOCK_MS_MAX) * 1000));
}

void rlock_sleep_us(zend_long us)
{
	call_state saved;
	if (us <= 0) {
		return;
	}
	if (yielding(&saved)) {
		rlock_swoole_sleep_us(us);
		resumed(&saved);
		return;
	}
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };
	nanosleep(&ts, NULL);
}

/* A reply that answers the question: neither an error nor nil. */
static bool answers(const redisReply *r)
{
	return r->type != REDIS_REPLY_ERROR && r->type != REDIS_REPLY_NIL;
}

/* What has come on conns[i]'s socket, read: its handshake's replies, then the command's
 * into replies[i] when complete. false with errs[i] set when the connection failed. */
static bool take_replies(rlock_conn *c, const rlock_server *s, redisReply **reply, rlock_err *err)
{
	void *r = NULL;
	if (!rlock_conn_read(c->ctx)) {
		return false;
	}
	while (!*reply) {
		if (redisGetReplyFromReader(c->ctx, &r) != REDIS_OK) {
			return false;
		}
		if (!r) {
			break;
		}
		if (c->handshake == 0) {
			*reply = r;
			c->answered = true;
		} else if (!handshake_reply(c, s, r, err)) {
			return false;
		}
	}
	return true;
}

void rlock_conn_fanout(const rlock_opts *o, uint32_t n, const rlock_server *servers, const rlock_cmd *const *cmds,
	uint32_t enough, redisReply **replies, rlock_err *errs)
{
	rlock_conn *conns[RLOCK_MAX_SERVERS], *fresh[RLOCK_MAX_SERVERS];
	struct pollfd fds[RLOCK_MAX_SERVERS];
	uint32_t pending = 0, answered = 0;

	/* Connect to every server that needs it, all at once ... */
	for (uint32_t i = 0; i < n; i++) {
		replies[i] = NULL;
		conns[i] = cmds[i] ? conn_take(o, &servers[i]) : NULL;
		fresh[i] = cmds[i] && !conns[i] ? conn_start(&servers[i], &errs[i]) : NULL;
	}
	await_connects(o, n, fresh, servers, errs);
	/* ... write to every server (AUTH and SELECT before the command on a new connection) ... */
	for (uint32_t i = 0; i < n; i++) {
		if (fresh[i]) {
			conn_keep(o, &servers[i], conns[i] = fresh[i]);
		}
		if (!conns[i]) {
			if (cmds[i]) {
				stats_failed(&servers[i], &errs[i]);
			}
			continue;
		}
		zend_long deadline = deadline_of(o->read_timeout);
		conn_sent(conns[i]);
		if (append_command(conns[i]->ctx, cmds[i]) != REDIS_OK || !flush(conns[i]->ctx, deadline)) {
			conn_drop(o, &servers[i], &errs[i]);
			conns[i] = NULL;
			continue;
		}
		pending++;
	}
	/* ... then read the replies as they come, all within one read_timeout (less when the
	 * call ends first), or until enough of them answer. */
	zend_long deadline = deadline_of(o->read_timeout);
	while (pending > 0 && answered < enough) {
		nfds_t nfds = 0;
		zend_long left = deadline - rlock_now_ms();
		if (left <= 0) {
			break;
		}
		for (uint32_t i = 0; i < n; i++) {
			if (conns[i] && !replies[i]) {
				fds[nfds].fd = conns[i]->ctx->fd;
				fds[nfds].events = POLLIN;
				fds[nfds++].revents = 0;
			}
		}
		if (poll_for(fds, nfds, left) < 0) {
			break;
		}
		for (uint32_t i = 0, f = 0; i < n; i++) {
			if (!conns[i] || replies[i] || fds[f++].revents == 0) {
				continue;
			}
			if (!take_replies(conns[i], &servers[i], &replies[i], &errs[i])) {
				conn_drop(o, &servers[i], &errs[i]);
				conns[i] = NULL;
				pending--;
			} else if (replies[i]) {
				conn_done(o, &servers[i], conns[i], replies[i]);
				answered += answers(replies[i]);
				pending--;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (conns[i] && !replies[i]) {
			rlock_err_set(&errs[i], RLOCK_ERR_CONNECTION, servers[i].label,
				answered < enough ? "read timed out" : "not awaited: others answered first");
			conn_drop(o, &servers[i], &errs[i]);
		}
	}
}

void rlock_conn_ginit(HashTable *pool, HashTable *request_conns, HashTable *tls_ctxs)
{
	zend_hash_init(pool, 8, NULL, conn_dtor, 1);
	zend_hash_init(request_conns, 8, NULL, conn_dtor, 1);
#ifdef RLOCK_HAVE_TLS
	zend_hash_init(tls_ctxs, 2, NULL, tls_ctx_dtor, 1);
#else
	zend_hash_init(tls_ctxs, 2, NULL, NULL, 1);
#endif
}

void rlock_conn_gshutdown(HashTable *pool, HashTable *request_conns, HashTable *tls_ctxs)
{
	zend_hash_destroy(request_conns);
	zend_hash_destroy(pool);
	zend_hash_destroy(tls_ctxs);
}


void rlock_conn_post_deactivate(void)
{
	zend_hash_clean(&RLOCK_G(request_conns));
}

uint32_t rlock_conn_pooled_count(void)
{
	return zend_hash_num_elements(&RLOCK_G(pool));
}

/* The text of r, a reply from s, for a message: s's password, should the server echo it,
 * shown as "***" (rlock_err_quote). */
static const char *server_quote(const rlock_server *s, char *out, size_t size, const redisReply *r)
{
	return rlock_err_quote(out, size, r->str, r->len, s->pass ? ZSTR_VAL(s->pass) : NULL, s->pass ? ZSTR_LEN(s->pass) : 0);
}

bool rlock_reply_error(const rlock_server *s, redisReply *r, rlock_err *err)
{
	if (r->type != REDIS_REPLY_ERROR) {
		return false;
	}
	rlock_reply_error_set(s, r, "", err);
	freeReplyObject(r);
	return true;
}

void rlock_reply_error_set(const rlock_server *s, const redisReply *r, const char *what, rlock_err *err)
{
	char text[401];
	if (rlock_conn_unauthenticated(r, s->pass != NULL, text, sizeof(text))) {
		rlock_err_set(err, RLOCK_ERR_AUTH, s->label, "%s%s", what, text);
		return;
	}
	rlock_err_set(err, RLOCK_ERR_REPLY, s->label, "%s%s", what, server_quote(s, text, sizeof(text), r));
}
