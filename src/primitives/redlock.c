/* The lock over N independent masters: the Redlock algorithm.
 *
 * Every call goes to all masters at once (rlock_conn_fanout: one round trip, one timeout).
 * Acquire runs an acquire script everywhere with the same token and wins with a quorum of
 * N/2 + 1 while validity = ttl - elapsed - drift (0.01 * ttl + 2 ms) is left; otherwise it
 * gives back what it took.
 *
 * Waiters in order ('fair', the default): each master keeps a queue of the waiters
 * (redlock/acquire.lua), each with a ticket, its clock when it began to wait, sent alike to
 * every master, so that every master orders the waiters it has the same way. A master's
 * free key is taken only by the head of its queue (anyone when it is empty): a newcomer
 * joins the tail, never jumps it. A waiter that lost a vote stays on the queues (what it
 * took is given back, its place kept) and blocks on its own list on one master until a
 * release there wakes the head, or a round's time (a quarter of read_timeout) passes: then
 * it votes again, which renews its place (a place lives queue_lease() past its last round:
 * a waiter that died leaves the queues then). The rule for queues that disagree (a join
 * that missed a master) is in docs/design.md: each master serves its own head; a waiter
 * that got only a minority gives it back and keeps its place, and as the earliest ticket is
 * the head of every master it is on, it wins once it is on a quorum of them, which each of
 * its rounds sees to.
 *
 * 'fair' => false: the vote again and again (redlock_vote_acquire): a waiter blocks on the
 * first master that answered until a release wakes it, and every waiter runs the vote again,
 * newcomers too.
 *
 * Fencing tokens: each master counts its own; the holder takes the largest of its quorum
 * and raises the counters of its quorum to it, and has won only once a quorum confirmed the
 * raise (fence_floor), so any later quorum, which shares a master with this one, counts past
 * it. */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/redlock.h"
#include "src/stats/stats.h"
#include "src/primitives/scripts.h"
#include "src/transport/conn.h"
#include "src/primitives/lua.h"

#include <time.h>

/* src/primitives/lua/redlock/acquire.lua */
static rlock_script script_acquire = { .source = RLOCK_LUA_REDLOCK_ACQUIRE };

/* src/primitives/lua/redlock/release.lua */
static rlock_script script_release = { .source = RLOCK_LUA_REDLOCK_RELEASE };

/* src/primitives/lua/redlock/owner_pttl.lua */
static rlock_script script_owner_pttl = { .source = RLOCK_LUA_REDLOCK_OWNER_PTTL };

void rlock_redlock_minit(void)
{
	rlock_script_init(&script_acquire);
	rlock_script_init(&script_release);
	rlock_script_init(&script_owner_pttl);
}

/* The lock key, its companions, and those of the queue of waiters. */
typedef struct {
	rlock_keys k;
	zend_string *queue;  /* the waiters' tokens by ticket */
	zend_string *lease;  /* the same tokens by when their place ends */
	zend_string *selfp;  /* a waiter's own list: this, then its token */
} queue_keys;

static void queue_keys_init(queue_keys *q, zend_string *key)
{
	rlock_keys_init(&q->k, key);
	q->queue = rlock_keys_companion(key, "redlock-queue");
	q->lease = rlock_keys_companion(key, "redlock-lease");
	q->selfp = rlock_keys_self(&q->k, ZSTR_EMPTY_ALLOC());
}

static void queue_keys_free(queue_keys *q)
{
	rlock_keys_free(&q->k);
	zend_string_release(q->queue);
	zend_string_release(q->lease);
	zend_string_release(q->selfp);
}

/* How long a waiter's place on a queue lives past its last round: a waiter that died
 * holds up the queue that long at most. Its rounds come every queue_round() and may each
 * wait a read timeout for a master that stopped answering (and a connect timeout for one
 * that went away): three read timeouts leave room for that. */
static zend_long queue_lease(const rlock_opts *o)
{
	return 3 * o->read_timeout + o->connect_timeout;
}

