/* hiredis connections: connect with timeouts, a persistent pool per process, pid ownership,
 * liveness checks before reuse. The only file that calls hiredis. */

#include "php.h"
#include "php_rlock.h"
#include "conn.h"

#include <poll.h>
#include <unistd.h>

static struct timeval ms_to_tv(zend_long ms)
{
	struct timeval tv;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	return tv;
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
static bool handshake(redisContext *ctx, const rlock_opts *o, rlock_err *err)
{
	const rlock_server *s = &o->server;
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

static rlock_conn *conn_open(const rlock_opts *o, rlock_err *err)
{
	const rlock_server *s = &o->server;
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
	if (redisSetTimeout(ctx, ms_to_tv(o->read_timeout)) != REDIS_OK || !handshake(ctx, o, err)) {
		if (err->kind == RLOCK_ERR_NONE) {
			rlock_err_set(err, RLOCK_ERR_CONNECTION, s->label, "cannot set the read timeout: %s", ctx->errstr);
		}
		redisFree(ctx);
		return NULL;
	}
	rlock_conn *c = pecalloc(1, sizeof(*c), 1);
	c->ctx = ctx;
	c->pid = getpid();
	return c;
}

/* Whether a connection from the table may carry the next command. Checked once a request:
 * a readable socket between commands means EOF or a stale reply, either way unusable. */
static bool conn_usable(rlock_conn *c)
{
	if (c->pid != getpid() || c->busy || c->ctx->err) {
		return false;
	}
	if (c->checked_gen != RLOCK_G(request_gen)) {
		struct pollfd p = { .fd = c->ctx->fd, .events = POLLIN };
		if (poll(&p, 1, 0) != 0) {
			return false;
		}
		c->checked_gen = RLOCK_G(request_gen);
	}
	return true;
}

static rlock_conn *conn_get(const rlock_opts *o, rlock_err *err)
{
	HashTable *ht = table_for(o);
	rlock_conn *c = zend_hash_str_find_ptr(ht, ZSTR_VAL(o->server.id), ZSTR_LEN(o->server.id));

	if (c) {
		if (conn_usable(c)) {
			return c;
		}
		zend_hash_str_del(ht, ZSTR_VAL(o->server.id), ZSTR_LEN(o->server.id));
		RLOCK_G(counters).reconnects++;
	}
	c = conn_open(o, err);
	if (c) {
		c->checked_gen = RLOCK_G(request_gen);
		/* a persistent table takes a persistent copy of the key */
		zend_hash_str_update_ptr(ht, ZSTR_VAL(o->server.id), ZSTR_LEN(o->server.id), c);
	}
	return c;
}

redisReply *rlock_conn_call(const rlock_opts *o, int argc, const char **argv, const size_t *lens,
	zend_long block_ms, rlock_err *err)
{
	rlock_conn *c = conn_get(o, err);
	redisReply *r = NULL;
	char buf[32];

	if (!c) {
		return NULL;
	}
	if (block_ms > 0) {
		redisSetTimeout(c->ctx, ms_to_tv(o->read_timeout + block_ms));
	}
	c->busy = true;
	if (redisAppendCommandArgv(c->ctx, argc, argv, lens) != REDIS_OK
			|| redisGetReply(c->ctx, (void **) &r) != REDIS_OK) {
		rlock_err_set(err, RLOCK_ERR_CONNECTION, o->server.label, "%s", cause(c->ctx, buf, sizeof(buf)));
		zend_hash_str_del(table_for(o), ZSTR_VAL(o->server.id), ZSTR_LEN(o->server.id));
		return NULL;
	}
	c->busy = false;
	if (block_ms > 0) {
		redisSetTimeout(c->ctx, ms_to_tv(o->read_timeout));
	}
	return r;
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

void rlock_conn_rinit(void)
{
	RLOCK_G(request_gen)++;
}

void rlock_conn_rshutdown(void)
{
	zend_hash_clean(&RLOCK_G(request_conns));
}

uint32_t rlock_conn_pooled_count(void)
{
	return zend_hash_num_elements(&RLOCK_G(pool));
}
