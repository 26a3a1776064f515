/* The watchdog: one thread per process that renews, every ttl/3, the lease of each lock taken
 * with the "watchdog" option while it is held, and marks lost the ones a renewal finds no
 * longer ours.
 *
 * Two sides share one table under one mutex:
 * - the request side (rlock_watchdog_*, called by registry.c on a request's thread) copies
 *   what a renewal needs -- the server's address and credentials, the key, the token, the
 *   ttl -- into malloc'd plain C structs when a lock is registered, and unlinks them when it
 *   is let go;
 * - the thread (wd_*) reads only those copies and its own hiredis connections: no emalloc,
 *   no zend_string, no zval, no engine globals, so it is the same under NTS and ZTS. It
 *   never holds the mutex while it talks to Redis.
 *
 * Batching: when a lock on a server falls due, every lock on that server at least half-way
 * to its own due time goes with it, in one round trip (one EVALSHA of the batch script per
 * BATCH_MAX keys, pipelined). Locks taken at about the same time fall in step at their
 * first renewal, so N locks on a server cost one round trip per period.
 *
 * A renewal that fails (unreachable, timeout) is retried soon on a new connection; only Redis
 * saying the key is not ours marks a lock lost. A process that dies stops renewing, and its
 * locks expire with their ttl.
 *
 * fork(): the child gets a copy of the memory but not the thread, so whatever lock the thread
 * held at that instant -- the allocator's (ASan's is not fork-safe), the resolver's, one of
 * hiredis' -- stays locked in the child for ever, and the child's own first malloc or thread
 * start may wait on it (and ASan's LeakSanitizer counts the thread as running in the child).
 * So no thread runs at a fork: the prepare handler asks the thread to end and joins it. The
 * thread waits only on the mutex's condition or in poll(), on its socket and on the
 * interrupt pipe the handler writes to, so it ends at once, a renewal it was waiting for
 * dropped with its connection and retried soon (its sockets are non-blocking from the connect
 * on, AUTH and SELECT included: only a host name's lookup, before the connect, is not
 * interrupted). The parent handler starts a new thread if locks are watched, on the
 * connections the last one left; the child handler frees the child's copy of the table and of those
 * connections (closing its copies of the sockets, without a word to Redis): nothing is
 * renewed there until it takes a lock of its own.
 *
 * With conn.c, the only file that calls hiredis: the thread's connections are its own,
 * opened in the thread, never the request's pooled ones. */

#include "php.h"
#include "php_rlock.h"
#include "src/state/watchdog.h"
#include "src/primitives/scripts.h"
#include "src/stats/stats.h"

#ifndef PHP_WIN32

#include <hiredis/hiredis.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH_MAX 1000            /* keys per EVALSHA; more are pipelined in the same trip */
#define LINGER_MS 1000            /* with nothing held this long, the thread ends */
#define STACK_SIZE (512 * 1024)

typedef struct wd_server wd_server;

struct rlock_watchdog_entry {
	rlock_watchdog_entry *prev, *next;  /* in server->entries while linked */
	wd_server *server;                  /* while linked */
	char *key;
	size_t key_len;
	char *token;
	size_t token_len;
	int64_t ttl;      /* ms */
	int64_t due;      /* monotonic ms of the next renewal */
	int64_t valid_until;  /* monotonic ms the lease ends, as the last renewal left it */
	uint64_t stats_key;   /* its lock in the statistics (src/stats/stats.h), 0: none */
	int lost;         /* written by the thread, read by the request side: atomic */
	/* the request thread that watches it (lost.h): its flag of locks found lost, and its
	 * EG(vm_interrupt), both set when a renewal finds this one lost (under the mutex: an
	 * entry unwatched is never told of, so both outlive every use) */
	int *lost_pending;
	void *vm_interrupt;
	bool linked;      /* the thread renews it */
	bool held;        /* the request side has not given it back */
	bool in_flight;   /* in the batch the thread is sending: freed by the thread */
};

/* A server and the thread's connection to it. Only the thread (or a fork child) frees one. */
struct wd_server {
	wd_server *next;
	char *id;         /* rlock_server.id: host, port, db, user, pass */
	size_t id_len;
	char *host;       /* the socket path when port == 0 */
	int port;
	long db;
	char *user, *pass;
	size_t user_len, pass_len;
	int64_t connect_timeout, read_timeout;
#ifdef RLOCK_HAVE_TLS
	SSL_CTX *tls;     /* rediss://: a reference of the thread's own; NULL: plain text */
	char *tls_name;   /* sent as SNI, and verified when tls_verify */
	bool tls_verify;
#endif
	redisContext *ctx;  /* the thread's, non-blocking; set and cleared under the mutex */
	rlock_reply_budget budget;  /* of the reply being read on ctx: the thread's */
	rlock_watchdog_entry *entries;
	uint32_t nentries;
};

