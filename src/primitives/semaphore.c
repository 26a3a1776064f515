/* The semaphore on one Redis server: N permits, each holder's with a lease; acquire,
 * release, the wait, first come first served.
 *
 * The keys, companions of the semaphore's lock key L (scripts.c names them; they share L's
 * hash slot):
 * - holders, a sorted set: each holder token scored with the ms its lease ends by the
 *   server's clock (the convention the watchdog's renew script keeps, so it renews a
 *   semaphore's holders unchanged), and, scored negative so that a range of leases (0, now]
 *   never meets them: "#" token -> -(permits the holder has), "#used" -> -(permits held in
 *   all), "%" token -> the ticket that last gave the holder permits (-(its first 13 hex
 *   digits + 1): exact in a double), so that an acquire whose reply was lost and that is
 *   sent again (lock.c waits on through a dropped connection; the object's next acquire)
 *   finds itself served and takes nothing twice, and "!" token -> the semaphore's permits as
 *   that holder names them, less 2^53 (below every other score, exact in a double): the
 *   smallest of them bounds every admission while that holder holds (rolling deploys, a
 *   mistaken count: a semaphore never admits more than any of its holders' counts). The key
 *   lives at least as long as the longest lease: when it expires every lease has ended, and
 *   nothing else is left.
 * - holders "-queue", a list of tickets (one per waiting acquire() call) in order of arrival,
 *   and holders "-waiters", a hash: ticket -> "n ttl deadline token limit" (how many permits,
 *   the lease to give, when the ticket dies unless its waiter comes back, the holder to
 *   credit, the semaphore's permits as the waiter names them: what the queue is served by
 *   while it is the head).
 * - holders "-self-" ticket: the list the waiter of that ticket BLPOPs on.
 *
 * Every script first gives back the permits of holders whose lease ended, then serves the
 * queue from its head while the head's permits fit (within its own count and within the
 * smallest count of the holders, fits()): it credits them to the head's holder
 * and pushes "g <permits that holder has now>" on the head's own list; the waiter owns them
 * the moment its BLPOP returns (as a lock is handed over). A head that does not fit stops
 * the queue: a waiter for 3 is not starved by a stream of 1-permit takers, and a newcomer
 * takes permits only when nobody waits. A waiter waits through lock.c's rlock_lock_wait():
 * its acquire script and its BLPOP in one write, no polling; it wakes itself when the first
 * lease ends (the holder may have crashed), a lease given later that ends sooner wakes the
 * head (serve()), and a dead waiter's ticket is dropped once its deadline passed: a waiter
 * that died in the queue delays the next by its round and a second, or, served first, by
 * its own lease.
 *
 * What a contended section costs Redis: the waiter's acquire (8 commands in its script, the
 * ticket queued), its BLPOP, and the holder's release (16: its permits back, the head
 * served); 27 commands in all. */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/semaphore.h"
#include "src/primitives/scripts.h"
#include "src/primitives/lua.h"
#include "src/transport/route.h"

/* src/primitives/lua/semaphore/acquire.lua */
static rlock_script script_acquire = { .source = RLOCK_LUA_SEMAPHORE_ACQUIRE };

/* src/primitives/lua/semaphore/release.lua */
static rlock_script script_release = { .source = RLOCK_LUA_SEMAPHORE_RELEASE };

/* src/primitives/lua/semaphore/available.lua */
static rlock_script script_available = { .source = RLOCK_LUA_SEMAPHORE_AVAILABLE };

/* src/primitives/lua/semaphore/holds.lua */
static rlock_script script_holds = { .source = RLOCK_LUA_SEMAPHORE_HOLDS };

void rlock_semaphore_minit(void)
{
	rlock_script_init(&script_acquire);
	rlock_script_init(&script_release);
	rlock_script_init(&script_available);
	rlock_script_init(&script_holds);
}

/* The role of the holders' key among the semaphore's companions. */
#define HOLDERS "semaphore"

zend_string *rlock_semaphore_key(zend_string *full)
{
	return rlock_keys_companion(full, HOLDERS);
}

zend_string *rlock_semaphore_name(zend_string *key)
{
	return rlock_keys_companion_name(key, HOLDERS);
}

