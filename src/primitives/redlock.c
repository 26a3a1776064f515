/* The lock over N independent masters: the Redlock algorithm.
 *
 * Every call goes to all masters at once (rlock_conn_fanout: one round trip, one timeout).
 * Acquire runs the one-server acquire script everywhere with the same token and wins with a
 * quorum of N/2 + 1 while validity = ttl - elapsed - drift (0.01 * ttl + 2 ms) is left;
 * otherwise it releases what it took and, when it may wait, blocks on the first master
 * that answered until a release wakes it (releases never hand over across masters: every
 * waiter runs the quorum again) or retries after a random delay when the vote was split.
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

/* Release token on every master (or those in only[]); the number of masters where it was
 * ours, or -1. */
static int release_all(const rlock_opts *o, rlock_keys *k, zend_string *token, bool *only,
	fanout_result *fr, rlock_err *err)
{
	rlock_call c;
	zend_string *next = rlock_new_token(err);
	int released = 0;

	if (!next) {
		return -1;
	}
	rlock_call_release(&c, k, token, next, o, false);
	fanout(o, &c, only, fr);
	zend_string_release(next);
	for (uint32_t i = 0; i < o->nservers; i++) {
		if (fr->replies[i]) {
			released += fr->replies[i]->type == REDIS_REPLY_INTEGER && fr->replies[i]->integer > 0;
		}
	}
	return released;
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

static int redlock_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	rlock_keys k;
	zend_long deadline = rlock_deadline(wait_ms);
	bool queued[RLOCK_MAX_SERVERS] = {0}, waiting = false;
	int rc = 0;
	zend_string *token = rlock_new_token(err);

	rlock_conn_begin(o, wait_ms);
	if (!token) {
		return -1;
	}
	rlock_keys_init(&k, key);
	for (;;) {
		zend_long remaining = MAX(deadline - rlock_now_ms(), 0), start = rlock_now_ms();
		zend_long fence = 0, block = remaining;
		uint32_t won = 0, first = o->nservers;
		bool held[RLOCK_MAX_SERVERS] = {0};
		rlock_call counted, fresh, *calls[RLOCK_MAX_SERVERS];
		fanout_result fr;

		/* the same attempt everywhere, but each master knows whether it counts us already;
		 * with remaining == 0 this attempt is the last, and leaves the waiters */
		rlock_call_acquire(&counted, &k, token, o, remaining, true, NULL);
		rlock_call_acquire(&fresh, &k, token, o, remaining, false, NULL);
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
			if (!fr.replies[i]) {
				continue;
			}
			bool ok = rlock_reply_attempt(&o->servers[i], fr.replies[i], &a, &fr.errs[i]);
			fr.replies[i] = NULL;
			if (!ok) {
				continue;
			}
			/* a master where we won (or gave up) no longer counts us; one where we wait does */
			queued[i] = !a.acquired && remaining > 0;
			first = MIN(first, i);
			if (a.acquired) {
				held[i] = zend_string_equals(a.token, token);
				won += held[i];
				fence = MAX(fence, a.fence);
				zend_string_release(a.token);
			} else if (a.pttl >= 0) {
				block = MIN(block, a.pttl + 1);
			}
		}
		fanout_result raise = {0};
		if (won >= quorum(o) && validity(o->ttl, start) > 0) {
			/* with fencing, won only where a quorum raised its counter, in time */
			bool raised = !o->fencing || (fence_floor(o, &k, held, fence, token, &raise) >= quorum(o)
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
			fanout_result rr;
			release_all(o, &k, token, held, &rr, err);
			fanout_free(o, &rr);
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
				&& rlock_lock_await(o, &o->servers[first], &k, MIN(block, remaining), &a, err) == 1) {
			/* a hand-over meant for a one-server client of the same key: not ours to keep */
			zend_string_release(a.token);
		} else if (won > 0 || first == o->nservers) {
			rlock_sleep_jittered(o->retry_delay, MAX(deadline - rlock_now_ms(), 0));
		}
	}
	if (waiting) {
		rlock_stats_waiters(-1);
	}
	rlock_keys_free(&k);
	zend_string_release(token);
	return rc;
}

static int redlock_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	rlock_keys k;
	fanout_result fr;

	rlock_conn_begin(o, 0);
	rlock_keys_init(&k, key);
	int released = release_all(o, &k, h->token, NULL, &fr, err);
	rlock_keys_free(&k);
	if (released < 0) {
		return -1;
	}
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
 * restart without persistence, a failover): one round trip. Held while a quorum still had
 * our token and extended it, within the validity; a heal counts only then. Where fewer did,
 * the lock may have been someone else's in between (a majority lost it at once, or the lease
 * ran out): the heals are given back, and the lock is not ours. A master where another token
 * holds the key is never written. */
static int redlock_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	rlock_keys k;
	rlock_call c;
	fanout_result fr;
	bool healed[RLOCK_MAX_SERVERS] = {0};
	uint32_t extended = 0, heals = 0;
	zend_long start = rlock_now_ms();

	rlock_conn_begin(o, 0);
	rlock_keys_init(&k, key);
	rlock_call_extend_heal(&c, &k, h->token, ttl, o->fencing ? h->fence : 0);
	fanout(o, &c, NULL, &fr);
	if (fr.failed >= quorum(o)) {
		rlock_keys_free(&k);
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
			fanout_result rr;
			release_all(o, &k, h->token, healed, &rr, err);
			fanout_free(o, &rr);
		}
		rlock_keys_free(&k);
		return 0;
	}
	rlock_keys_free(&k);
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

/* The lease a quorum of masters still has: the quorum-th largest PTTL. */
static int redlock_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err)
{
	rlock_call c = { .cmd = { .argc = 2, .argv = { "PTTL", ZSTR_VAL(key) }, .lens = { 4, ZSTR_LEN(key) } } };
	zend_long pttls[RLOCK_MAX_SERVERS];
	uint32_t n = 0;
	fanout_result fr;

	rlock_conn_begin(o, 0);
	fanout(o, &c, NULL, &fr);
	if (fr.failed >= quorum(o)) {
		return no_quorum(o, &fr, err);
	}
	for (uint32_t i = 0; i < o->nservers; i++) {
		if (fr.replies[i] && fr.replies[i]->type == REDIS_REPLY_INTEGER && fr.replies[i]->integer >= -2) {
			pttls[n++] = (zend_long) fr.replies[i]->integer;
		}
	}
	fanout_free(o, &fr);
	qsort(pttls, n, sizeof(pttls[0]), compare_long);
	*out = n >= quorum(o) ? pttls[quorum(o) - 1] : -2;
	return 0;
}

const rlock_algo rlock_redlock_algo = {
	.kind = "lock",
	.acquire = redlock_acquire,
	.release = redlock_release,
	.extend = redlock_extend,
	.is_owner = redlock_is_owner,
	.exists = redlock_exists,
	.pttl = redlock_pttl,
};

const rlock_algo *rlock_algo_of(const rlock_opts *o)
{
	return o->nservers > 0 ? &rlock_redlock_algo : &rlock_lock_algo;
}