/* The longest a waiter blocks on one master before it votes again: a master that stops
 * answering while waiters block on it costs them this (and the vote, a read timeout). */
static zend_long queue_round(const rlock_opts *o)
{
	return MAX(o->read_timeout / 4, 10);
}

/* A waiter's ticket: its clock in microseconds, which orders the waiters of all masters. */
static zend_long realtime_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (zend_long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static uint32_t quorum(const rlock_opts *o)
{
	return o->nservers / 2 + 1;
}

/* Replies of one fan-out: replies[i] NULL with errs[i] set where master i failed or
 * answered an error. */
typedef struct {
	redisReply *replies[RLOCK_MAX_SERVERS];
	rlock_err errs[RLOCK_MAX_SERVERS];
	uint32_t failed;
} fanout_result;

/* calls[i] to master i (none where NULL), EVAL where a master did not know the script:
 * the replies into fr at those i. */
static void fanout_once(const rlock_opts *o, rlock_call **calls, fanout_result *fr)
{
	const rlock_cmd *cmds[RLOCK_MAX_SERVERS];
	redisReply *replies[RLOCK_MAX_SERVERS];
	rlock_err errs[RLOCK_MAX_SERVERS];
	rlock_call eval[RLOCK_MAX_SERVERS];
	bool any = true;

	for (uint32_t i = 0; i < o->nservers; i++) {
		cmds[i] = calls[i] ? &calls[i]->cmd : NULL;
	}
	for (int pass = 0; pass < 2 && any; pass++) {
		memset(errs, 0, sizeof(errs));
		rlock_conn_fanout(o, o->nservers, o->servers, cmds, o->nservers, replies, errs);
		any = false;
		for (uint32_t i = 0; i < o->nservers; i++) {
			if (!cmds[i]) {
				continue;
			}
			fr->replies[i] = replies[i];
			fr->errs[i] = errs[i];
			cmds[i] = NULL;
			if (pass == 0 && replies[i] && (eval[i] = *calls[i], rlock_call_noscript(&eval[i], replies[i]))) {
				freeReplyObject(replies[i]);
				fr->replies[i] = NULL;
				cmds[i] = &eval[i].cmd;
				any = true;
			}
		}
	}
}

/* calls[i] to master i (none where NULL). Masters not ready yet (LOADING, ...) are asked
 * again after retry_delay, within the call, while a quorum needs them. */
static void fanout_each(const rlock_opts *o, rlock_call **calls, fanout_result *fr)
{
	rlock_call *todo[RLOCK_MAX_SERVERS];

	memset(fr, 0, sizeof(*fr));
	memcpy(todo, calls, sizeof(todo[0]) * o->nservers);
	for (;;) {
		uint32_t ready = 0, later = 0;
		fanout_once(o, todo, fr);
		for (uint32_t i = 0; i < o->nservers; i++) {
			bool not_ready = calls[i] && rlock_conn_not_ready(fr->replies[i]);
			todo[i] = not_ready ? calls[i] : NULL;
			later += not_ready;
			ready += calls[i] && fr->replies[i] && !not_ready;
		}
		if (later == 0 || ready >= quorum(o) || rlock_conn_left() <= o->retry_delay) {
			break;
		}
		for (uint32_t i = 0; i < o->nservers; i++) {
			if (todo[i]) {
				freeReplyObject(fr->replies[i]);
				fr->replies[i] = NULL;
			}
		}
		rlock_sleep_jittered(MAX(o->retry_delay, 2), rlock_conn_left());
	}
	for (uint32_t i = 0; i < o->nservers; i++) {
		if (calls[i] && (!fr->replies[i] || rlock_reply_error(&o->servers[i], fr->replies[i], &fr->errs[i]))) {
			fr->replies[i] = NULL;
			fr->failed++;
		}
	}
}

/* The call c to every master (or those in only[]). */
static void fanout(const rlock_opts *o, rlock_call *c, bool *only, fanout_result *fr)
{
	rlock_call *calls[RLOCK_MAX_SERVERS];
	for (uint32_t i = 0; i < o->nservers; i++) {
		calls[i] = !only || only[i] ? c : NULL;
	}
	fanout_each(o, calls, fr);
}

static void fanout_free(const rlock_opts *o, fanout_result *fr)
{
	for (uint32_t i = 0; i < o->nservers; i++) {
		if (fr->replies[i]) {
			freeReplyObject(fr->replies[i]);
			fr->replies[i] = NULL;
		}
	}
}

/* Too few masters answered for any answer to count: -1 with the first failure in err. */
static int no_quorum(const rlock_opts *o, fanout_result *fr, rlock_err *err)
{
	for (uint32_t i = 0; i < o->nservers; i++) {
		if (fr->errs[i].kind != RLOCK_ERR_NONE) {
			rlock_err_set(err, fr->errs[i].kind, "quorum", "%u of %u masters failed, first %s",
				fr->failed, o->nservers, fr->errs[i].msg);
			break;
		}
	}
	fanout_free(o, fr);
	return -1;
}

zend_long rlock_redlock_drift(zend_long ttl)
{
	return ttl / 100 + 2;
}

/* What is left of a lease of ttl ms taken at start, less the drift. */
static zend_long validity(zend_long ttl, zend_long start)
{
	return ttl - (rlock_now_ms() - start) - rlock_redlock_drift(ttl);
}

/* Release token (NULL: whoever holds it) on every master (or those in only[]), waking the
 * head of each queue; with a ticket (not 0) we stay on the queues with it (giving back
 * what a lost vote took). The number of masters where it was ours. */
static int release_all(const rlock_opts *o, queue_keys *q, zend_string *token, zend_long ticket, bool *only,
	fanout_result *fr)
{
	rlock_call c;
	zend_string *keys[5] = { q->k.keys[0], q->queue, q->lease, q->k.keys[1], q->k.keys[2] };
	int released = 0;

	rlock_call_start(&c, &script_release, 5, keys, NULL);
	rlock_call_token(&c, token);
	rlock_call_num(&c, 1, ticket);
	rlock_call_num(&c, 2, queue_lease(o));
	rlock_call_str(&c, q->selfp);
	fanout(o, &c, only, fr);
	for (uint32_t i = 0; i < o->nservers; i++) {
		if (fr->replies[i]) {
			released += fr->replies[i]->type == REDIS_REPLY_INTEGER && fr->replies[i]->integer > 0;
		}
	}
	return released;
}

/* Give back what a lost vote took (held[]), staying on the queues with ticket (0: not). */
static void give_back(const rlock_opts *o, queue_keys *q, zend_string *token, zend_long ticket, bool *held)
{
	fanout_result rr;
	release_all(o, q, token, ticket, held, &rr);
	fanout_free(o, &rr);
}

/* Raise the fencing counters of the masters we hold (held[]) to fence: the number of them
 * that confirmed it, the replies in fr.
 *
 * Why the acquire is won only when a quorum confirmed: W1 won quorum Q1 with token F1 (the
 * largest its masters issued) and raised the counters of R1, a quorum within Q1, to F1; the
 * script raises only while the lock there still holds W1's token, so each raise landed
 * while W1 had that master. A later holder W2 wins quorum Q2 after W1's hold ended; R1 and
 * Q2 are both quorums, so they share a master m, and W2 won m after W1's lock on m was gone,
 * so after the raise on m. Then m's counter was >= F1, and m issued max(clock, counter + 1)
 * > F1; F2, the largest of Q2, is past F1. Unless m's counter expired between: it lives
 * ttl + 10 s past its last token or raise, so then at least that long passed on m after F1
 * existed, and m issued its clock. F1 is at most the clock of the master that issued it
 * (scripts.c), so m's clock is past F1 as long as the masters' clocks agree within ttl + 10 s
 * (and none stepped back by more): the assumption README.md states. Counting raises on
 * masters we do not hold, or not confirmed, would break the first step: W2 may have won m
 * before the raise came, or m's counter never moved (its clock behind Q1's, F2 < F1). */
static uint32_t fence_floor(const rlock_opts *o, rlock_keys *k, bool *held, zend_long fence, zend_string *token,
	fanout_result *fr)
{
	rlock_call c;
	uint32_t raised = 0;

	rlock_call_fence_floor(&c, k, fence, token, o);
	fanout(o, &c, held, fr);
	for (uint32_t i = 0; i < o->nservers; i++) {
		raised += fr->replies[i] && fr->replies[i]->type == REDIS_REPLY_INTEGER && fr->replies[i]->integer == 1;
	}
	return raised;
}

/* Master i's answer to an acquire (both ways to wait): false when it gave none or a malformed
 * one (its error in fr); the reply is taken from fr. bare: the vote's, the mutex's script (its
 * pttl alone is an answer, wait_ms the wait it was sent); the queue's answers tables only. */
static bool attempt_of(const rlock_opts *o, fanout_result *fr, uint32_t i, bool bare, zend_long wait_ms,
	rlock_attempt *a)
{
	if (!fr->replies[i]) {
		return false;
	}
	bool ok = rlock_reply_attempt(&o->servers[i], fr->replies[i], bare, wait_ms, a, &fr->errs[i]);
	fr->replies[i] = NULL;
	return ok;
}

/* A master that answered "acquired": counted won when it holds our token, its fencing token
 * kept when the largest; the reply's token is let go. */
static void count_won(rlock_attempt *a, zend_string *token, bool *held, uint32_t *won, zend_long *fence)
{
	*held = zend_string_equals(a->token, token);
	*won += *held;
	*fence = MAX(*fence, a->fence);
	zend_string_release(a->token);
}

static int redlock_vote_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	queue_keys q;
	rlock_keys *k = &q.k;
	zend_long deadline = rlock_deadline(wait_ms);
	bool queued[RLOCK_MAX_SERVERS] = {0}, waiting = false;
	int rc = 0;
	zend_string *token = rlock_new_token(err);

	rlock_conn_begin(o, wait_ms);
	if (!token) {
		return -1;
	}
	queue_keys_init(&q, key);
	for (;;) {
		zend_long remaining = MAX(deadline - rlock_now_ms(), 0), start = rlock_now_ms();
		zend_long fence = 0, block = remaining;
		uint32_t won = 0, first = o->nservers;
		bool held[RLOCK_MAX_SERVERS] = {0};
		rlock_call counted, fresh, *calls[RLOCK_MAX_SERVERS];
		fanout_result fr;

		/* the same attempt everywhere, but each master knows whether it counts us already;
		 * with remaining == 0 this attempt is the last, and leaves the waiters */
		rlock_call_acquire(&counted, k, token, o, remaining, true, NULL);
		rlock_call_acquire(&fresh, k, token, o, remaining, false, NULL);
		for (uint32_t i = 0; i < o->nservers; i++) {
			calls[i] = queued[i] ? &counted : &fresh;
		}
		fanout_each(o, calls, &fr);
		if (fr.failed == o->nservers && !waiting) {
			rc = no_quorum(o, &fr, err);
			break;
		}
		for (uint32_t i = 0; i < o->nservers; i++) {
			rlock_attempt a;
			if (!attempt_of(o, &fr, i, true, remaining, &a)) {
				continue;
			}
			/* a master where we won (or gave up) no longer counts us; one where we wait does */
			queued[i] = !a.acquired && remaining > 0;
			first = MIN(first, i);
			if (a.acquired) {
				count_won(&a, token, &held[i], &won, &fence);
			} else if (a.pttl >= 0) {
				block = MIN(block, a.pttl + 1);
			}
		}
		fanout_result raise = {0};
		if (won >= quorum(o) && validity(o->ttl, start) > 0) {
			/* with fencing, won only where a quorum raised its counter, in time */
			bool raised = !o->fencing || (fence_floor(o, k, held, fence, token, &raise) >= quorum(o)
				&& validity(o->ttl, start) > 0);
			if (raised) {
				fanout_free(o, &raise);
				out->token = zend_string_copy(token);
				out->fence = o->fencing ? fence : 0;
				out->valid_until = start + o->ttl - rlock_redlock_drift(o->ttl);
				rc = 1;
				break;
			}
		}
		if (won > 0) {
			/* give back what we took; a master that did not answer in time lets it expire */
			give_back(o, &q, token, 0, held);
		}
		if (raise.failed > 0 && raise.failed == won && !waiting) {
			/* every raise failed (as a vote where every master failed) */
			rc = no_quorum(o, &raise, err);
			break;
		}
		fanout_free(o, &raise);
		if (remaining == 0) {
			break;
		}
		if (!waiting) {
			rlock_stats_waited();
			rlock_stats_waiters(1);
			waiting = true;
		}
		rlock_attempt a = {0};
		if (won == 0 && first < o->nservers
				&& rlock_lock_await(o, &o->servers[first], k, MIN(block, remaining), &a, err) == 1) {
			/* a hand-over meant for a one-server client of the same key: not ours to keep */
			zend_string_release(a.token);
		} else if (won > 0 || first == o->nservers) {
			rlock_sleep_jittered(o->retry_delay, MAX(deadline - rlock_now_ms(), 0));
		}
	}
	if (waiting) {
		rlock_stats_waiters(-1);
	}
	queue_keys_free(&q);
	zend_string_release(token);
	return rc;
}