static struct {
	pthread_mutex_t mutex;
	pthread_cond_t wake;
	pthread_t thread;
	bool ready;           /* MINIT done */
	bool running;         /* the thread runs */
	bool joinable;        /* a thread was started and not joined yet */
	bool stop;            /* MSHUTDOWN asks the thread to end */
	bool forking;         /* the fork prepare handler asks the thread to end */
	int interrupt[2];     /* a pipe: readable, the thread's poll() returns and the thread ends */
	int64_t sleep_until;  /* when the sleeping thread wakes by itself; 0 while it works */
	wd_server *servers;
	uint32_t active;      /* linked entries not lost */
	const char *script_source, *script_sha;
	/* the batch being sent: the thread's scratch, grown under the mutex */
	rlock_watchdog_entry **batch;
	size_t batch_len;
	char (*ttls)[24];
	signed char *results;  /* 1 renewed, 0 not ours, -1 unknown, -2 send again with EVAL */
	size_t cap;
	const char **argv;
	size_t *lens;
	rlock_watchdog_stats stats;
} wd;

static int64_t period_of(int64_t ttl)
{
	return ttl >= 3 ? ttl / 3 : 1;
}

/* How soon a renewal that failed is tried again. */
static int64_t retry_of(int64_t ttl)
{
	int64_t r = period_of(ttl) / 3;
	return r < 10 ? 10 : r;
}

/* The lost flag is the one field the request side reads without the mutex, so it is an
 * atomic. Helgrind does not model atomics: tests/helgrind.supp names these two. */
static bool is_lost(const rlock_watchdog_entry *e)
{
	return __atomic_load_n(&e->lost, __ATOMIC_ACQUIRE) != 0;
}

static void mark_lost(rlock_watchdog_entry *e)
{
	__atomic_store_n(&e->lost, 1, __ATOMIC_RELEASE);
}

/* e was found no longer ours: its request thread interrupted at its next opcode, as for a
 * signal with pcntl_async_signals (its zend_interrupt_function runs the onLost callbacks,
 * lost.c). After every lock of the batch is marked: the callbacks of locks lost together run
 * together. Mutex held. */
static void tell_lost(rlock_watchdog_entry *e)
{
	__atomic_store_n(e->lost_pending, 1, __ATOMIC_RELEASE);
#if PHP_VERSION_ID >= 80200
	zend_atomic_bool_store((zend_atomic_bool *) e->vm_interrupt, true);
#else
	*(volatile zend_bool *) e->vm_interrupt = 1;
#endif
}

static char *copy_bytes(const char *p, size_t len)
{
	char *c = malloc(len + 1);
	if (c) {
		memcpy(c, p, len);
		c[len] = '\0';
	}
	return c;
}

static void entry_free(rlock_watchdog_entry *e)
{
	free(e->key);
	free(e->token);
	free(e);
}

static void server_free(wd_server *s)
{
	free(s->id);
	free(s->host);
	free(s->user);
	free(s->pass);
#ifdef RLOCK_HAVE_TLS
	free(s->tls_name);
	if (s->tls) {
		SSL_CTX_free(s->tls);
	}
#endif
	free(s);
}

static void entry_link(wd_server *s, rlock_watchdog_entry *e)
{
	e->server = s;
	e->prev = NULL;
	e->next = s->entries;
	if (s->entries) {
		s->entries->prev = e;
	}
	s->entries = e;
	s->nentries++;
	e->linked = true;
	wd.active++;
}

static void entry_unlink(rlock_watchdog_entry *e)
{
	wd_server *s = e->server;
	if (e->prev) {
		e->prev->next = e->next;
	} else {
		s->entries = e->next;
	}
	if (e->next) {
		e->next->prev = e->prev;
	}
	e->prev = e->next = NULL;
	e->server = NULL;
	e->linked = false;
	s->nentries--;
	if (!is_lost(e)) {
		wd.active--;
	}
}

/* Wake the thread if it sleeps past due. Mutex held. */
static void wake_for(int64_t due)
{
	if (wd.sleep_until != 0 && due < wd.sleep_until) {
		pthread_cond_signal(&wd.wake);
	}
}

/* ---- the thread: plain C on its own copies ---- */

/* now + ms, INT64_MAX past it. */
static int64_t deadline_of(int64_t ms)
{
	int64_t now = (int64_t) rlock_now_ms();
	return ms > INT64_MAX - now ? INT64_MAX : now + ms;
}

