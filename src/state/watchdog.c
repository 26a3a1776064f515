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
 * Topologies: one round writes every server's batch, then reads every reply, so the waits
 * overlap. A Redlock lock is a group with a leg on each master (group_judge(): held while a
 * quorum renewed, a master that lost the key set again); a Sentinel lock's server asks the
 * Sentinels for the master at each new connection (wd_master()); a Cluster lock's key sits
 * on the node of its slot and moves where MOVED or ASK say, or to a seed when its node is
 * unreachable (wd_reroute()).
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
#include "src/transport/route.h"

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

/* What a renewal found (wd_server.results, a leg's state). */
enum {
	WD_UNKNOWN = -1,  /* no answer (unreachable, timeout, not sent) */
	WD_NOT_OURS = 0,  /* another token, or another type */
	WD_RENEWED = 1,
	WD_ABSENT = 2,    /* no key there (a Redlock master lost it), not set again */
	WD_HEALED = 3,    /* no key there, set again to our token (a Redlock leg, heal asked) */
	WD_EVAL = -2,     /* send again with EVAL: the server did not know the script */
	WD_MOVED = -3     /* a Cluster node named another for the key (MOVED, ASK): the entry's moved_* */
};

typedef struct wd_cluster wd_cluster;

/* A heal to give back (a Redlock master the thread set the key on again where no quorum
 * renewed it, or for a lock let go meanwhile): the key deleted there if it holds the token. */
typedef struct wd_giveback {
	struct wd_giveback *next;
	wd_server *server;
	char *key;
	size_t key_len;
	char *token;
	size_t token_len;
} wd_giveback;

/* A lock the request side watches: a lock on one server (linked in its server's entries), or
 * a Redlock lock over N masters (a group, in wd.groups), renewed through its legs, one per
 * master, each linked in its master's entries. A leg is no handle of the request side's: it
 * lives and dies with its group, and shares its key and token. */
struct rlock_watchdog_entry {
	rlock_watchdog_entry *prev, *next;  /* in server->entries (a group: wd.groups) while linked */
	wd_server *server;                  /* while linked; a group: NULL */
	char *key;
	size_t key_len;
	char *token;
	size_t token_len;
	char *fence_key;  /* a Redlock lock with fencing: its fencing counter (a leg: its group's) */
	size_t fence_key_len;
	int64_t fence;    /* a group: the hold's token, which a heal raises the counter back to */
	int64_t ttl;      /* ms */
	int64_t due;      /* monotonic ms of the next renewal (a leg: its group's) */
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
	/* Redlock */
	rlock_watchdog_entry *group;  /* a leg: its group; NULL otherwise */
	rlock_watchdog_entry *legs;   /* a group: its nlegs legs */
	uint32_t nlegs, quorum;
	uint32_t legs_in_flight;      /* a group: legs in the batches being sent */
	int64_t until;        /* a group: its validity, by our clock, as acquired or last renewed */
	int64_t ttl_sent;     /* a group: the ttl its legs were last sent with */
	bool in_round;        /* a group: its legs go in the round under way */
	bool heal;            /* a group: its legs heal a master that lost the key (valid now) */
	signed char state;    /* a leg: what its last renewal found (WD_*) */
	/* Cluster: the node a MOVED or ASK named (written by the thread while in flight) */
	bool asking;          /* the node it is on now has it for an ASK: ASKING before each renewal */
	bool moved_ask;
	int moved_port;
	char moved_host[256];
	uint8_t redirects;    /* redirects followed since the last answer */
	uint32_t seed_turn;   /* the seed to ask next when its node is unreachable */
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
	/* the batch being sent to it: the thread's scratch, grown under the mutex */
	rlock_watchdog_entry **batch;
	size_t batch_len;
	char (*ttls)[24];
	char (*fences)[2][24];  /* the fencing token a heal raises the counter to (0: none), its keep */
	signed char *results;  /* WD_* */
	size_t cap;
	int trips;        /* round trips of the batch */
	bool sent;        /* the batch went out whole: its replies are to be read */
	bool tried;       /* wd_send() ran for the batch this round */
	/* Sentinel: host and port are those of the master the Sentinels named at the last
	 * connect (the thread's to change) */
	wd_server **sentinels;
	uint32_t nsentinels;
	char *service;
	size_t service_len;
	bool tls_name_fixed;  /* tls_server_name given: not the master's host */
	wd_cluster *cluster;  /* a Cluster node: its cluster (one key per script call) */
};

/* A Redis Cluster the watchdog renews keys on: how a node of it is reached (like: its
 * credentials, database, timeouts, TLS; its host unused), and its seeds, where a key whose
 * node is unreachable is sent next (the node answers MOVED to the one that serves it now).
 * Freed only with every server. */