/* Block on master s until a release there wakes us (our own list, self), or block_ms pass.
 * An idle Redis looks at a blocked command's timeout only on its 100 ms timer: a few ms
 * past block_ms the connection is closed instead (not woken from another connection, which
 * a master that stopped answering would not answer either): such a master costs the waiter
 * this one wait, and a wait ends on time at the caller's deadline. */
#define DEADLINE_GRACE_MS 10

static zend_long close_after(redisReply *none, void *block_ms, rlock_wake_how *how)
{
	(void) none;
	*how = RLOCK_WAKE_CLOSE;
	return *(zend_long *) block_ms + DEADLINE_GRACE_MS;
}

static void await_wake(const rlock_opts *o, const rlock_server *s, zend_string *self, zend_long block_ms)
{
	char timeout[32];
	rlock_cmd cmd = { .argc = 3, .argv = { "BLPOP", ZSTR_VAL(self), timeout }, .lens = { 5, ZSTR_LEN(self) } };
	rlock_block b = { .blocking = &cmd, .block_ms = block_ms, .wake_at = close_after, .arg = &block_ms };
	redisReply *r1, *r2;
	rlock_err ignored = {0};

	cmd.lens[2] = snprintf(timeout, sizeof(timeout), "%.3f", MAX(block_ms, 1) / 1000.0);
	if (rlock_conn_call_block(o, s, &b, &r1, &r2, &ignored) < 0) {
		/* the master went away: vote again after a pause (the vote tells who is left) */
		rlock_sleep_jittered(o->retry_delay, block_ms);
	} else if (r2) {
		freeReplyObject(r2);  /* a wake, nil, or anything else: the vote tells */
	}
}