/* Sleep until when (monotonic ms), a new lock due sooner, MSHUTDOWN or a fork. Mutex held. */
static void wd_wait(int64_t when)
{
	struct timespec ts;
	ts.tv_sec = (time_t) (when / 1000);
	ts.tv_nsec = (long) (when % 1000) * 1000000;
	wd.sleep_until = when;
	pthread_cond_timedwait(&wd.wake, &wd.mutex, &ts);
	wd.sleep_until = 0;
}

/* Wait until fd is ready for events or the deadline passes: > 0 ready (or an error the next
 * read or write will tell), 0 timed out, -1 interrupted (the thread is to end). The thread's
 * one wait on a socket. */
static int wd_poll(int fd, short events, int64_t deadline)
{
	int64_t left = deadline - (int64_t) rlock_now_ms();
	struct pollfd p[2] = { { .fd = fd, .events = events }, { .fd = wd.interrupt[0], .events = POLLIN } };
	int n;

	if (left <= 0) {
		return 0;
	}
	n = poll(p, wd.interrupt[0] >= 0 ? 2 : 1, (int) MIN(left, INT_MAX));
	if (n < 0) {
		return errno == EINTR ? 1 : -1;
	}
	return n > 0 && p[1].revents ? -1 : n;
}

/* Write what c has buffered, by the deadline. */
static bool wd_flush(redisContext *c, int64_t deadline)
{
	int done = 0;
	for (;;) {
		if (!rlock_conn_write(c, &done)) {
			return false;
		}
		if (done) {
			return true;
		}
		if (wd_poll(c->fd, POLLOUT, deadline) <= 0) {
			return false;
		}
	}
}

/* The next reply on c, by the deadline, within the caps on replies; NULL on an error or at
 * the deadline. */
static redisReply *wd_reply(redisContext *c, int64_t deadline)
{
	void *r = NULL;
	for (;;) {
		if (redisGetReplyFromReader(c, &r) != REDIS_OK) {
			return NULL;
		}
		if (r) {
			return r;
		}
		if (wd_poll(c->fd, POLLIN, deadline) <= 0 || !rlock_conn_read(c)) {
			return NULL;
		}
	}
}

/* A connection of the thread's own to s: non-blocking, reply caps, AUTH, SELECT. NULL when
 * it fails. It waits only in wd_poll(): the connect within connect_timeout, AUTH and SELECT
 * (when there are any) within read_timeout, and a fork's prepare handler ends any of it at
 * once. Reads only fields of s that never change. */
static redisContext *wd_connect(wd_server *s)
{
	char why[256];
	int err = 0, n;
	socklen_t len = sizeof(err);
	int64_t deadline;
	redisContext *c = s->port ? redisConnectNonBlock(s->host, s->port) : redisConnectUnixNonBlock(s->host);

	/* the connect goes on in the background: writable once it is done, SO_ERROR says how */
	deadline = deadline_of(s->connect_timeout);
	if (!c || c->err || wd_poll(c->fd, POLLOUT, deadline) <= 0
			|| getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
		goto fail;
	}
#ifdef RLOCK_HAVE_TLS
	/* rediss://: the TLS handshake, within the same connect_timeout */
	SSL *ssl = NULL;
	for (int want = s->tls ? POLLOUT : 0; want != 0; ) {
		if (want < 0 || wd_poll(c->fd, (short) want, deadline) <= 0) {
			goto fail;
		}
		want = rlock_tls_handshake(c, s->tls, s->tls_name, s->tls_verify, &ssl, why, sizeof(why));
	}
#endif
	rlock_conn_guard(c, &s->budget);
	if ((n = rlock_conn_handshake_append(c, s->user, s->user_len, s->pass, s->pass_len, s->db)) < 0) {
		goto fail;
	}
	if (n > 0) {
		deadline = deadline_of(s->read_timeout);
		if (!wd_flush(c, deadline)) {
			goto fail;
		}
		for (int i = 0; i < n; i++) {
			if (!rlock_conn_handshake_check(c, wd_reply(c, deadline), s->pass && i == 0, s->db, s->pass,
					s->pass_len, why, sizeof(why))) {
				goto fail;
			}
		}
	}
	return c;

fail:
	if (c) {
		redisFree(c);
	}
	return NULL;
}

