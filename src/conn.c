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
	return ctx->errstr;
}

/* AUTH and SELECT on a fresh connection; false with err set. */
static bool handshake(redisContext *ctx, const rlock_server *s, rlock_err *err)
{
	redisReply *r;
	char buf[32];

	if (s->pass) {
		const char *argv[3] = { "AUTH", NULL, NULL };
		size_t lens[3] = { 4, 0, 0 };
		int argc = 1;
		if (s->user) {
			argv[argc] = ZSTR_VAL(s->user);
			lens[argc++] = ZSTR_LEN(s->user);
		}
		argv[argc] = ZSTR_VAL(s->pass);
		lens[argc++] = ZSTR_LEN(s->pass);
		r = redisCommandArgv(ctx, argc, argv, lens);
		if (!r) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "AUTH failed: %s", cause(ctx, buf, sizeof(buf)));
			return false;
		}
		if (r->type == REDIS_REPLY_ERROR) {
			/* Redis' answer names neither the password nor the user. */
			rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "authentication failed: %.*s", (int) r->len, r->str);
			freeReplyObject(r);
			return false;
		}
		freeReplyObject(r);
	}
	if (s->db != 0) {
		r = redisCommand(ctx, "SELECT " ZEND_LONG_FMT, s->db);
		if (!r || r->type == REDIS_REPLY_ERROR) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "SELECT " ZEND_LONG_FMT " failed: %s", s->db,
				r ? r->str : cause(ctx, buf, sizeof(buf)));
			if (r) {
				freeReplyObject(r);
			}
			return false;
		}
		freeReplyObject(r);
	}
	return true;
}

static rlock_conn *conn_open(const rlock_opts *o, const rlock_server *s, rlock_err *err)
{
	struct timeval tv = ms_to_tv(o->connect_timeout);
	char buf[32];
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
	/* The connect timeout bounds only the connect; every read is bounded from here on. */
	if (redisSetTimeout(ctx, ms_to_tv(o->read_timeout)) != REDIS_OK || !handshake(ctx, s, err)) {
		if (err->kind == RLOCK_ERR_NONE) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "cannot set the read timeout: %s", ctx->errstr);
		}
		redisFree(ctx);
		return NULL;
	}
	rlock_conn *c = pecalloc(1, sizeof(*c), 1);
	c->ctx = ctx;
	c->pid = rlock_getpid();
	c->timeout_ms = o->read_timeout;
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
			|| redisGetReply(c->ctx, (void **) &r) != REDIS_OK) {
		conn_drop(o, s, err);
		return NULL;
	}
	c->busy = false;
	set_timeout(c, o->read_timeout);
	return r;
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
	if (!reply && redisGetReply(ctx, &reply) != REDIS_OK) {
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
	for (int i = 0; i < n && redisGetReply(side->ctx, (void **) &r) == REDIS_OK; i++) {
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
			if (redisBufferRead(conns[i]->ctx) != REDIS_OK
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