/* One vote of a waiter in order: redlock/acquire.lua on every master. */
static void queue_call(rlock_call *c, const rlock_opts *o, queue_keys *q, zend_string *self, zend_string *token,
	bool wait, zend_long ticket)
{
	zend_string *keys[5] = { q->k.keys[0], q->queue, q->lease, q->k.keys[3], self };
	rlock_call_start(c, &script_acquire, 5, keys, NULL);
	rlock_call_str(c, token);
	rlock_call_num(c, 1, o->ttl);
	rlock_call_flag(c, o->fencing);
	rlock_call_flag(c, wait);
	rlock_call_num(c, 2, ticket);
	rlock_call_num(c, 3, queue_lease(o));
	rlock_call_num(c, 4, rlock_fence_keep(o->ttl));
	rlock_call_str(c, q->selfp);
}

/* Acquire with the waiters in order (the queues: see the top of this file). */
static int redlock_queue_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out,
	rlock_err *err)
{
	queue_keys q;
	zend_long deadline = rlock_deadline(wait_ms), ticket = realtime_us();
	bool waiting = false;
	int rc = 0;
	zend_string *token = rlock_new_token(err), *self;

	rlock_conn_begin(o, wait_ms);
	if (!token) {
		return -1;
	}
	queue_keys_init(&q, key);
	self = rlock_keys_self(&q.k, token);
	for (;;) {
		zend_long remaining = MAX(deadline - rlock_now_ms(), 0), start = rlock_now_ms();
		zend_long fence = 0, block = MIN(remaining, queue_round(o));
		uint32_t won = 0, on = o->nservers, queued = o->nservers;
		bool held[RLOCK_MAX_SERVERS] = {0}, ours_free = false;
		rlock_call c;
		fanout_result fr;

		/* with remaining == 0 this vote is the last, and leaves the queues */
		queue_call(&c, o, &q, self, token, remaining > 0, ticket);
		fanout(o, &c, NULL, &fr);
		if (fr.failed == o->nservers && !waiting) {
			rc = no_quorum(o, &fr, err);
			break;
		}
		for (uint32_t i = 0; i < o->nservers; i++) {
			rlock_attempt a;
			if (!attempt_of(o, &fr, i, false, remaining, &a)) {
				continue;
			}
			if (a.acquired) {
				count_won(&a, token, &held[i], &won, &fence);
				continue;
			}
			if (a.block == 0) {
				continue;  /* not on this queue (the last vote) */
			}
			queued = MIN(queued, i);
			if (a.pttl != -2 && on == o->nservers) {
				/* held there: its release wakes the head */
				on = i;
				if (a.pttl >= 0) {
					block = MIN(block, a.pttl + 1);
				}
			}
			/* our turn there, the key free: the other masters lag (a release on its way) */
			ours_free |= a.block == 1 && a.pttl == -2;
		}
		fanout_result raise = {0};
		if (won >= quorum(o) && validity(o->ttl, start) > 0) {
			/* with fencing, won only where a quorum raised its counter, in time */
			bool raised = !o->fencing || (fence_floor(o, &q.k, held, fence, token, &raise) >= quorum(o)
				&& validity(o->ttl, start) > 0);
			if (raised) {
				fanout_free(o, &raise);
				out->token = zend_string_copy(token);
				out->fence = o->fencing ? fence : 0;
				out->valid_until = start + o->ttl - rlock_redlock_drift(o->ttl);
				rc = 1;
				break;
			}
		}
		if (won > 0) {
			/* give back what we took, keeping our place (a master that did not answer in
			 * time lets it expire) */
			give_back(o, &q, token, remaining > 0 ? ticket : 0, held);
		}
		if (raise.failed > 0 && raise.failed == won && !waiting) {
			/* every raise failed (as a vote where every master failed) */
			rc = no_quorum(o, &raise, err);
			break;
		}
		fanout_free(o, &raise);
		if (remaining == 0) {
			break;
		}
		if (!waiting) {
			rlock_stats_waited();
			rlock_stats_waiters(1);
			waiting = true;
		}
		if (on < o->nservers) {
			await_wake(o, &o->servers[on], self, block);
		} else if ((ours_free || won > 0) && fr.failed == 0) {
			/* our turn where we are queued, held nowhere: the masters disagree for a moment
			 * (a release, a give-back on its way), or a join missed one, which this vote
			 * mended: soon again */
			rlock_sleep_jittered(MIN(o->retry_delay, 2), MAX(deadline - rlock_now_ms(), 0));
		} else if (queued == o->nservers || ours_free || won > 0) {
			/* on no queue, or too few masters answered for our turn to make a quorum */
			rlock_sleep_jittered(o->retry_delay, MAX(deadline - rlock_now_ms(), 0));
		} else {
			/* free, and another waiter's turn: its release (or its place's end) wakes us */
			await_wake(o, &o->servers[queued], self, block);
		}
	}
	if (waiting) {
		rlock_stats_waiters(-1);
	}
	zend_string_release(self);
	queue_keys_free(&q);
	zend_string_release(token);
	return rc;
}