/* Room in the scratch for a batch of n. Mutex held. */
static bool wd_reserve(size_t n)
{
	if (n <= wd.cap) {
		return true;
	}
	size_t cap = n < 64 ? 64 : n;
	size_t args = 3 + 3 * (cap < BATCH_MAX ? cap : BATCH_MAX);
	void *p;

	if (!(p = realloc(wd.batch, cap * sizeof(*wd.batch)))) return false;
	wd.batch = p;
	if (!(p = realloc(wd.ttls, cap * sizeof(*wd.ttls)))) return false;
	wd.ttls = p;
	if (!(p = realloc(wd.results, cap * sizeof(*wd.results)))) return false;
	wd.results = p;
	if (!(p = realloc(wd.argv, args * sizeof(*wd.argv)))) return false;
	wd.argv = p;
	if (!(p = realloc(wd.lens, args * sizeof(*wd.lens)))) return false;
	wd.lens = p;
	wd.cap = cap;
	return true;
}

/* Whether a lock on s is due. Mutex held. */
static bool wd_any_due(const wd_server *s, int64_t now)
{
	for (const rlock_watchdog_entry *e = s->entries; e; e = e->next) {
		if (!is_lost(e) && e->due <= now) {
			return true;
		}
	}
	return false;
}

/* Put into the batch every lock on s at least half-way to its due time: the ones due now and
 * the ones that may as well go with them. Their count. Mutex held. */
static size_t wd_collect(wd_server *s, int64_t now)
{
	size_t n = 0;

	if (!wd_reserve(s->nentries)) {
		for (rlock_watchdog_entry *e = s->entries; e; e = e->next) {
			if (e->due <= now) {
				e->due = now + retry_of(e->ttl);
			}
		}
		return 0;
	}
	for (rlock_watchdog_entry *e = s->entries; e; e = e->next) {
		if (is_lost(e) || now < e->due - period_of(e->ttl) / 2) {
			continue;
		}
		e->in_flight = true;
		wd.batch[n] = e;
		snprintf(wd.ttls[n], sizeof(wd.ttls[n]), "%" PRId64, e->ttl);
		n++;
	}
	wd.batch_len = n;
	return n;
}

/* The command for batch[first, first + k): EVALSHA (or EVAL) script k keys... tokens...
 * ttls... into the scratch argv; its argc. */
static int wd_command(size_t first, size_t k, bool eval, char *numkeys, size_t numkeys_size)
{
	int argc = 0;
	wd.argv[argc] = eval ? "EVAL" : "EVALSHA";
	wd.lens[argc++] = eval ? 4 : 7;
	wd.argv[argc] = eval ? wd.script_source : wd.script_sha;
	wd.lens[argc++] = strlen(wd.argv[1]);
	wd.lens[argc] = (size_t) snprintf(numkeys, numkeys_size, "%zu", k);
	wd.argv[argc++] = numkeys;
	for (size_t i = first; i < first + k; i++) {
		wd.argv[argc] = wd.batch[i]->key;
		wd.lens[argc++] = wd.batch[i]->key_len;
	}
	for (size_t i = first; i < first + k; i++) {
		wd.argv[argc] = wd.batch[i]->token;
		wd.lens[argc++] = wd.batch[i]->token_len;
	}
	for (size_t i = first; i < first + k; i++) {
		wd.argv[argc] = wd.ttls[i];
		wd.lens[argc++] = strlen(wd.ttls[i]);
	}
	return argc;
}

/* The reply to the batch[first, first + k) into results. */
static void wd_note(redisReply *r, size_t first, size_t k)
{
	signed char v = -1;
	if (r->type == REDIS_REPLY_ERROR && r->len >= 8 && strncmp(r->str, "NOSCRIPT", 8) == 0) {
		v = -2;
	}
	if (r->type == REDIS_REPLY_ARRAY && r->elements == k) {
		for (size_t i = 0; i < k; i++) {
			redisReply *x = r->element[i];
			wd.results[first + i] = x->type != REDIS_REPLY_INTEGER ? -1 : x->integer == 1 ? 1 : 0;
		}
		return;
	}
	memset(wd.results + first, v, k);
}

/* Drop s's connection after an I/O error. */
static void wd_disconnect(wd_server *s)
{
	pthread_mutex_lock(&wd.mutex);
	redisContext *c = s->ctx;
	s->ctx = NULL;
	pthread_mutex_unlock(&wd.mutex);
	redisFree(c);
}

/* Send the batch (wd.batch_len locks) to s and note each lock's result. One round trip, two
 * when the server had to learn the script. Outside the mutex: the batch's entries are in
 * flight and their keys and tokens do not change. The number of round trips. */
