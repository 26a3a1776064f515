/* hiredis connections: connect with timeouts, a persistent pool per process, pid ownership,
 * liveness checks before reuse, pipelined and parallel calls. The request's only door to
 * hiredis (the watchdog's thread keeps connections of its own, in src/watchdog.c). */

#include "php.h"
#include "php_rlock.h"
#include "conn.h"

#include <poll.h>
#include <unistd.h>
#include <time.h>
#include <errno.h>
#include <limits.h>

static struct timeval ms_to_tv(zend_long ms)
{
	struct timeval tv;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	return tv;
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

/* The cause of a hiredis context's error, in words. */
static const char *cause(const redisContext *ctx, char *buf, size_t size)
{
	if (ctx->err == REDIS_ERR_IO && strcmp(ctx->errstr, strerror(EAGAIN)) == 0) {
		snprintf(buf, size, "read timed out");
		return buf;
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

#if HIREDIS_MAJOR >= 1
/* hiredis 1.x refuses an array header past maxelements itself (and caps no total). */
void rlock_conn_minit(void)
{
}

void rlock_conn_guard(redisContext *ctx, rlock_reply_budget *budget)
{
	(void) budget;
	(void) budget_take;
	ctx->reader->maxelements = RLOCK_REPLY_MAX_ELEMENTS;
}
#else
/* hiredis 0.14 allocates whatever a header announces: its reply-object functions, wrapped
 * with the caps. A NULL from one fails the read (hiredis says "out of memory"). */
static redisReplyObjectFunctions *hiredis_fn;

static void *guard_string(const redisReadTask *task, char *str, size_t len)
{
	return budget_take(task, len) ? hiredis_fn->createString(task, str, len) : NULL;
}

static void *guard_array(const redisReadTask *task, int elements)
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

static redisReplyObjectFunctions guarded_fn = {
	.createString = guard_string,
	.createArray = guard_array,
	.createInteger = guard_integer,
	.createNil = guard_nil,
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
	if (hiredis_fn) {
		ctx->reader->fn = &guarded_fn;
		ctx->reader->privdata = budget;
	}
}
#endif

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

/* Write out what hiredis has buffered (it writes only when a reply is asked for, and we may
 * poll for one first). */
static bool flush(redisContext *ctx)
{
	int done = 0;
	while (!done) {
		if (redisBufferWrite(ctx, &done) != REDIS_OK) {
			return false;
		}
	}
	return true;
}

int rlock_conn_get_reply(redisContext *ctx, void **reply)
{
	void *r = NULL;
	if (redisGetReplyFromReader(ctx, &r) != REDIS_OK) {
		return REDIS_ERR;
	}
	if (!r && !flush(ctx)) {
		return REDIS_ERR;
	}
	while (!r) {
		if (redisBufferRead(ctx) != REDIS_OK || !buffer_fits(ctx) || redisGetReplyFromReader(ctx, &r) != REDIS_OK) {
			return REDIS_ERR;
		}
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

/* One command's reply on a fresh connection: true when it is not an error (and, for
 * AUTH, is +OK), else false with why set. */
static bool handshake_reply(redisContext *ctx, bool auth, const char *what, char *why, size_t why_size)
{
	redisReply *r = NULL;
	bool ok;
	if (rlock_conn_get_reply(ctx, (void **) &r) != REDIS_OK) {
		char buf[32];
		snprintf(why, why_size, "%s failed: %s", what, cause(ctx, buf, sizeof(buf)));
		return false;
	}
	ok = auth ? r->type == REDIS_REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0
		: r->type != REDIS_REPLY_ERROR;
	if (!ok && auth) {
		snprintf(why, why_size, "authentication failed: %s", auth_refusal(r));
	} else if (!ok) {
		snprintf(why, why_size, "%s failed: %.*s", what, (int) MIN(r->len, 200), r->str);
	}
	freeReplyObject(r);
	return ok;
}

bool rlock_conn_handshake(redisContext *ctx, const char *user, size_t user_len, const char *pass, size_t pass_len,
	long long db, char *why, size_t why_size)
{
	if (pass) {
		const char *argv[3] = { "AUTH", user, pass };
		size_t lens[3] = { 4, user_len, pass_len };
		if (!user) {
			argv[1] = pass;
			lens[1] = pass_len;
		}
		if (redisAppendCommandArgv(ctx, user ? 3 : 2, argv, lens) != REDIS_OK
				|| !handshake_reply(ctx, true, "AUTH", why, why_size)) {
			return false;
		}
	}
	if (db != 0) {
		char what[32];
		snprintf(what, sizeof(what), "SELECT %lld", db);
		if (redisAppendCommand(ctx, "SELECT %lld", db) != REDIS_OK || !handshake_reply(ctx, false, what, why, why_size)) {
			return false;
		}
	}
	return true;
}

static void conn_free(rlock_conn *c)
{
	/* redisFree closes the socket without a word to the server: safe in a forked child. */
	if (c->ctx) {
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

static rlock_conn *conn_open(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	struct timeval tv = ms_to_tv(o->connect_timeout);
	char buf[256];
	redisContext *ctx = s->port
		? redisConnectWithTimeout(ZSTR_VAL(s->host), s->port, tv)
		: redisConnectUnixWithTimeout(ZSTR_VAL(s->host), tv);

	if (!ctx || ctx->err) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "cannot connect: %s",
			ctx ? cause(ctx, buf, sizeof(buf)) : "out of memory");
		if (ctx) {
			redisFree(ctx);
		}
		return NULL;
	}
	rlock_conn *c = pecalloc(1, sizeof(*c), 1);
	c->ctx = ctx;
	c->pid = rlock_getpid();
	c->timeout_ms = o->read_timeout;
	rlock_conn_guard(ctx, &c->budget);
	/* The connect timeout bounds only the connect; every read is bounded from here on. */
	if (redisSetTimeout(ctx, ms_to_tv(o->read_timeout)) != REDIS_OK) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "cannot set the read timeout: %s", ctx->errstr);
		conn_free(c);
		return NULL;
	}
	if (!rlock_conn_handshake(ctx, s->user ? ZSTR_VAL(s->user) : NULL, s->user ? ZSTR_LEN(s->user) : 0,
			s->pass ? ZSTR_VAL(s->pass) : NULL, s->pass ? ZSTR_LEN(s->pass) : 0, (long long) s->db, buf, sizeof(buf))) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "%s", buf);
		conn_free(c);
		return NULL;
	}
	return c;
}

/* Whether a connection from the table may carry the next command: ours, idle, and with
 * nothing to read (a readable socket between commands means EOF, a server restarted or a
 * CLIENT KILL, or a stale reply: either way it is thrown away, not used). */
static bool conn_usable(rlock_conn *c)
{
	struct pollfd p = { .fd = c->ctx->fd, .events = POLLIN };
	return c->pid == rlock_getpid() && !c->busy && !c->ctx->err && poll(&p, 1, 0) == 0;
}

/* The socket's read timeout, set only when it changes (every RLock has its own). */
static void set_timeout(rlock_conn *c, zend_long ms)
{
	if (c && c->timeout_ms != ms && redisSetTimeout(c->ctx, ms_to_tv(ms)) == REDIS_OK) {
		c->timeout_ms = ms;
	}
}

/* The connection to s out of the table, and closed: the next call reconnects. */
static void conn_forget(const rlock_opts *o, const rlock_server *s)
{
	zend_hash_str_del(table_for(o), ZSTR_VAL(s->id), ZSTR_LEN(s->id));
}

/* The connection to s from the table, checked, or a new one. */
static rlock_conn *conn_get(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	HashTable *ht = table_for(o);
	rlock_conn *c = zend_hash_str_find_ptr(ht, ZSTR_VAL(s->id), ZSTR_LEN(s->id));

	if (c && !conn_usable(c)) {
		conn_forget(o, s);
		RLOCK_G(counters).reconnects++;
		c = NULL;
	}
	if (!c && (c = conn_open(o, s, err))) {
		/* a persistent table takes a persistent copy of the key */
		zend_hash_str_update_ptr(ht, ZSTR_VAL(s->id), ZSTR_LEN(s->id), c);
	}
	set_timeout(c, o->read_timeout);
	return c;
}

/* After an I/O error or a timeout the reply may still come: never read it, reconnect. */
static void conn_drop(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	rlock_conn *c = zend_hash_str_find_ptr(table_for(o), ZSTR_VAL(s->id), ZSTR_LEN(s->id));
	char buf[32];
	if (c && err->kind == RLOCK_ERR_NONE) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "%s", cause(c->ctx, buf, sizeof(buf)));
	}
	conn_forget(o, s);
}