struct wd_cluster {
	wd_cluster *next;
	char *id;
	size_t id_len;
	wd_server *like;
	char **seed_hosts;
	int *seed_ports;
	uint32_t nseeds;
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
	rlock_watchdog_entry *groups;  /* the Redlock locks watched */
	wd_cluster *clusters;
	wd_giveback *givebacks;  /* the round's heals to give back: the thread's */
	int64_t round_cap;    /* no wait of the round under way goes past it; 0: none (the thread's) */
	uint32_t active;      /* linked entries (and groups) not lost */
	const char *script_source, *script_sha;
	/* one command's arguments: the thread's scratch (hiredis copies them at once) */
	const char **argv;
	size_t *lens;
	size_t args_cap;
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

/* Redlock's clock drift allowed for a lease of ttl ms (redlock.c's). */
static int64_t drift_of(int64_t ttl)
{
	return ttl / 100 + 2;
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

/* A lock on one server, or a group with its legs (never a leg alone). */
static void entry_free(rlock_watchdog_entry *e)
{
	free(e->legs);
	free(e->key);
	free(e->token);
	free(e->fence_key);
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
	free(s->batch);
	free(s->ttls);
	free(s->fences);
	free(s->results);
	for (uint32_t i = 0; i < s->nsentinels; i++) {
		server_free(s->sentinels[i]);
	}
	free(s->sentinels);
	free(s->service);
	free(s);
}

/* e into the list at *head. */
static void list_link(rlock_watchdog_entry **head, rlock_watchdog_entry *e)
{
	e->prev = NULL;
	e->next = *head;
	if (*head) {
		(*head)->prev = e;
	}
	*head = e;
	e->linked = true;
}

static void list_unlink(rlock_watchdog_entry **head, rlock_watchdog_entry *e)
{
	if (e->prev) {
		e->prev->next = e->next;
	} else {
		*head = e->next;
	}
	if (e->next) {
		e->next->prev = e->prev;
	}
	e->prev = e->next = NULL;
	e->linked = false;
}

/* e (a lock on s, or a leg on s) renewed from now on. */
static void entry_link(wd_server *s, rlock_watchdog_entry *e)
{
	e->server = s;
	list_link(&s->entries, e);
	s->nentries++;
	if (!e->group) {
		wd.active++;
	}
}

static void entry_unlink(rlock_watchdog_entry *e)
{
	wd_server *s = e->server;
	list_unlink(&s->entries, e);
	e->server = NULL;
	s->nentries--;
	if (!e->group && !is_lost(e)) {
		wd.active--;
	}
}

/* Stop renewing group g (its legs too). */
static void group_unlink(rlock_watchdog_entry *g)
{
	for (uint32_t i = 0; i < g->nlegs; i++) {
		if (g->legs[i].linked) {
			entry_unlink(&g->legs[i]);
		}
	}
	list_unlink(&wd.groups, g);
	if (!is_lost(g)) {
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

/* now + ms, but not past the end the round under way allows itself (wd_round()). */
static int64_t round_deadline_of(int64_t ms)
{
	int64_t d = deadline_of(ms);
	return wd.round_cap && wd.round_cap < d ? wd.round_cap : d;
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

	/* past the deadline, what is there already is still taken (a poll that does not wait):
	 * the replies of a round are read one server after another against one deadline, and
	 * a hung server read first must not cost the replies that came meanwhile from the others */
	n = poll(p, wd.interrupt[0] >= 0 ? 2 : 1, (int) MIN(MAX(left, 0), INT_MAX));
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

static redisContext *wd_connect(wd_server *s);

/* r, a Sentinel's answer to SENTINEL get-master-addr-by-name, into s's host and port. Replies
 * are input: a host of 1 to 255 bytes, none a NUL, a space or a control byte, and a TCP port
 * 1-65535, else false and s unchanged. */
static bool wd_master_from(wd_server *s, const redisReply *r)
{
	const redisReply *h, *p;
	long port = 0;
	char *host;

	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 || (h = r->element[0])->type != REDIS_REPLY_STRING
			|| (p = r->element[1])->type != REDIS_REPLY_STRING || h->len == 0 || h->len > 255
			|| p->len == 0 || p->len > 5) {
		return false;
	}
	for (size_t i = 0; i < h->len; i++) {
		if ((unsigned char) h->str[i] <= ' ' || h->str[i] == 0x7f) {
			return false;
		}
	}
	for (size_t i = 0; i < p->len; i++) {
		if (p->str[i] < '0' || p->str[i] > '9') {
			return false;
		}
		port = port * 10 + (p->str[i] - '0');
	}
	if (port < 1 || port > 65535 || !(host = copy_bytes(h->str, h->len))) {
		return false;
	}
#ifdef RLOCK_HAVE_TLS
	if (s->tls && !s->tls_name_fixed) {
		char *name = copy_bytes(h->str, h->len);
		if (!name) {
			free(host);
			return false;
		}
		free(s->tls_name);
		s->tls_name = name;
	}
#endif
	free(s->host);
	s->host = host;
	s->port = (int) port;
	return true;
}

/* Ask s's Sentinels, one after another, for the master of its service, on connections of
 * the moment: s's host and port set to the first master one names. False when none did. */
static bool wd_master(wd_server *s)
{
	const char *argv[3] = { "SENTINEL", "get-master-addr-by-name", s->service };
	size_t lens[3] = { 8, 23, s->service_len };

	for (uint32_t i = 0; i < s->nsentinels; i++) {
		wd_server *sentinel = s->sentinels[i];
		redisContext *c = wd_connect(sentinel);
		redisReply *r = NULL;
		if (c && redisAppendCommandArgv(c, 3, argv, lens) == REDIS_OK) {
			int64_t deadline = round_deadline_of(sentinel->read_timeout);
			if (wd_flush(c, deadline)) {
				r = wd_reply(c, deadline);
			}
		}
		if (c) {
			redisFree(c);
		}
		bool named = wd_master_from(s, r);
		if (r) {
			freeReplyObject(r);
		}
		if (named) {
			return true;
		}
	}
	return false;
}

/* A connection of the thread's own to s (with Sentinels: to the master they name now):
 * non-blocking, reply caps, AUTH, SELECT. NULL when it fails. It waits only in wd_poll():
 * the connect within connect_timeout, AUTH and SELECT (when there are any) within
 * read_timeout, and a fork's prepare handler ends any of it at once. Reads only fields of s
 * that never change, but for a Sentinel's master's address, which only the thread writes. */
static redisContext *wd_connect(wd_server *s)
{
	char why[256];
	int err = 0, n;
	socklen_t len = sizeof(err);
	int64_t deadline;

	if (s->nsentinels && !wd_master(s)) {
		return NULL;
	}
	redisContext *c = s->port ? redisConnectNonBlock(s->host, s->port) : redisConnectUnixNonBlock(s->host);

	/* the connect goes on in the background: writable once it is done, SO_ERROR says how */
	deadline = round_deadline_of(s->connect_timeout);
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
		deadline = round_deadline_of(s->read_timeout);
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

/* Keys per script call to s: a Cluster node refuses keys of different slots in one. */
static size_t chunk_of(const wd_server *s)
{
	return s->cluster ? 1 : BATCH_MAX;
}

/* Room in s's scratch for a batch of n, and in the arguments for a command of it. Mutex
 * held. */
static bool wd_reserve(wd_server *s, size_t n)
{
	size_t args = 3 + 6 * (n < BATCH_MAX ? n : BATCH_MAX);
	void *p;

	if (args > wd.args_cap) {
		if (!(p = realloc(wd.argv, args * sizeof(*wd.argv)))) return false;
		wd.argv = p;
		if (!(p = realloc(wd.lens, args * sizeof(*wd.lens)))) return false;
		wd.lens = p;
		wd.args_cap = args;
	}
	if (n <= s->cap) {
		return true;
	}
	size_t cap = n < 64 ? 64 : n;
	if (!(p = realloc(s->batch, cap * sizeof(*s->batch)))) return false;
	s->batch = p;
	if (!(p = realloc(s->ttls, cap * sizeof(*s->ttls)))) return false;
	s->ttls = p;
	if (!(p = realloc(s->fences, cap * sizeof(*s->fences)))) return false;
	s->fences = p;
	if (!(p = realloc(s->results, cap * sizeof(*s->results)))) return false;
	s->results = p;
	s->cap = cap;
	return true;
}

/* Whether anything on s goes in this round: a lock due, or a leg of a group that goes.
 * Mutex held. */
static bool wd_server_due(const wd_server *s, int64_t now)
{
	for (const rlock_watchdog_entry *e = s->entries; e; e = e->next) {
		if (e->group ? e->group->in_round : !is_lost(e) && e->due <= now) {
			return true;
		}
	}
	return false;
}

/* Put into s's batch every lock on s at least half-way to its due time (the ones due now and
 * the ones that may as well go with them) and the legs of the groups that go. Their count.
 * Mutex held. */
static size_t wd_collect(wd_server *s, int64_t now)
{
	size_t n = 0;

	if (!wd_reserve(s, s->nentries)) {
		/* a group's leg here stays WD_UNKNOWN */
		for (rlock_watchdog_entry *e = s->entries; e; e = e->next) {
			if (!e->group && e->due <= now) {
				e->due = now + retry_of(e->ttl);
			}
		}
		return 0;
	}
	for (rlock_watchdog_entry *e = s->entries; e; e = e->next) {
		rlock_watchdog_entry *g = e->group;
		if (g ? !g->in_round : is_lost(e) || now < e->due - period_of(e->ttl) / 2) {
			continue;
		}
		e->in_flight = true;
		s->batch[n] = e;
		/* a leg's ttl negative: heal the master if it lost the key (the renew script) */
		snprintf(s->ttls[n], sizeof(s->ttls[n]), "%" PRId64, g ? (g->heal ? -g->ttl_sent : g->ttl_sent) : e->ttl);
		/* and the fencing counter that went with the key raised back to the hold's token */
		int64_t fence = g && g->heal ? g->fence : 0;
		snprintf(s->fences[n][0], sizeof(s->fences[n][0]), "%" PRId64, fence);
		snprintf(s->fences[n][1], sizeof(s->fences[n][1]), "%" PRId64, fence ? (int64_t) rlock_fence_keep(g->ttl_sent) : 0);
		if (g) {
			g->legs_in_flight++;
		}
		n++;
	}
	s->batch_len = n;
	return n;
}

/* The command for s's batch[first, first + k): EVALSHA (or EVAL) script 2k keys... fencing
 * counters... tokens... ttls... fences... keeps... into the scratch argv; its argc. */
static int wd_command(wd_server *s, size_t first, size_t k, bool eval, char *numkeys, size_t numkeys_size)
{
	int argc = 0;
	wd.argv[argc] = eval ? "EVAL" : "EVALSHA";
	wd.lens[argc++] = eval ? 4 : 7;
	wd.argv[argc] = eval ? wd.script_source : wd.script_sha;
	wd.lens[argc++] = strlen(wd.argv[1]);
	wd.lens[argc] = (size_t) snprintf(numkeys, numkeys_size, "%zu", 2 * k);
	wd.argv[argc++] = numkeys;
	for (size_t i = first; i < first + k; i++) {
		wd.argv[argc] = s->batch[i]->key;
		wd.lens[argc++] = s->batch[i]->key_len;
	}
	for (size_t i = first; i < first + k; i++) {
		/* (none: the key's own name, in its slot, which the script leaves alone) */
		const rlock_watchdog_entry *e = s->batch[i];
		wd.argv[argc] = e->fence_key ? e->fence_key : e->key;
		wd.lens[argc++] = e->fence_key ? e->fence_key_len : e->key_len;
	}
	for (size_t i = first; i < first + k; i++) {
		wd.argv[argc] = s->batch[i]->token;
		wd.lens[argc++] = s->batch[i]->token_len;
	}
	for (size_t i = first; i < first + k; i++) {
		wd.argv[argc] = s->ttls[i];
		wd.lens[argc++] = strlen(s->ttls[i]);
	}
	for (int j = 0; j < 2; j++) {
		for (size_t i = first; i < first + k; i++) {
			wd.argv[argc] = s->fences[i][j];
			wd.lens[argc++] = strlen(s->fences[i][j]);
		}
	}
	return argc;
}

/* r, a Cluster node's "MOVED slot host:port" or "ASK slot host:port" (an empty host: s's),
 * into e's moved_*: whether it was one. Replies are input: a host of 1 to 255 bytes, none a
 * NUL, a space or a control byte, a port 1-65535. */
static bool wd_redirect(const wd_server *s, const redisReply *r, rlock_watchdog_entry *e)
{
	bool ask = r->type == REDIS_REPLY_ERROR && r->len > 4 && strncmp(r->str, "ASK ", 4) == 0;
	const char *end = r->str + r->len, *addr, *colon;
	long port = 0;

	if (r->type != REDIS_REPLY_ERROR || (!ask && (r->len <= 6 || strncmp(r->str, "MOVED ", 6) != 0))) {
		return false;
	}
	addr = memchr(r->str + (ask ? 4 : 6), ' ', end - r->str - (ask ? 4 : 6));
	if (!addr) {
		return false;
	}
	/* the port follows the last colon: an IPv6 host holds colons */
	for (colon = end - 1, addr++; colon >= addr && *colon != ':'; colon--) {
	}
	if (colon < addr || colon + 1 == end || end - colon - 1 > 5) {
		return false;
	}
	for (const char *p = colon + 1; p < end; p++) {
		if (*p < '0' || *p > '9') {
			return false;
		}
		port = port * 10 + (*p - '0');
	}
	const char *host = colon == addr ? s->host : addr;
	size_t len = colon == addr ? strlen(s->host) : (size_t) (colon - addr);
	if (port < 1 || port > 65535 || len == 0 || len >= sizeof(e->moved_host)) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if ((unsigned char) host[i] <= ' ' || host[i] == 0x7f) {
			return false;
		}
	}
	memcpy(e->moved_host, host, len);
	e->moved_host[len] = '\0';
	e->moved_port = (int) port;
	e->moved_ask = ask;
	return true;
}

/* The reply to s's batch[first, first + k) into its results. Replies are input: anything
 * but an array of k integers 0 to 3 tells nothing. */
static void wd_note(wd_server *s, redisReply *r, size_t first, size_t k)
{
	signed char v = WD_UNKNOWN;
	if (r->type == REDIS_REPLY_ERROR && r->len >= 8 && strncmp(r->str, "NOSCRIPT", 8) == 0) {
		v = WD_EVAL;
	}
	if (s->cluster && k == 1 && wd_redirect(s, r, s->batch[first])) {
		v = WD_MOVED;
	}
	if (r->type == REDIS_REPLY_ARRAY && r->elements == k) {
		for (size_t i = 0; i < k; i++) {
			redisReply *x = r->element[i];
			s->results[first + i] = x->type != REDIS_REPLY_INTEGER || x->integer < WD_NOT_OURS
				|| x->integer > WD_HEALED ? WD_UNKNOWN : (signed char) x->integer;
		}
		return;
	}
	memset(s->results + first, v, k);
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

/* Append the chunks of s's batch (eval: those the server did not know the script for) to its
 * connection and write them, by deadline. False (disconnected) when that failed. */
static bool wd_write(wd_server *s, bool eval, int64_t deadline, size_t *sent)
{
	size_t n = s->batch_len, chunk = chunk_of(s), chunks = (n + chunk - 1) / chunk;
	char numkeys[24];

	*sent = 0;
	for (size_t c = 0; c < chunks; c++) {
		size_t first = c * chunk, k = MIN(chunk, n - first);
		if (eval && s->results[first] != WD_EVAL) {
			continue;
		}
		/* a key an ASK sent here: the node takes the command only after ASKING */
		if (s->cluster && s->batch[first]->asking && redisAppendCommand(s->ctx, "ASKING") != REDIS_OK) {
			wd_disconnect(s);
			return false;
		}
		int argc = wd_command(s, first, k, eval, numkeys, sizeof(numkeys));
		if (redisAppendCommandArgv(s->ctx, argc, wd.argv, wd.lens) != REDIS_OK) {
			wd_disconnect(s);
			return false;
		}
		(*sent)++;
	}
	if (*sent > 0 && !wd_flush(s->ctx, deadline)) {
		wd_disconnect(s);
		return false;
	}
	return true;
}

/* Read the replies to what wd_write() sent, by deadline. False (disconnected) when that
 * failed. */
static bool wd_read(wd_server *s, bool eval, int64_t deadline)
{
	size_t n = s->batch_len, chunk = chunk_of(s), chunks = (n + chunk - 1) / chunk;
	redisReply *r;
	bool stale = false;

	for (size_t c = 0; c < chunks; c++) {
		size_t first = c * chunk, k = MIN(chunk, n - first);
		if (eval && s->results[first] != WD_EVAL) {
			continue;
		}
		if (s->cluster && s->batch[first]->asking) {
			/* ASKING's +OK (or an error, which the command's reply tells again) */
			if (!(r = wd_reply(s->ctx, deadline))) {
				wd_disconnect(s);
				return false;
			}
			freeReplyObject(r);
		}
		if (!(r = wd_reply(s->ctx, deadline))) {
			wd_disconnect(s);
			return false;
		}
		wd_note(s, r, first, k);
		/* a Sentinel's master that answers an error (READONLY: a replica now) is asked no
		 * more: the next renewal asks the Sentinels again */
		stale |= s->nsentinels && r->type == REDIS_REPLY_ERROR && s->results[first] != WD_EVAL;
		freeReplyObject(r);
	}
	if (stale) {
		wd_disconnect(s);
		return false;
	}
	return true;
}

/* The first half of a round trip: s's batch written (its results all WD_UNKNOWN till read),
 * connecting first if need be. Outside the mutex: the batch's entries are in flight and
 * their keys and tokens do not change. */
static void wd_send(wd_server *s)
{
	size_t sent;

	memset(s->results, WD_UNKNOWN, s->batch_len);
	s->trips = 0;
	s->sent = false;
	if (!s->ctx) {
		redisContext *c = wd_connect(s);
		if (!c) {
			return;
		}
		pthread_mutex_lock(&wd.mutex);
		s->ctx = c;
		pthread_mutex_unlock(&wd.mutex);
	}
	s->trips = 1;
	s->sent = wd_write(s, false, round_deadline_of(s->read_timeout), &sent);
}

/* The second half: the replies, by deadline (every server's batch was written before: the
 * waits overlap); once more with EVAL where the server had to learn the script. Outside
 * the mutex. */
static void wd_receive(wd_server *s, int64_t deadline)
{
	size_t sent = 0;

	if (s->sent && wd_read(s, false, deadline)) {
		for (size_t c = 0; c < s->batch_len; c += chunk_of(s)) {
			sent += s->results[c] == WD_EVAL;
		}
		if (sent > 0) {
			s->trips++;
			deadline = round_deadline_of(s->read_timeout);
			if (wd_write(s, true, deadline, &sent)) {
				wd_read(s, true, deadline);
			}
		}
	}
	for (size_t i = 0; i < s->batch_len; i++) {
		if (s->results[i] == WD_EVAL) {
			s->results[i] = WD_UNKNOWN;
		}
	}
}

static wd_server *node_for(wd_cluster *cl, const char *host, size_t host_len, int port);

/* e on s, a Cluster node, to the node a MOVED or ASK named, renewed there at once (a few
 * redirects in a row at most: then as a failure); when s could not be reached, to the next
 * seed, which names the node that serves e's slot now (the promoted replica after a
 * failover). Whether it went elsewhere (its renewal as not done). Mutex held. */
static bool wd_reroute(wd_server *s, rlock_watchdog_entry *e, signed char result, int64_t now)
{
	wd_cluster *cl = s->cluster;
	wd_server *to = NULL;

	if (result == WD_MOVED && e->redirects < 5) {
		to = node_for(cl, e->moved_host, strlen(e->moved_host), e->moved_port);
		e->redirects++;
		e->asking = e->moved_ask;
		e->due = now;
	} else if (result == WD_UNKNOWN && !s->ctx && cl->nseeds > 0) {
		/* unreachable: tried again soon (a failure, as the caller counts it), by way of a seed */
		uint32_t seed = e->seed_turn++ % cl->nseeds;
		to = node_for(cl, cl->seed_hosts[seed], strlen(cl->seed_hosts[seed]), cl->seed_ports[seed]);
		e->asking = false;
		e->redirects = 0;
		if (to && to != s) {
			entry_unlink(e);
			entry_link(to, e);
		}
		return false;
	} else if (result != WD_MOVED) {
		e->redirects = 0;
		return false;
	}
	if (!to) {
		/* out of memory, or redirected too often: as a failure */
		e->redirects = 0;
		return false;
	}
	if (to != s) {
		entry_unlink(e);
		entry_link(to, e);
	}
	return true;
}

/* Give back, after this round, the heal the thread made of key on s (a Redlock master that
 * had lost it): no quorum renewed the lock in the same round, or it was let go while the
 * round was under way (an unlock() whose release came before the renewal). Otherwise the
 * key, set again under a token nobody holds any more, would keep everyone out for a whole
 * lease: after a forceUnlock(), after a release. Out of memory: it expires with its lease.
 * Mutex held. */
static void giveback_add(wd_server *s, const char *key, size_t key_len, const char *token, size_t token_len)
{
	wd_giveback *b = calloc(1, sizeof(*b));

	if (b && (b->key = copy_bytes(key, key_len)) && (b->token = copy_bytes(token, token_len))) {
		b->server = s;
		b->key_len = key_len;
		b->token_len = token_len;
		b->next = wd.givebacks;
		wd.givebacks = b;
		return;
	}
	if (b) {
		free(b->key);
		free(b);
	}
}

static void giveback_free(wd_giveback *b)
{
	while (b) {
		wd_giveback *next = b->next;
		free(b->key);
		free(b->token);
		free(b);
		b = next;
	}
}

/* Send the round's give-backs, each on its master's connection of the thread's (none there
 * now: it expires with its lease): the renew script with a ttl of 0, which deletes the key
 * where it still holds the token (PEXPIRE 0) and touches nothing else; every one written,
 * then every reply read, within a read timeout. EVAL: the script may be gone from a master
 * that restarted. Mutex held, let go while talking. */
static void wd_give_back(void)
{
	wd_giveback *list = wd.givebacks, *b;
	int64_t timeout = 0, deadline;

	wd.givebacks = NULL;
	if (!list) {
		return;
	}
	pthread_mutex_unlock(&wd.mutex);
	for (b = list; b; b = b->next) {
		wd_server *s = b->server;
		const char *argv[9] = { "EVAL", wd.script_source, "2", b->key, b->key, b->token, "0", "0", "0" };
		size_t lens[9] = { 4, strlen(wd.script_source), 1, b->key_len, b->key_len, b->token_len, 1, 1, 1 };
		if (s->ctx && redisAppendCommandArgv(s->ctx, 9, argv, lens) != REDIS_OK) {
			wd_disconnect(s);
		}
	}
	for (b = list; b; b = b->next) {
		wd_server *s = b->server;
		if (s->ctx && !wd_flush(s->ctx, deadline_of(s->read_timeout))) {
			wd_disconnect(s);
		}
	}
	for (b = list; b; b = b->next) {
		timeout = MAX(timeout, b->server->read_timeout);
	}
	deadline = deadline_of(timeout);
	for (b = list; b; b = b->next) {
		wd_server *s = b->server;
		redisReply *r;
		if (s->ctx) {
			if ((r = wd_reply(s->ctx, deadline))) {
				freeReplyObject(r);
			} else {
				wd_disconnect(s);
			}
		}
	}
	pthread_mutex_lock(&wd.mutex);
	giveback_free(list);
}

/* What the round trip to s that started at sent found, into the batch's entries (a leg's
 * into its state: its group is judged once every leg is in). Mutex held. */
static void wd_apply(wd_server *s, int64_t sent)
{
	int64_t now = (int64_t) rlock_now_ms();
	bool failed = false;

	wd.stats.round_trips += s->trips;
	for (size_t i = 0; i < s->batch_len; i++) {
		rlock_watchdog_entry *e = s->batch[i], *g = e->group;
		e->in_flight = false;
		if (g) {
			g->legs_in_flight--;
		}
		if (!e->linked) {
			/* let go while we talked: a heal came after the release, or in its place */
			if (g && s->results[i] == WD_HEALED) {
				giveback_add(s, e->key, e->key_len, e->token, e->token_len);
			}
			/* a group is freed with its last leg in flight */
			if (g ? !g->held && g->legs_in_flight == 0 : !e->held) {
				entry_free(g ? g : e);
			}
			s->results[i] = WD_UNKNOWN;  /* nobody to tell */
			s->batch[i] = NULL;
			continue;
		}
		int64_t ttl_sent = strtoll(s->ttls[i], NULL, 10);
		if (g) {
			e->state = s->results[i];
			e->valid_until = sent + (ttl_sent < 0 ? -ttl_sent : ttl_sent);
			continue;
		}
		if (s->cluster && wd_reroute(s, e, s->results[i], now)) {
			s->results[i] = WD_UNKNOWN;
			continue;
		}
		switch (s->results[i]) {
			case WD_RENEWED:
			case WD_HEALED:
				/* extend() may have set another ttl meanwhile: the lease is at least the shorter */
				e->due = sent + period_of(MIN(ttl_sent, e->ttl));
				e->valid_until = sent + ttl_sent;
				wd.stats.renewals++;
				if (e->stats_key) {
					rlock_stats_count_hash(e->stats_key, RLOCK_STAT_RENEWALS);
				}
				break;
			case WD_NOT_OURS:
			case WD_ABSENT:
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
	for (size_t i = 0; i < s->batch_len; i++) {
		if (s->batch[i] && !s->batch[i]->group && (s->results[i] == WD_NOT_OURS || s->results[i] == WD_ABSENT)) {
			tell_lost(s->batch[i]);
		}
	}
	if (failed) {
		wd.stats.failures++;
	}
}

/* Group g is lost (not told yet). Mutex held. */
static void group_lose(rlock_watchdog_entry *g)
{
	mark_lost(g);
	for (uint32_t i = 0; i < g->nlegs; i++) {
		mark_lost(&g->legs[i]);
	}
	wd.active--;
	wd.stats.losses++;
}

/* Judge group g once every leg's renewal sent at sent is in: held while a quorum of masters
 * renewed it (their keys still held our token), its validity then the quorum-th longest
 * lease less the drift; a heal (a master that had lost the key, set again) counts only then.
 * Fewer than a quorum renewed: lost at once when the masters that did not answer could not
 * make up the quorum, else tried again soon until its validity ends. Whether it is lost.
 * Mutex held. */
static bool group_judge(rlock_watchdog_entry *g, int64_t sent, int64_t now)
{
	int64_t untils[RLOCK_MAX_SERVERS];
	uint32_t ours = 0, unknown = 0, n = 0;

	for (uint32_t i = 0; i < g->nlegs; i++) {
		rlock_watchdog_entry *l = &g->legs[i];
		ours += l->state == WD_RENEWED;
		unknown += l->state == WD_UNKNOWN;
		if (l->state == WD_RENEWED || l->state == WD_HEALED) {
			/* longest first */
			uint32_t j = n++;
			for (; j > 0 && untils[j - 1] < l->valid_until; j--) {
				untils[j] = untils[j - 1];
			}
			untils[j] = l->valid_until;
		}
	}
	if (ours < g->quorum || untils[g->quorum - 1] - drift_of(g->ttl_sent) <= now) {
		/* the heals do not count: given back */
		for (uint32_t i = 0; i < g->nlegs; i++) {
			rlock_watchdog_entry *l = &g->legs[i];
			if (l->state == WD_HEALED && l->server) {
				giveback_add(l->server, l->key, l->key_len, l->token, l->token_len);
				l->state = WD_ABSENT;
			}
		}
	}
	/* a quorum renewed, and its leases are not over already (the replies came late) */
	if (ours >= g->quorum && untils[g->quorum - 1] - drift_of(g->ttl_sent) > now) {
		g->until = g->valid_until = untils[g->quorum - 1] - drift_of(g->ttl_sent);
		g->due = sent + period_of(MIN(g->ttl_sent, g->ttl));
		wd.stats.renewals++;
		if (g->stats_key) {
			rlock_stats_count_hash(g->stats_key, RLOCK_STAT_RENEWALS);
		}
		return false;
	}
	if (ours + unknown >= g->quorum && g->until > now) {
		g->due = MIN(now + retry_of(g->ttl), g->until);
		wd.stats.failures++;
		if (g->stats_key) {
			rlock_stats_count_hash(g->stats_key, RLOCK_STAT_RENEWAL_FAILURES);
		}
		return false;
	}
	group_lose(g);
	return true;
}

/* The earliest due time of a lock to renew. Mutex held. */
static int64_t wd_next_due(void)
{
	int64_t next = INT64_MAX;
	for (wd_server *s = wd.servers; s; s = s->next) {
		for (rlock_watchdog_entry *e = s->entries; e; e = e->next) {
			if (!e->group && !is_lost(e) && e->due < next) {
				next = e->due;
			}
		}
	}
	for (rlock_watchdog_entry *g = wd.groups; g; g = g->next) {
		if (!is_lost(g) && g->due < next) {
			next = g->due;
		}
	}
	return next;
}

/* Renew what is due: every server's batch written, then every reply read, so the waits
 * overlap (a Redlock lock's masters are asked together, one read timeout for all). Mutex
 * held, let go while talking. */
static void wd_round(int64_t now)
{
	/* A server is freed only by this thread, and new ones go to the head: the list from
	 * first on stays as it is while the mutex is let go. */
	wd_server *first = wd.servers;
	int64_t start = now;
	bool any = false;
	/* The round waits (connects, replies) at most half the shortest lease in it: a hung
	 * server (or a read timeout longer than a lease) must not hold up the next renewal of
	 * the locks on the other servers, a group's other masters among them, until their
	 * leases ran out, another process taking a lock while its owner still held it. */
	int64_t cap = INT64_MAX;

	/* a group whose validity ended with no quorum renewing it is lost now, not after a round
	 * (another process may take it as soon as its leases end, a drift later) */
	for (rlock_watchdog_entry *g = wd.groups; g; g = g->next) {
		if (!is_lost(g) && g->until <= now) {
			group_lose(g);
			tell_lost(g);
		}
	}
	/* the groups that go: the due ones, and those half-way that may as well go with them */
	for (rlock_watchdog_entry *g = wd.groups; g; g = g->next) {
		g->in_round = !is_lost(g) && now >= g->due - period_of(g->ttl) / 2;
		if (g->in_round) {
			g->heal = g->until > now;
			g->ttl_sent = g->ttl;
			for (uint32_t i = 0; i < g->nlegs; i++) {
				g->legs[i].state = WD_UNKNOWN;
			}
		}
	}
	for (wd_server *s = first; s; s = s->next) {
		s->batch_len = 0;
		if (wd_server_due(s, now) && wd_collect(s, now) > 0) {
			any = true;
		}
	}
	if (any) {
		/* ... and a lock that is not in it must not wait past half a period after its due time */
		for (wd_server *s = first; s; s = s->next) {
			s->tried = false;
			for (size_t i = 0; i < s->batch_len; i++) {
				rlock_watchdog_entry *e = s->batch[i];
				cap = MIN(cap, start + MAX((e->group ? e->group->ttl_sent : e->ttl) / 2, 1));
			}
			for (rlock_watchdog_entry *e = s->entries; e; e = e->next) {
				if (!e->group && !e->in_flight && !is_lost(e)) {
					cap = MIN(cap, e->due + period_of(e->ttl) / 2);
				}
			}
		}
		/* ... nor past a group's validity: lost then, at the next round's start */
		for (rlock_watchdog_entry *g = wd.groups; g; g = g->next) {
			if (!g->in_round && !is_lost(g)) {
				cap = MIN(cap, g->due + period_of(g->ttl) / 2);
			}
			if (!is_lost(g)) {
				cap = MIN(cap, g->until);
			}
		}
		wd.round_cap = cap;
		pthread_mutex_unlock(&wd.mutex);
		/* the servers connected first, then those to connect to (a connect may wait) */
		for (int pass = 0; pass < 2; pass++) {
			for (wd_server *s = first; s; s = s->next) {
				if (s->batch_len > 0 && !s->tried && (pass == 1 || s->ctx)) {
					s->tried = true;
					wd_send(s);
				}
			}
		}
		/* every server's replies awaited from one moment on */
		int64_t sent = (int64_t) rlock_now_ms();
		for (wd_server *s = first; s; s = s->next) {
			if (s->batch_len > 0) {
				int64_t deadline = s->read_timeout > INT64_MAX - sent ? INT64_MAX : sent + s->read_timeout;
				wd_receive(s, MIN(deadline, cap));
			}
		}
		wd.round_cap = 0;
		pthread_mutex_lock(&wd.mutex);
		for (wd_server *s = first; s; s = s->next) {
			if (s->batch_len > 0) {
				wd_apply(s, start);
			}
			s->batch_len = 0;
		}
	}
	now = (int64_t) rlock_now_ms();
	for (rlock_watchdog_entry *g = wd.groups; g; g = g->next) {
		if (g->in_round) {
			g->in_round = false;
			if (group_judge(g, start, now)) {
				tell_lost(g);
			}
		}
	}
	wd_give_back();
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

static void cluster_free(wd_cluster *cl);

/* Let go of every server, its connection and its entries, and of every group. In a fork
 * child (the parent's thread ended outside hiredis before the fork), an entry a request
 * still holds survives, unlinked. */
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
			/* a leg goes with its group */
			if (!e->group && (!child || !e->held)) {
				entry_free(e);
			}
		}
		if (s->ctx) {
			redisFree(s->ctx);
		}
		server_free(s);
	}
	wd.servers = NULL;
	rlock_watchdog_entry *g = wd.groups, *next_g;
	for (; g; g = next_g) {
		next_g = g->next;
		g->prev = g->next = NULL;
		g->linked = false;
		if (!child || !g->held) {
			entry_free(g);
		}
	}
	wd.groups = NULL;
	giveback_free(wd.givebacks);
	wd.givebacks = NULL;
	for (wd_cluster *cl = wd.clusters, *next_cl; cl; cl = next_cl) {
		next_cl = cl->next;
		cluster_free(cl);
	}
	wd.clusters = NULL;
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
	free(wd.argv);
	free(wd.lens);
	wd.argv = NULL;
	wd.lens = NULL;
	wd.args_cap = 0;
	wd.ready = false;
	pthread_cond_destroy(&wd.wake);
	pthread_mutex_destroy(&wd.mutex);
}

/* A new server of the thread's, reached as rs (over TLS when tls), named id; NULL when out
 * of memory. Mutex held. */
static wd_server *server_new(const rlock_opts *o, const rlock_server *rs, bool tls, zend_string *id)
{
	wd_server *s = calloc(1, sizeof(*s));

	if (!s) {
		return NULL;
	}
	s->id = copy_bytes(ZSTR_VAL(id), ZSTR_LEN(id));
	s->id_len = ZSTR_LEN(id);
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
	if (tls) {
		char why[256];
		zend_string *name = o->tls_server_name ? o->tls_server_name : rs->host;
		if ((s->tls = rlock_tls_ctx(o, why, sizeof(why)))) {
			SSL_CTX_up_ref(s->tls);
		}
		s->tls_name = copy_bytes(ZSTR_VAL(name), ZSTR_LEN(name));
		s->tls_verify = o->tls_verify_peer;
		s->tls_name_fixed = o->tls_server_name != NULL;
		if (!s->tls || !s->tls_name) {
			server_free(s);
			return NULL;
		}
	}
#else
	(void) tls;
#endif
	if (!s->id || !s->host || (rs->user && !s->user) || (rs->pass && !s->pass)) {
		server_free(s);
		return NULL;
	}
	return s;
}

/* The server known as id, or NULL. Mutex held. */
static wd_server *server_find(zend_string *id)
{
	for (wd_server *s = wd.servers; s; s = s->next) {
		if (s->id_len == ZSTR_LEN(id) && memcmp(s->id, ZSTR_VAL(id), s->id_len) == 0) {
			return s;
		}
	}
	return NULL;
}

static void server_add(wd_server *s)
{
	s->next = wd.servers;
	wd.servers = s;
}

/* The server rs (of o), added if new. Mutex held. */
static wd_server *server_for(const rlock_opts *o, const rlock_server *rs)
{
	wd_server *s = server_find(rs->id);
	if (!s && (s = server_new(o, rs, rs->tls, rs->id))) {
		server_add(s);
	}
	return s;
}

/* The master o's Sentinels name for its service, with o->server's credentials and database
 * (over TLS when tls_nodes), asked of them at each new connection: after a failover, the
 * renewal that fails (the old master gone, or a replica now: READONLY) connects again, to
 * the master they name then. Added if new. Mutex held. */
static wd_server *sentinel_server_for(const rlock_opts *o)
{
	smart_str id = {0};
	wd_server *s;

	smart_str_append(&id, o->id);
	smart_str_appendc(&id, '\2');
	smart_str_append(&id, o->server.id);
	smart_str_0(&id);
	if ((s = server_find(id.s)) || !(s = server_new(o, &o->server, o->tls_nodes, id.s))) {
		smart_str_free(&id);
		return s;
	}
	smart_str_free(&id);
	s->service = copy_bytes(ZSTR_VAL(o->service), ZSTR_LEN(o->service));
	s->service_len = ZSTR_LEN(o->service);
	s->sentinels = calloc(o->nsentinels, sizeof(*s->sentinels));
	if (!s->service || !s->sentinels) {
		server_free(s);
		return NULL;
	}
	for (uint32_t i = 0; i < o->nsentinels; i++, s->nsentinels++) {
		if (!(s->sentinels[i] = server_new(o, &o->sentinels[i], o->sentinels[i].tls, o->sentinels[i].id))) {
			server_free(s);
			return NULL;
		}
	}
	server_add(s);
	return s;
}

/* The node host:port of cluster cl, added if new: reached as cl->like is (both sides call
 * it: plain C). NULL when out of memory. Mutex held. */
static wd_server *node_for(wd_cluster *cl, const char *host, size_t host_len, int port)
{
	wd_server *s, *like = cl->like;
	size_t id_len = cl->id_len + host_len + 16;

	for (s = wd.servers; s; s = s->next) {
		if (s->cluster == cl && s->port == port && strlen(s->host) == host_len && memcmp(s->host, host, host_len) == 0) {
			return s;
		}
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		return NULL;
	}
	s->cluster = cl;
	s->host = copy_bytes(host, host_len);
	s->port = port;
	if ((s->id = malloc(id_len))) {
		s->id_len = (size_t) snprintf(s->id, id_len, "%s\3%s:%d", cl->id, s->host ? s->host : "", port);
	}
	s->db = like->db;
	if (like->user) {
		s->user = copy_bytes(like->user, like->user_len);
		s->user_len = like->user_len;
	}
	if (like->pass) {
		s->pass = copy_bytes(like->pass, like->pass_len);
		s->pass_len = like->pass_len;
	}
	s->connect_timeout = like->connect_timeout;
	s->read_timeout = like->read_timeout;
#ifdef RLOCK_HAVE_TLS
	if (like->tls) {
		SSL_CTX_up_ref(like->tls);
		s->tls = like->tls;
		s->tls_verify = like->tls_verify;
		s->tls_name = like->tls_name_fixed ? copy_bytes(like->tls_name, strlen(like->tls_name)) : copy_bytes(host, host_len);
		if (!s->tls_name) {
			server_free(s);
			return NULL;
		}
	}
#endif
	if (!s->host || !s->id || (like->user && !s->user) || (like->pass && !s->pass)) {
		server_free(s);
		return NULL;
	}
	server_add(s);
	return s;
}

static void cluster_free(wd_cluster *cl)
{
	for (uint32_t i = 0; i < cl->nseeds; i++) {
		free(cl->seed_hosts[i]);
	}
	free(cl->seed_hosts);
	free(cl->seed_ports);
	if (cl->like) {
		server_free(cl->like);
	}
	free(cl->id);
	free(cl);
}

/* o's Cluster, added if new. NULL when out of memory. Mutex held. */
static wd_cluster *cluster_for(const rlock_opts *o)
{
	smart_str id = {0};
	wd_cluster *cl;

	smart_str_append(&id, o->id);
	smart_str_appendc(&id, '\2');
	smart_str_append(&id, o->server.id);
	smart_str_0(&id);
	for (cl = wd.clusters; cl; cl = cl->next) {
		if (cl->id_len == ZSTR_LEN(id.s) && memcmp(cl->id, ZSTR_VAL(id.s), cl->id_len) == 0) {
			smart_str_free(&id);
			return cl;
		}
	}
	if (!(cl = calloc(1, sizeof(*cl)))) {
		smart_str_free(&id);
		return NULL;
	}
	cl->id = copy_bytes(ZSTR_VAL(id.s), ZSTR_LEN(id.s));
	cl->id_len = ZSTR_LEN(id.s);
	cl->like = server_new(o, &o->server, o->tls_nodes, id.s);
	smart_str_free(&id);
	cl->seed_hosts = calloc(o->nnodes, sizeof(*cl->seed_hosts));
	cl->seed_ports = calloc(o->nnodes, sizeof(*cl->seed_ports));
	if (!cl->id || !cl->like || !cl->seed_hosts || !cl->seed_ports) {
		cluster_free(cl);
		return NULL;
	}
	for (uint32_t i = 0; i < o->nnodes; i++, cl->nseeds++) {
		if (!(cl->seed_hosts[i] = copy_bytes(ZSTR_VAL(o->nodes[i].host), ZSTR_LEN(o->nodes[i].host)))) {
			cluster_free(cl);
			return NULL;
		}
		cl->seed_ports[i] = o->nodes[i].port;
	}
	cl->next = wd.clusters;
	wd.clusters = cl;
	return cl;
}

/* The node of o's Cluster that renews key first: the one this process' slot map names for
 * its slot, else the first seed. Mutex held. */
static wd_server *cluster_node_for(const rlock_opts *o, zend_string *key)
{
	wd_cluster *cl = cluster_for(o);
	const char *host;
	int port;

	if (!cl) {
		return NULL;
	}
	if (rlock_route_known_node(o, key, &host, &port)) {
		return node_for(cl, host, strlen(host), port);
	}
	return node_for(cl, cl->seed_hosts[0], strlen(cl->seed_hosts[0]), cl->seed_ports[0]);
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

/* The lock over o's Redlock masters: a group, and a leg on each master. Mutex not held. */
static rlock_watchdog_entry *group_watch(const rlock_opts *o, rlock_watchdog_entry *g, zend_long valid_until,
	rlock_err *err)
{
	wd_server *servers[RLOCK_MAX_SERVERS];
	int rc;

	if (!(g->legs = calloc(o->nservers, sizeof(*g->legs)))) {
		rlock_err_set(err, RLOCK_ERR_REPLY, o->servers[0].label, "watchdog: out of memory");
		entry_free(g);
		return NULL;
	}
	g->nlegs = o->nservers;
	g->quorum = o->nservers / 2 + 1;
	for (uint32_t i = 0; i < g->nlegs; i++) {
		rlock_watchdog_entry *l = &g->legs[i];
		l->group = g;
		l->key = g->key;
		l->key_len = g->key_len;
		l->token = g->token;
		l->token_len = g->token_len;
		l->fence_key = g->fence_key;
		l->fence_key_len = g->fence_key_len;
		l->ttl = g->ttl;
		l->held = true;
		l->state = WD_RENEWED;
	}

	pthread_mutex_lock(&wd.mutex);
	for (uint32_t i = 0; i < g->nlegs; i++) {
		if (!(servers[i] = server_for(o, &o->servers[i]))) {
			/* the servers made so far go when the thread ends (no entry on them) */
			pthread_mutex_unlock(&wd.mutex);
			rlock_err_set(err, RLOCK_ERR_REPLY, o->servers[i].label, "watchdog: out of memory");
			entry_free(g);
			return NULL;
		}
	}
	if ((rc = wd_start()) != 0) {
		pthread_mutex_unlock(&wd.mutex);
		rlock_err_set(err, RLOCK_ERR_REPLY, o->servers[0].label, "cannot start the watchdog thread: %s", strerror(rc));
		entry_free(g);
		return NULL;
	}
	int64_t now = (int64_t) rlock_now_ms();
	/* as the acquire found it: its leases were set when it sent, which may be a read timeout
	 * before now (a hung master awaited); restore(): what the lease has left. Renewed by half
	 * of it at the latest. */
	g->until = now + g->ttl - drift_of(g->ttl);
	if (valid_until > 0 && valid_until < g->until) {
		g->until = valid_until;
	}
	g->due = MIN(now + period_of(g->ttl), now + MAX((g->until - now) / 2, 0));
	for (uint32_t i = 0; i < g->nlegs; i++) {
		entry_link(servers[i], &g->legs[i]);
	}
	list_link(&wd.groups, g);
	wd.active++;
	wake_for(g->due);
	pthread_mutex_unlock(&wd.mutex);
	return g;
}

rlock_watchdog_entry *rlock_watchdog_watch(const rlock_opts *o, zend_string *key, zend_string *token,
	zend_long fence, zend_long ttl, zend_long valid_until, uint64_t stats_key, rlock_err *err)
{
	rlock_watchdog_entry *e = calloc(1, sizeof(*e));
	/* a heal sets a Redlock master's fencing counter back too (the key's companion): the
	 * hold's fence says, not o's "fencing" (a fenced hold re-entered by an object without it) */
	zend_string *counter = o->nservers > 0 && fence > 0 ? rlock_keys_companion(key, "fence") : NULL;
	wd_server *s;
	int rc;

	if (!e || !(e->key = copy_bytes(ZSTR_VAL(key), ZSTR_LEN(key)))
			|| !(e->token = copy_bytes(ZSTR_VAL(token), ZSTR_LEN(token)))
			|| (counter && !(e->fence_key = copy_bytes(ZSTR_VAL(counter), ZSTR_LEN(counter))))) {
		rlock_err_set(err, RLOCK_ERR_REPLY, o->server.label, "watchdog: out of memory");
		if (e) {
			entry_free(e);
		}
		if (counter) {
			zend_string_release(counter);
		}
		return NULL;
	}
	if (counter) {
		e->fence_key_len = ZSTR_LEN(counter);
		e->fence = fence;
		zend_string_release(counter);
	}
	e->key_len = ZSTR_LEN(key);
	e->token_len = ZSTR_LEN(token);
	e->ttl = ttl;
	e->stats_key = stats_key;
	e->held = true;
	e->lost_pending = &RLOCK_G(lost_pending);
	e->vm_interrupt = (void *) &EG(vm_interrupt);
	if (o->nservers > 0) {
		return group_watch(o, e, valid_until, err);
	}

	pthread_mutex_lock(&wd.mutex);
	if (!(s = o->nnodes ? cluster_node_for(o, key) : o->nsentinels ? sentinel_server_for(o) : server_for(o, &o->server))) {
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
	if (e->legs) {
		/* a group: freed by the thread if a leg is in flight */
		if (e->linked) {
			group_unlink(e);
		}
		e->held = false;
		if (e->legs_in_flight == 0) {
			entry_free(e);
		}
		pthread_mutex_unlock(&wd.mutex);
		return lost;
	}
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

void rlock_watchdog_set_ttl(rlock_watchdog_entry *e, zend_long ttl, zend_long valid_until)
{
	pthread_mutex_lock(&wd.mutex);
	e->ttl = ttl;
	if (e->linked && !is_lost(e)) {
		int64_t now = (int64_t) rlock_now_ms();
		e->due = now + period_of(ttl);
		if (e->legs) {
			/* extend() just set every master's lease to ttl: the validity is what it found,
			 * even when shorter than the last renewal's (its leases are gone sooner now) */
			e->until = valid_until;
		}
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
	zend_long fence, zend_long ttl, zend_long valid_until, uint64_t stats_key, rlock_err *err)
{
	(void) key;
	(void) token;
	(void) fence;
	(void) ttl;
	(void) valid_until;
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

void rlock_watchdog_set_ttl(rlock_watchdog_entry *e, zend_long ttl, zend_long valid_until)
{
	(void) e;
	(void) ttl;
	(void) valid_until;
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