static int wd_send(wd_server *s)
{
	size_t n = wd.batch_len, chunks = (n + BATCH_MAX - 1) / BATCH_MAX;
	char numkeys[24];
	redisReply *r;
	int trips = 0;

	memset(wd.results, -1, n);
	if (!s->ctx) {
		redisContext *c = wd_connect(s);
		if (!c) {
			return 0;
		}
		pthread_mutex_lock(&wd.mutex);
		s->ctx = c;
		pthread_mutex_unlock(&wd.mutex);
	}
	for (int pass = 0; pass < 2; pass++) {
		bool eval = pass == 1;
		size_t sent = 0;
		for (size_t c = 0; c < chunks; c++) {
			size_t first = c * BATCH_MAX, k = MIN(BATCH_MAX, n - first);
			if (eval && wd.results[first] != -2) {
				continue;
			}
			int argc = wd_command(first, k, eval, numkeys, sizeof(numkeys));
			if (redisAppendCommandArgv(s->ctx, argc, wd.argv, wd.lens) != REDIS_OK) {
				wd_disconnect(s);
				return trips;
			}
			sent++;
		}
		if (sent == 0) {
			break;
		}
		trips++;
		int64_t deadline = deadline_of(s->read_timeout);
		if (!wd_flush(s->ctx, deadline)) {
			wd_disconnect(s);
			return trips;
		}
		for (size_t c = 0; c < chunks; c++) {
			size_t first = c * BATCH_MAX, k = MIN(BATCH_MAX, n - first);
			if (eval && wd.results[first] != -2) {
				continue;
			}
			if (!(r = wd_reply(s->ctx, deadline))) {
				for (size_t i = 0; i < n; i++) {
					if (wd.results[i] == -2) {
						wd.results[i] = -1;
					}
				}
				wd_disconnect(s);
				return trips;
			}
			wd_note(r, first, k);
			freeReplyObject(r);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (wd.results[i] == -2) {
			wd.results[i] = -1;
		}
	}
	return trips;
}

/* What the round trip that started at sent found, into the batch's entries. Mutex held. */
static void wd_apply(int64_t sent, int trips)
{
	int64_t now = (int64_t) rlock_now_ms();
	bool failed = false;

	wd.stats.round_trips += trips;
	for (size_t i = 0; i < wd.batch_len; i++) {
		rlock_watchdog_entry *e = wd.batch[i];
		e->in_flight = false;
		if (!e->linked) {
			/* let go while we talked */
			if (!e->held) {
				entry_free(e);
			}
			wd.results[i] = -1;  /* nobody to tell */
			continue;
		}
		int64_t ttl_sent = strtoll(wd.ttls[i], NULL, 10);
		switch (wd.results[i]) {
			case 1:
				/* extend() may have set another ttl meanwhile: the lease is at least the shorter */
				e->due = sent + period_of(MIN(ttl_sent, e->ttl));
				e->valid_until = sent + ttl_sent;
				wd.stats.renewals++;
				if (e->stats_key) {
					rlock_stats_count_hash(e->stats_key, RLOCK_STAT_RENEWALS);
				}
				break;
			case 0:
				mark_lost(e);
				wd.active--;
				wd.stats.losses++;
				break;
			default:
				e->due = now + retry_of(e->ttl);
				failed = true;
				if (e->stats_key) {
					rlock_stats_count_hash(e->stats_key, RLOCK_STAT_RENEWAL_FAILURES);
				}
				break;
		}
	}
	for (size_t i = 0; i < wd.batch_len; i++) {
		if (wd.results[i] == 0) {
			tell_lost(wd.batch[i]);
		}
	}
	if (failed) {
		wd.stats.failures++;
	}
	wd.batch_len = 0;
}

/* The earliest due time of a lock to renew. Mutex held. */
static int64_t wd_next_due(void)
{
	int64_t next = INT64_MAX;
	for (wd_server *s = wd.servers; s; s = s->next) {
		for (rlock_watchdog_entry *e = s->entries; e; e = e->next) {
			if (!is_lost(e) && e->due < next) {
				next = e->due;
			}
		}
	}
	return next;
}

/* Renew what is due, server by server. Mutex held, let go while talking. */
static void wd_round(int64_t now)
{
	/* A server is freed only by this thread, and new ones go to the head: s stays valid. */
	for (wd_server *s = wd.servers; s && !wd.stop && !wd.forking; s = s->next) {
		if (!wd_any_due(s, now) || wd_collect(s, now) == 0) {
			continue;
		}
		pthread_mutex_unlock(&wd.mutex);
		int trips = wd_send(s);
		pthread_mutex_lock(&wd.mutex);
		wd_apply(now, trips);
	}
}

/* The thread is ending: free the servers no lock refers to, and close its connections unless
 * it ends for a fork (the next thread uses them: the thread is outside hiredis, and a
 * connection whose reply it was waiting for was dropped). Mutex held. */
static void wd_close_all(void)
{
	wd_server **link = &wd.servers;
	while (*link) {
		wd_server *s = *link;
		if (s->ctx && (!wd.forking || s->nentries == 0)) {
			redisFree(s->ctx);
			s->ctx = NULL;
		}
		if (s->nentries == 0) {
			*link = s->next;
			server_free(s);
		} else {
			link = &s->next;
		}
	}
}

static void *wd_main(void *arg)
{
	int64_t idle_since = 0;
	(void) arg;

	pthread_mutex_lock(&wd.mutex);
	while (!wd.stop && !wd.forking) {
		int64_t now = (int64_t) rlock_now_ms();
		if (wd.active == 0) {
			if (idle_since == 0) {
				idle_since = now;
			}
			if (now - idle_since >= LINGER_MS) {
				break;
			}
			wd_wait(idle_since + LINGER_MS);
			continue;
		}
		idle_since = 0;
		int64_t next = wd_next_due();
		if (next > now) {
			wd_wait(next);
			continue;
		}
		wd_round(now);
	}
	wd_close_all();
	wd.running = false;
	pthread_mutex_unlock(&wd.mutex);
	return NULL;
}

/* ---- fork ---- */

/* The pipe that ends the thread's poll(): non-blocking, closed on exec; -1s without one (the
 * thread then ends when its wait does). */
static void interrupt_open(void)
{
	if (pipe(wd.interrupt) != 0) {
		wd.interrupt[0] = wd.interrupt[1] = -1;
		return;
	}
	for (int i = 0; i < 2; i++) {
		fcntl(wd.interrupt[i], F_SETFL, fcntl(wd.interrupt[i], F_GETFL) | O_NONBLOCK);
		fcntl(wd.interrupt[i], F_SETFD, FD_CLOEXEC);
	}
}

static void interrupt_close(void)
{
	for (int i = 0; i < 2; i++) {
		if (wd.interrupt[i] >= 0) {
			close(wd.interrupt[i]);
		}
		wd.interrupt[i] = -1;
	}
}

/* Ask the thread to end (wd.stop or wd.forking set) and wait until it has: mutex held, let go
 * while joining. */
static void wd_end_thread(void)
{
	char drain[16];

	if (wd.running) {
		pthread_cond_signal(&wd.wake);
		if (wd.interrupt[1] >= 0 && write(wd.interrupt[1], "x", 1) < 0) {
			/* full: a byte is there already */
		}
	}
	if (wd.joinable) {
		pthread_mutex_unlock(&wd.mutex);
		pthread_join(wd.thread, NULL);
		pthread_mutex_lock(&wd.mutex);
		wd.joinable = false;
	}
	while (wd.interrupt[0] >= 0 && read(wd.interrupt[0], drain, sizeof(drain)) > 0) {
	}
}

static int wd_start(void);

/* No thread runs at a fork (see the top of this file): end it, and hold the mutex across. */
static void wd_atfork_prepare(void)
{
	if (!wd.ready) {
		return;
	}
	pthread_mutex_lock(&wd.mutex);
	wd.forking = true;
	wd_end_thread();
}

/* The renewals go on in the parent, on a new thread. If it cannot start, the next lock
 * watched tries again. */
static void wd_atfork_parent(void)
{
	if (!wd.ready) {
		return;
	}
	wd.forking = false;
	if (wd.active > 0) {
		wd_start();
	}
	pthread_mutex_unlock(&wd.mutex);
}

static void wd_cond_init(void)
{
	pthread_condattr_t attr;
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&wd.wake, &attr);
	pthread_condattr_destroy(&attr);
}