static int redlock_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	return o->fair ? redlock_queue_acquire(o, key, wait_ms, out, err) : redlock_vote_acquire(o, key, wait_ms, out, err);
}

static int redlock_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	queue_keys q;
	fanout_result fr;

	rlock_conn_begin(o, 0);
	queue_keys_init(&q, key);
	int released = release_all(o, &q, h->token, 0, NULL, &fr);
	queue_keys_free(&q);
	if ((uint32_t) released < quorum(o) && fr.failed >= quorum(o)) {
		return no_quorum(o, &fr, err);
	}
	fanout_free(o, &fr);
	return (uint32_t) released >= quorum(o);
}

/* How many masters answered a one-key command with an integer for which yes() holds. */
typedef bool (*reply_test)(redisReply *r, zend_string *arg);

static int count_replies(const rlock_opts *o, rlock_call *c, reply_test yes, zend_string *arg, rlock_err *err)
{
	fanout_result fr;
	uint32_t n = 0;

	rlock_conn_begin(o, 0);
	fanout(o, c, NULL, &fr);
	if (fr.failed >= quorum(o)) {
		return no_quorum(o, &fr, err);
	}
	for (uint32_t i = 0; i < o->nservers; i++) {
		n += fr.replies[i] && yes(fr.replies[i], arg);
	}
	fanout_free(o, &fr);
	return (int) n;
}