/* The keys: holders, queue, waiters, and self (NULL without a ticket). */
static void keys_init(rlock_keys *k, zend_string *key, zend_string *ticket)
{
	k->tagged = false;  /* unused: the companions here are the holders key and a suffix */
	k->keys[0] = zend_string_copy(key);
	k->keys[1] = zend_string_concat2(ZSTR_VAL(key), ZSTR_LEN(key), "-queue", sizeof("-queue") - 1);
	k->keys[2] = zend_string_concat2(ZSTR_VAL(key), ZSTR_LEN(key), "-waiters", sizeof("-waiters") - 1);
	k->keys[3] = ticket ? zend_string_concat3(ZSTR_VAL(key), ZSTR_LEN(key), "-self-", sizeof("-self-") - 1,
		ZSTR_VAL(ticket), ZSTR_LEN(ticket)) : NULL;
}

static void keys_free(rlock_keys *k)
{
	for (int i = 0; i < 4; i++) {
		if (k->keys[i]) {
			zend_string_release(k->keys[i]);
		}
	}
}

/* What a waiter's rounds send (rlock_waiter.arg). */
typedef struct {
	rlock_keys k;
	zend_string *ticket;
	zend_long n;
	zend_long limit;
	zend_long ttl;
	bool sent;  /* a call with the ticket was made */
} sem_request;

/* The acquire script, as rlock_lock_wait() runs it: self set, a win pushes "1" on it (the
 * ticket's own list, which the BLPOP that follows watches). The script knows itself whether
 * the ticket is queued. */
static void sem_call(rlock_call *c, const rlock_waiter *w, const rlock_opts *o, zend_long wait_ms, bool queued,
	zend_string *self)
{
	sem_request *q = w->arg;
	(void) o;
	(void) queued;
	rlock_call_start(c, &script_acquire, 4, q->k.keys, NULL);
	rlock_call_str(c, w->token);
	rlock_call_num(c, 1, q->n);
	rlock_call_num(c, 2, q->limit);
	rlock_call_num(c, 3, q->ttl);
	rlock_call_num(c, 4, wait_ms);
	rlock_call_str(c, q->ticket);
	rlock_call_flag(c, self != NULL);
	rlock_call_flag(c, !q->sent);
	q->sent = true;
}

/* A grant, "g <permits the holder has now>" popped from our own list: taken as the script's
 * win says it (the permits, 1 to limit, in res->fence; res->block the lease, our ttl). */
static int sem_grant(const redisReply *r, const rlock_waiter *w, rlock_attempt *res)
{
	const sem_request *q = w->arg;
	zend_long n;
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[1]->type != REDIS_REPLY_STRING
			|| r->element[1]->len < 3 || strncmp(r->element[1]->str, "g ", 2) != 0
			|| !rlock_parse_number(r->element[1]->str + 2, r->element[1]->len - 2, q->limit, &n) || n < 1) {
		return 0;
	}
	res->acquired = true;
	res->token = zend_string_copy(w->token);
	res->fence = n;
	res->block = q->ttl;
	return 1;
}

int rlock_semaphore_acquire(const rlock_opts *o, zend_string *key, zend_long limit, zend_long n, zend_long wait_ms,
	rlock_hold *h, zend_long *held, rlock_sem_lost *lost, rlock_err *err)
{
	sem_request q = { .n = n, .limit = limit, .ttl = o->ttl };
	rlock_attempt res = {0};
	zend_long deadline = rlock_deadline(wait_ms);
	int rc = 0;

	rlock_conn_begin(o, wait_ms);
	if (!h->token && !(h->token = rlock_new_token(err))) {
		return -1;
	}
	if (lost->ticket && lost->n != n) {
		/* asked for another count: what the lost acquire took goes back first */
		zend_long left;
		if (rlock_semaphore_release(o, key, h->token, limit, lost->n, lost->ticket, &left, err) < 0) {
			return -1;
		}
		zend_string_release(lost->ticket);
		lost->ticket = NULL;
	}
	if (lost->ticket) {
		/* the lost acquire sent again: served already, it wins with what it took */
		q.ticket = lost->ticket;
		q.sent = true;
		lost->ticket = NULL;
	} else if (!(q.ticket = rlock_new_token(err))) {
		return -1;
	}
	keys_init(&q.k, key, q.ticket);
	rlock_waiter w = { .k = &q.k, .token = h->token, .call = sem_call, .grant = sem_grant, .arg = &q,
		.self = zend_string_copy(q.k.keys[3]), .sent = rlock_now_ms() };
	/* as the lock's first attempt: a key not found taken lately is tried alone, without
	 * queueing (one round trip, no BLPOP); then, or at once for a hot key, the rounds of the
	 * script and the BLPOP in one write (with wait 0, the script alone) */
	bool hot = rlock_lock_key_hot(key);
	if (!hot) {
		rlock_call c;
		sem_call(&c, &w, o, 0, false, NULL);
		redisReply *r = rlock_lock_run(o, key, &c, err);
		rc = r && rlock_reply_attempt(rlock_route_answered(o), r, false, 0, &res, err) ? res.acquired : -1;
		if (rc == 0) {
			rlock_lock_mark_hot(key);
		}
	}
	if (rc == 0 && (hot || deadline > rlock_now_ms())) {
		if (deadline > rlock_now_ms()) {
			rlock_lock_mark_hot(key);
		}
		rc = rlock_lock_wait(o, &w, deadline, &res, err);
	}
	if (res.token) {
		zend_string_release(res.token);
	}
	zend_string_release(w.self);
	keys_free(&q.k);
	if (rc < 0 && q.sent) {
		/* Redis may have acted on the ticket all the same (taken, or queued it) */
		lost->ticket = q.ticket;
		lost->n = n;
	} else {
		zend_string_release(q.ticket);
	}
	if (rc == 1) {
		h->valid_until = w.sent + o->ttl;
		/* the script's third element, or a grant's count: the permits token has now (a
		 * semaphore has no fence) */
		*held = MIN(MAX(res.fence, n), limit);
	}
	return rc;
}