/* Let go of every server, its connection and its entries. In a fork child (the parent's
 * thread ended outside hiredis before the fork), an entry a request still holds survives,
 * unlinked. */
static void servers_drop(bool child)
{
	wd_server *s = wd.servers, *next_s;
	for (; s; s = next_s) {
		next_s = s->next;
		rlock_watchdog_entry *e = s->entries, *next_e;
		for (; e; e = next_e) {
			next_e = e->next;
			e->prev = e->next = NULL;
			e->server = NULL;
			e->linked = false;
			if (!child || !e->held) {
				entry_free(e);
			}
		}
		if (s->ctx) {
			redisFree(s->ctx);
		}
		server_free(s);
	}
	wd.servers = NULL;
}

/* The child has no thread. Forget the parent's renewals: nothing is renewed here until the
 * child takes a lock of its own. The entries its registry still has are let go later. */
static void wd_atfork_child(void)
{
	if (!wd.ready) {
		return;
	}
	/* the thread ended sending no batch: no entry is in flight */
	servers_drop(true);
	wd.active = 0;
	wd.forking = false;
	wd.stats.watched = 0;
	/* the parent's pipe is not the child's to write to */
	interrupt_close();
	interrupt_open();
	/* the prepare handler locked it in this very thread */
	pthread_mutex_unlock(&wd.mutex);
}