redisReply *rlock_conn_call(const rlock_opts *o, const rlock_server *s, const rlock_cmd *cmd,
	zend_long block_ms, rlock_err *err)
{
	rlock_conn *c = conn_get(o, s, err);
	redisReply *r = NULL;

	if (!c) {
		return NULL;
	}
	set_timeout(c, o->read_timeout + block_ms);
	c->busy = true;
	if (append_command(c->ctx, cmd) != REDIS_OK
			|| rlock_conn_get_reply(c->ctx, (void **) &r) != REDIS_OK) {
		conn_drop(o, s, err);
		return NULL;
	}
	c->busy = false;
	set_timeout(c, o->read_timeout);
	return r;
}

/* The next reply: from what hiredis has buffered already, else from the socket within
 * wait_ms (-1: the socket's own timeout). 1 read, 0 not within wait_ms, -1 I/O error. */
static int read_reply(redisContext *ctx, zend_long wait_ms, redisReply **r)
{
	void *reply = NULL;
	if (redisGetReplyFromReader(ctx, &reply) != REDIS_OK) {
		return -1;
	}
	if (!reply && wait_ms >= 0) {
		struct pollfd p = { .fd = ctx->fd, .events = POLLIN };
		int n;
		do {
			n = poll(&p, 1, (int) MIN(wait_ms, INT_MAX));
		} while (n < 0 && errno == EINTR);
		if (n == 0) {
			return 0;
		}
	}
	if (!reply && rlock_conn_get_reply(ctx, &reply) != REDIS_OK) {
		return -1;
	}
	*r = reply;
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
	for (int i = 0; i < n; i++) {
		append_command(side->ctx, &cmds[i]);
	}
	for (int i = 0; i < n && rlock_conn_get_reply(side->ctx, (void **) &r) == REDIS_OK; i++) {
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
	const rlock_cmd *first = c && !c->blocked_before && b->first_new ? b->first_new : b->first;
	*r1 = *r2 = NULL;

	if (!c) {
		return -1;
	}
	c->blocked_before |= b->first_new != NULL;
	set_timeout(c, o->read_timeout + b->block_ms);
	c->busy = true;
	if ((first && append_command(c->ctx, first) != REDIS_OK) || append_command(c->ctx, b->blocking) != REDIS_OK
			|| !flush(c->ctx) || (first && read_reply(c->ctx, -1, r1) < 0)) {
		goto fail;
	}
	rlock_wake_how how = RLOCK_WAKE_PUSH;
	int got = read_reply(c->ctx, b->wake_at ? b->wake_at(*r1, b->arg, &how) : -1, r2);
	if (got == 0) {
		/* Time to stop waiting, and the server has not answered yet: wake the command from
		 * a side connection, and read what it answers then (the wake, or what it was given
		 * just before). One whose own timeout has passed needs no wake: an idle server only
		 * looks at timeouts on its timer, and any command makes it look. */
		bool woke = how != RLOCK_WAKE_CLOSE && side_call(o, s, how == RLOCK_WAKE_PING ? &ping : b->wake,
			how == RLOCK_WAKE_PING ? 1 : b->nwake);
		if (!woke && how != RLOCK_WAKE_PING) {
			/* nothing else ends it (the push refused under maxmemory, say): closing does */
			conn_forget(o, s);
			return 0;
		}
		got = read_reply(c->ctx, -1, r2);
	}
	if (got < 0) {
		goto fail;
	}
	c->busy = false;
	set_timeout(c, o->read_timeout);
	return 0;

fail:
	conn_drop(o, s, err);
	return -1;
}

zend_long rlock_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (zend_long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rlock_conn_fanout(const rlock_opts *o, uint32_t n, const rlock_server *servers, const rlock_cmd *const *cmds,
	redisReply **replies, rlock_err *errs)
{
	rlock_conn *conns[RLOCK_MAX_SERVERS];
	struct pollfd fds[RLOCK_MAX_SERVERS];
	uint32_t pending = 0;
	int done;

	/* Write to every server first ... */
	for (uint32_t i = 0; i < n; i++) {
		replies[i] = NULL;
		conns[i] = cmds[i] ? conn_get(o, &servers[i], &errs[i]) : NULL;
		if (!conns[i]) {
			continue;
		}
		conns[i]->busy = true;
		append_command(conns[i]->ctx, cmds[i]);
		do {
			if (redisBufferWrite(conns[i]->ctx, &done) != REDIS_OK) {
				break;
			}
		} while (!done);
		if (conns[i]->ctx->err) {
			conn_drop(o, &servers[i], &errs[i]);
			conns[i] = NULL;
			continue;
		}
		pending++;
	}
	/* ... then read the replies as they come, all within one read_timeout. */
	zend_long deadline = rlock_now_ms() + o->read_timeout;
	while (pending > 0) {
		uint32_t nfds = 0;
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
		if (poll(fds, nfds, (int) left) < 0 && errno != EINTR) {
			break;
		}
		for (uint32_t i = 0, f = 0; i < n; i++) {
			if (!conns[i] || replies[i]) {
				continue;
			}
			if (fds[f++].revents == 0) {
				continue;
			}
			void *r = NULL;
			if (redisBufferRead(conns[i]->ctx) != REDIS_OK || !buffer_fits(conns[i]->ctx)
					|| redisGetReplyFromReader(conns[i]->ctx, &r) != REDIS_OK) {
				conn_drop(o, &servers[i], &errs[i]);
				conns[i] = NULL;
				pending--;
			} else if (r) {
				replies[i] = r;
				conns[i]->busy = false;
				pending--;
			}
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (conns[i] && !replies[i]) {
			rlock_err_set(&errs[i], RLOCK_ERR_CONNECTION, servers[i].label, "read timed out");
			conn_drop(o, &servers[i], &errs[i]);
		}
	}
}

void rlock_conn_ginit(HashTable *pool, HashTable *request_conns)
{
	zend_hash_init(pool, 8, NULL, conn_dtor, 1);
	zend_hash_init(request_conns, 8, NULL, conn_dtor, 1);
}

void rlock_conn_gshutdown(HashTable *pool, HashTable *request_conns)
{
	zend_hash_destroy(request_conns);
	zend_hash_destroy(pool);
}

void rlock_conn_post_deactivate(void)
{
	zend_hash_clean(&RLOCK_G(request_conns));
}

uint32_t rlock_conn_pooled_count(void)
{
	return zend_hash_num_elements(&RLOCK_G(pool));
}