int rlock_semaphore_release(const rlock_opts *o, zend_string *key, zend_string *token, zend_long limit, zend_long n,
	zend_string *lost, zend_long *left, rlock_err *err)
{
	rlock_keys k;
	rlock_call c;

	rlock_conn_begin(o, 0);
	keys_init(&k, key, NULL);
	rlock_call_start(&c, &script_release, 3, k.keys, NULL);
	rlock_call_str(&c, token);
	rlock_call_num(&c, 1, n);
	if (lost) {
		rlock_call_str(&c, lost);
	}
	redisReply *r = rlock_lock_run(o, key, &c, err);
	keys_free(&k);
	if (!r || !rlock_reply_integer(rlock_route_answered(o), r, -1, limit, left, err)) {
		return -1;
	}
	return *left >= 0;
}

static int sem_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	zend_long left;
	return rlock_semaphore_release(o, key, h->token, RLOCK_MS_MAX, 0, NULL, &left, err);
}

/* Whether token holds permits under a lease that has not ended, asked of Redis. */
static int sem_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	rlock_call c;
	zend_long n;

	rlock_conn_begin(o, 0);
	rlock_call_start(&c, &script_holds, 1, &key, NULL);
	rlock_call_str(&c, token);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	return r && rlock_reply_integer(rlock_route_answered(o), r, 0, RLOCK_MS_MAX, &n, err) ? n > 0 : -1;
}

/* The watchdog's renew script on the one holder: its lease to ttl from now. */
static int sem_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	rlock_call c;
	zend_long sent = rlock_now_ms();

	rlock_conn_begin(o, 0);
	/* (no fencing counter: the key's own name in its place, a fencing token of 0) */
	rlock_call_start(&c, &rlock_script_renew, 1, &key, key);
	rlock_call_str(&c, h->token);
	rlock_call_num(&c, 1, ttl);
	rlock_call_num(&c, 2, 0);
	rlock_call_num(&c, 3, 0);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	if (!r) {
		return -1;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 1 || r->element[0]->type != REDIS_REPLY_INTEGER
			|| r->element[0]->integer < 0 || r->element[0]->integer > 1) {
		rlock_err_set(err, RLOCK_ERR_REPLY, rlock_route_answered(o)->label, "unexpected reply to the renew script");
		freeReplyObject(r);
		return -1;
	}
	int yes = r->element[0]->integer == 1;
	freeReplyObject(r);
	if (yes) {
		h->valid_until = sent + ttl;
	}
	return yes;
}

int rlock_semaphore_available(const rlock_opts *o, zend_string *key, zend_long limit, zend_long *out, rlock_err *err)
{
	rlock_call c;

	rlock_conn_begin(o, 0);
	rlock_call_start(&c, &script_available, 1, &key, NULL);
	rlock_call_num(&c, 1, limit);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	return r && rlock_reply_integer(rlock_route_answered(o), r, 0, limit, out, err) ? 0 : -1;
}

const rlock_algo rlock_semaphore_algo = {
	.kind = "semaphore",
	.shared = true,
	.stats_name = rlock_semaphore_name,
	.release = sem_release,
	.extend = sem_extend,
	.is_owner = sem_is_owner,
};