/* ---- the request side ---- */

void rlock_watchdog_minit(void)
{
	static bool atfork_registered = false;

	if (wd.ready) {
		return;
	}
	pthread_mutex_init(&wd.mutex, NULL);
	wd_cond_init();
	interrupt_open();
	wd.script_source = rlock_script_renew.source;
	wd.script_sha = rlock_script_renew.sha;
	if (!atfork_registered) {
		/* glibc forgets the handlers of a shared object when it is unloaded */
		pthread_atfork(wd_atfork_prepare, wd_atfork_parent, wd_atfork_child);
		atfork_registered = true;
	}
	wd.ready = true;
}

void rlock_watchdog_mshutdown(void)
{
	if (!wd.ready) {
		return;
	}
	pthread_mutex_lock(&wd.mutex);
	wd.stop = true;
	wd_end_thread();
	pthread_mutex_unlock(&wd.mutex);
	interrupt_close();
	/* No request runs any more: what is left is ours. */
	servers_drop(false);
	free(wd.batch);
	free(wd.ttls);
	free(wd.results);
	free(wd.argv);
	free(wd.lens);
	wd.batch = NULL;
	wd.ttls = NULL;
	wd.results = NULL;
	wd.argv = NULL;
	wd.lens = NULL;
	wd.cap = 0;
	wd.ready = false;
	pthread_cond_destroy(&wd.wake);
	pthread_mutex_destroy(&wd.mutex);
}

/* The server of o, added if new. Mutex held. */
static wd_server *server_for(const rlock_opts *o)
{
	const rlock_server *rs = &o->server;
	wd_server *s;

	for (s = wd.servers; s; s = s->next) {
		if (s->id_len == ZSTR_LEN(rs->id) && memcmp(s->id, ZSTR_VAL(rs->id), s->id_len) == 0) {
			return s;
		}
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		return NULL;
	}
	s->id = copy_bytes(ZSTR_VAL(rs->id), ZSTR_LEN(rs->id));
	s->id_len = ZSTR_LEN(rs->id);
	s->host = copy_bytes(ZSTR_VAL(rs->host), ZSTR_LEN(rs->host));
	s->port = rs->port;
	s->db = (long) rs->db;
	if (rs->user) {
		s->user = copy_bytes(ZSTR_VAL(rs->user), ZSTR_LEN(rs->user));
		s->user_len = ZSTR_LEN(rs->user);
	}
	if (rs->pass) {
		s->pass = copy_bytes(ZSTR_VAL(rs->pass), ZSTR_LEN(rs->pass));
		s->pass_len = ZSTR_LEN(rs->pass);
	}
	s->connect_timeout = o->connect_timeout;
	s->read_timeout = o->read_timeout;
#ifdef RLOCK_HAVE_TLS
	if (rs->tls) {
		char why[256];
		zend_string *name = o->tls_server_name ? o->tls_server_name : rs->host;
		if ((s->tls = rlock_tls_ctx(o, why, sizeof(why)))) {
			SSL_CTX_up_ref(s->tls);
		}
		s->tls_name = copy_bytes(ZSTR_VAL(name), ZSTR_LEN(name));
		s->tls_verify = o->tls_verify_peer;
		if (!s->tls || !s->tls_name) {
			server_free(s);
			return NULL;
		}
	}
#endif
	if (!s->id || !s->host || (rs->user && !s->user) || (rs->pass && !s->pass)) {
		server_free(s);
		return NULL;
	}
	s->next = wd.servers;
	wd.servers = s;
	return s;
}

/* Start the thread unless it runs, with every signal blocked in it: the engine's timers
 * and pcntl's handlers must run on the request's thread. Mutex held. */
static int wd_start(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	if (wd.running || wd.forking) {
		/* after a fork, the parent handler starts it */
		return 0;
	}
	if (wd.joinable) {
		/* it ended by itself and let go of the mutex for good */
		pthread_join(wd.thread, NULL);
		wd.joinable = false;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK_SIZE);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&wd.thread, &attr, wd_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (rc == 0) {
		wd.running = wd.joinable = true;
		wd.stop = false;
	}
	return rc;
}