static bool is_token(redisReply *r, zend_string *token)
{
	return rlock_reply_holds(r, token);
}

static bool exists(redisReply *r, zend_string *unused)
{
	(void) unused;
	return r->type == REDIS_REPLY_INTEGER && r->integer > 0;
}

/* Extend token's hold to ttl on every master, healing the masters that lost the key (a
 * restart without persistence, a failover) while the hold is valid: one round trip. Held
 * while a quorum still had our token and extended it, within the validity; a heal counts
 * only then. Where fewer did, the lock may have been someone else's in between (a majority
 * lost it at once, or the lease ran out): the heals are given back, and the lock is not
 * ours. A master where another token holds the key is never written. */
static int redlock_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	queue_keys q;
	rlock_keys *k = &q.k;
	rlock_call c;
	fanout_result fr;
	bool healed[RLOCK_MAX_SERVERS] = {0};
	uint32_t extended = 0, heals = 0;
	zend_long start = rlock_now_ms();

	rlock_conn_begin(o, 0);
	queue_keys_init(&q, key);
	/* A master that lost the key is set again only while our hold is valid by our clock,
	 * when no other owner can have had a quorum. Past it the lock may have been another's
	 * in between, and a heal an earlier call left (too few masters answered it, so nothing
	 * was given back, or its reply was lost) would count here as still ours: only the
	 * masters that kept our token then count, never one set again. */
	if (h->valid_until > start) {
		/* (the hold's fence, 0 or -1 none, not o's "fencing": a fenced hold re-entered by an
		 * object without it heals the counter all the same) */
		rlock_call_extend_heal(&c, k, h->token, ttl, MAX(h->fence, 0));
	} else {
		rlock_call_extend(&c, &k->keys[0], h->token, ttl);
	}
	fanout(o, &c, NULL, &fr);
	if (fr.failed >= quorum(o)) {
		queue_keys_free(&q);
		return no_quorum(o, &fr, err);
	}
	for (uint32_t i = 0; i < o->nservers; i++) {
		redisReply *r = fr.replies[i];
		if (r && r->type == REDIS_REPLY_INTEGER) {
			extended += r->integer == 1;
			healed[i] = r->integer == 2;
			heals += healed[i];
		}
	}
	fanout_free(o, &fr);
	if (extended < quorum(o) || validity(ttl, start) <= 0) {
		if (heals > 0) {
			give_back(o, &q, h->token, 0, healed);
		}
		queue_keys_free(&q);
		return 0;
	}
	queue_keys_free(&q);
	h->valid_until = start + ttl - rlock_redlock_drift(ttl);
	return 1;
}