rlock_watchdog_entry *rlock_watchdog_watch(const rlock_opts *o, zend_string *key, zend_string *token,
	zend_long ttl, uint64_t stats_key, rlock_err *err)
{
	rlock_watchdog_entry *e = calloc(1, sizeof(*e));
	wd_server *s;
	int rc;

	if (!e || !(e->key = copy_bytes(ZSTR_VAL(key), ZSTR_LEN(key)))
			|| !(e->token = copy_bytes(ZSTR_VAL(token), ZSTR_LEN(token)))) {
		rlock_err_set(err, RLOCK_ERR_REPLY, o->server.label, "watchdog: out of memory");
		if (e) {
			entry_free(e);
		}
		return NULL;
	}
	e->key_len = ZSTR_LEN(key);
	e->token_len = ZSTR_LEN(token);
	e->ttl = ttl;
	e->stats_key = stats_key;
	e->held = true;
	e->lost_pending = &RLOCK_G(lost_pending);
	e->vm_interrupt = (void *) &EG(vm_interrupt);

	pthread_mutex_lock(&wd.mutex);
	if (!(s = server_for(o))) {
		pthread_mutex_unlock(&wd.mutex);
		rlock_err_set(err, RLOCK_ERR_REPLY, o->server.label, "watchdog: out of memory");
		entry_free(e);
		return NULL;
	}
	if ((rc = wd_start()) != 0) {
		pthread_mutex_unlock(&wd.mutex);
		rlock_err_set(err, RLOCK_ERR_REPLY, o->server.label, "cannot start the watchdog thread: %s", strerror(rc));
		entry_free(e);
		return NULL;
	}
	e->due = (int64_t) rlock_now_ms() + period_of(ttl);
	entry_link(s, e);
	wake_for(e->due);
	pthread_mutex_unlock(&wd.mutex);
	return e;
}

bool rlock_watchdog_unwatch(rlock_watchdog_entry *e)
{
	pthread_mutex_lock(&wd.mutex);
	bool lost = is_lost(e);
	if (e->linked) {
		entry_unlink(e);
	}
	e->held = false;
	if (!e->in_flight) {
		entry_free(e);
	}
	pthread_mutex_unlock(&wd.mutex);
	return lost;
}

bool rlock_watchdog_lost(const rlock_watchdog_entry *e)
{
	return is_lost(e);
}

void rlock_watchdog_set_ttl(rlock_watchdog_entry *e, zend_long ttl)
{
	pthread_mutex_lock(&wd.mutex);
	e->ttl = ttl;
	if (e->linked && !is_lost(e)) {
		e->due = (int64_t) rlock_now_ms() + period_of(ttl);
		wake_for(e->due);
	}
	pthread_mutex_unlock(&wd.mutex);
}

zend_long rlock_watchdog_valid_until(const rlock_watchdog_entry *e)
{
	pthread_mutex_lock(&wd.mutex);
	zend_long until = (zend_long) e->valid_until;
	pthread_mutex_unlock(&wd.mutex);
	return until;
}

void rlock_watchdog_get_stats(rlock_watchdog_stats *out)
{
	pthread_mutex_lock(&wd.mutex);
	*out = wd.stats;
	out->watched = wd.active;
	out->running = wd.running;
	pthread_mutex_unlock(&wd.mutex);
}

#else /* PHP_WIN32: no POSIX threads; the option fails at the first acquire */

struct rlock_watchdog_entry {
	int unused;
};

void rlock_watchdog_minit(void)
{
}

void rlock_watchdog_mshutdown(void)
{
}

rlock_watchdog_entry *rlock_watchdog_watch(const rlock_opts *o, zend_string *key, zend_string *token,
	zend_long ttl, uint64_t stats_key, rlock_err *err)
{
	(void) key;
	(void) token;
	(void) ttl;
	(void) stats_key;
	rlock_err_set(err, RLOCK_ERR_REPLY, o->server.label, "the watchdog needs POSIX threads, which this build lacks");
	return NULL;
}

bool rlock_watchdog_unwatch(rlock_watchdog_entry *e)
{
	(void) e;
	return false;
}

bool rlock_watchdog_lost(const rlock_watchdog_entry *e)
{
	(void) e;
	return false;
}

void rlock_watchdog_set_ttl(rlock_watchdog_entry *e, zend_long ttl)
{
	(void) e;
	(void) ttl;
}

zend_long rlock_watchdog_valid_until(const rlock_watchdog_entry *e)
{
	(void) e;
	return 0;
}

void rlock_watchdog_get_stats(rlock_watchdog_stats *out)
{
	memset(out, 0, sizeof(*out));
}

#endif