static int redlock_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	rlock_call c = { .cmd = { .argc = 2, .argv = { "GET", ZSTR_VAL(key) }, .lens = { 3, ZSTR_LEN(key) } } };
	int n = count_replies(o, &c, is_token, token, err);
	return n < 0 ? -1 : (uint32_t) n >= quorum(o);
}

static int redlock_exists(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	rlock_call c = { .cmd = { .argc = 2, .argv = { "EXISTS", ZSTR_VAL(key) }, .lens = { 6, ZSTR_LEN(key) } } };
	int n = count_replies(o, &c, exists, NULL, err);
	return n < 0 ? -1 : (uint32_t) n >= quorum(o);
}

static int compare_long(const void *a, const void *b)
{
	zend_long x = *(const zend_long *) a, y = *(const zend_long *) b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* Call c on every master (a PTTL, or a script answering one): 1 and the quorum-th largest
 * of the answers from least up into *out, 0 when fewer masters gave one, -1 when too few
 * answered at all. */
static int quorum_pttl(const rlock_opts *o, rlock_call *c, zend_long least, zend_long *out, rlock_err *err)
{
	zend_long pttls[RLOCK_MAX_SERVERS];
	uint32_t n = 0;
	fanout_result fr;

	rlock_conn_begin(o, 0);
	fanout(o, c, NULL, &fr);
	if (fr.failed >= quorum(o)) {
		return no_quorum(o, &fr, err);
	}
	for (uint32_t i = 0; i < o->nservers; i++) {
		if (fr.replies[i] && fr.replies[i]->type == REDIS_REPLY_INTEGER && fr.replies[i]->integer >= least) {
			pttls[n++] = (zend_long) fr.replies[i]->integer;
		}
	}
	fanout_free(o, &fr);
	if (n < quorum(o)) {
		return 0;
	}
	qsort(pttls, n, sizeof(pttls[0]), compare_long);
	*out = pttls[quorum(o) - 1];
	return 1;
}

/* The lease a quorum of masters still has: the quorum-th largest PTTL (-2: none). */
static int redlock_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err)
{
	rlock_call c = { .cmd = { .argc = 2, .argv = { "PTTL", ZSTR_VAL(key) }, .lens = { 4, ZSTR_LEN(key) } } };
	int rc = quorum_pttl(o, &c, -2, out, err);

	if (rc == 0) {
		*out = -2;
	}
	return rc < 0 ? rc : 0;
}

/* Whether token holds the lock on a quorum, and the lease that quorum still has: the
 * quorum-th largest PTTL of the masters where the key holds token, in one round trip.
 * (The key's PTTL on every master, whoever holds it, would lend the restored hold the
 * lease of a contender's key, or of one that changed hands since it was found ours.) */
static int redlock_owner_pttl(const rlock_opts *o, zend_string *key, zend_string *token, zend_long *out,
	rlock_err *err)
{
	rlock_call c;

	rlock_call_start(&c, &script_owner_pttl, 1, &key, NULL);
	rlock_call_str(&c, token);
	return quorum_pttl(o, &c, -1, out, err);
}

const rlock_algo rlock_redlock_algo = {
	.kind = "lock",
	.acquire = redlock_acquire,
	.release = redlock_release,
	.extend = redlock_extend,
	.is_owner = redlock_is_owner,
	.exists = redlock_exists,
	.pttl = redlock_pttl,
	.owner_pttl = redlock_owner_pttl,
};

const rlock_algo *rlock_algo_of(const rlock_opts *o)
{
	return o->nservers > 0 ? &rlock_redlock_algo : &rlock_lock_algo;
}
