/* The lock on one Redis server: acquire, release, extend, queries, and the wait.
 *
 * Waiting without polling: a waiter sends its acquire script and a BLPOP in one write. The
 * script, failing, counts the caller in a companion counter ("waiters"); the BLPOP then
 * blocks on a companion list ("grants") and, should the script have won, on the waiter's own
 * list, where the script put a "1". A release that sees waiters does not free the key: it
 * sets it to a fresh token, uncounts one waiter and pushes that token on the grants, and
 * Redis hands the element to the client blocked longest: the woken waiter owns the lock
 * the moment BLPOP returns. FIFO hand-over in one round trip, no newcomer can barge in
 * between, and as the script and the BLPOP run back to back there is no moment in which a
 * counted waiter is not blocked. A waiter that died, or one between two rounds (woken, not
 * back yet), is not blocked; the grant meant for it stays on the list, and the next acquire
 * takes it over (and, should it not be counted, counts itself in the waiter's place: the
 * acquire script in scripts.c). A key that a lock over several keys waits for is not handed
 * over but freed, and its waiters woken (multi.c, which waits through rlock_lock_wait() too,
 * on lists of their own).
 *
 * A holder that expires without a release wakes nobody: the waiter ends its BLPOP itself
 * when the holder's PTTL has passed (a "0" pushed on its own list from a second connection)
 * and tries again. A wait that ends at the caller's deadline ends by the BLPOP's own timeout;
 * an idle Redis looks at timeouts only every 100 ms (hz 10), so a few ms past the deadline
 * a PING from a second connection makes it look. */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/lock.h"
#include "src/primitives/scripts.h"
#include "src/transport/conn.h"
#include "src/transport/route.h"
#include "src/stats/stats.h"

#include <unistd.h>

void rlock_lock_name(smart_str *out, const char *noun, zend_string *key)
{
	smart_str_appends(out, noun);
	smart_str_appends(out, " \"");
	smart_str_append(out, key);
	smart_str_appendc(out, '"');
}

zend_string *rlock_algo_name(const rlock_algo *a, zend_string *key)
{
	smart_str out = {0};
	if (a->name) {
		a->name(key, &out);
	} else {
		rlock_lock_name(&out, "lock", key);
	}
	return smart_str_extract(&out);
}

redisReply *rlock_lock_run(const rlock_opts *o, zend_string *key, rlock_call *c, rlock_err *err)
{
	redisReply *r = rlock_route_call(o, key, &c->cmd, 0, err);
	if (rlock_call_noscript(c, r)) {
		freeReplyObject(r);
		r = rlock_route_call(o, key, &c->cmd, 0, err);
	}
	if (r && rlock_reply_error(rlock_route_answered(o), r, err)) {
		return NULL;
	}
	return r;
}

/* One round trip: take the key (or a grant left for nobody), else join the waiters when
 * wait_ms > 0. 0, or -1 with err set. */
static int attempt(const rlock_opts *o, const rlock_waiter *w, zend_long wait_ms, bool queued, rlock_attempt *res,
	rlock_err *err)
{
	rlock_call c;
	w->call(&c, w, o, wait_ms, queued, NULL);
	bool bare = c.script == &rlock_script_acquire;
	redisReply *r = rlock_lock_run(o, w->k->keys[0], &c, err);
	return r && rlock_reply_attempt(rlock_route_answered(o), r, bare, wait_ms, res, err) ? 0 : -1;
}

/* BLPOP [self] lists... timeout */
static void blpop_lists(rlock_cmd *cmd, char *timeout, size_t size, zend_string *self, zend_string *const *lists,
	int nlists, zend_long block_ms)
{
	cmd->argc = 0;
	cmd->argv[cmd->argc] = "BLPOP"; cmd->lens[cmd->argc++] = 5;
	if (self) {
		cmd->argv[cmd->argc] = ZSTR_VAL(self); cmd->lens[cmd->argc++] = ZSTR_LEN(self);
	}
	for (int i = 0; i < nlists; i++) {
		cmd->argv[cmd->argc] = ZSTR_VAL(lists[i]); cmd->lens[cmd->argc++] = ZSTR_LEN(lists[i]);
	}
	cmd->argv[cmd->argc] = timeout;
	cmd->lens[cmd->argc++] = snprintf(timeout, size, "%.3f", MAX(block_ms, 1) / 1000.0);
}

/* A BLPOP's answer: 1 a grant popped from the grants, "token fence ttl" as a release of
 * ours pushes it (res filled, and res->block the lease it came with); 0 nil (timed out),
 * "wake" (a release that let go without a hand-over, fair = false), our own "1", the "0"
 * that ended a wait at the holder's expiry, or anything else: a grant is adopted only
 * when every part of it is what a release pushes. */
static int grant(const redisReply *r, rlock_attempt *res)
{
	zend_long fence, ttl;
	if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[1]->type != REDIS_REPLY_STRING) {
		return 0;
	}
	const char *g = r->element[1]->str, *end = g + r->element[1]->len;
	const char *sp1 = memchr(g, ' ', end - g), *sp2 = sp1 ? memchr(sp1 + 1, ' ', end - sp1 - 1) : NULL;
	if (!sp2 || !rlock_token_ours(g, sp1 - g) || !rlock_parse_number(sp1 + 1, sp2 - sp1 - 1, ZEND_LONG_MAX, &fence)
			|| !rlock_parse_number(sp2 + 1, end - sp2 - 1, ZEND_LONG_MAX, &ttl) || ttl == 0) {
		return 0;
	}
	res->acquired = true;
	res->token = zend_string_init(g, sp1 - g, 0);
	res->fence = fence;
	res->block = ttl;
	return 1;
}

/* Past the caller's deadline, how long a BLPOP's own timeout may keep us: Redis checks
 * timeouts when its event loop turns, on an idle server every 1000/hz ms (100 at hz 10). */
#define DEADLINE_GRACE_MS 10

/* rlock_block.wake_at for a BLPOP with nothing sent before it (arg: its block ms): wait for
 * it a little past its own timeout, and PING then (an idle Redis looks at timeouts late). */
static zend_long past_timeout(redisReply *none, void *block_ms, rlock_wake_how *how)
{
	(void) none;
	*how = RLOCK_WAKE_PING;
	return *(zend_long *) block_ms + DEADLINE_GRACE_MS;
}

int rlock_lock_await(const rlock_opts *o, const rlock_server *s, rlock_keys *k, zend_long block_ms,
	rlock_attempt *res, rlock_err *err)
{
	char timeout[32];
	rlock_cmd cmd;
	redisReply *none, *r;

	blpop_lists(&cmd, timeout, sizeof(timeout), NULL, &k->keys[1], 1, block_ms);
	rlock_block b = { .blocking = &cmd, .block_ms = block_ms, .wake_at = past_timeout, .arg = &block_ms };
	if (rlock_conn_call_block(o, s, &b, &none, &r, err) < 0
			|| rlock_reply_error(s, r, err)) {
		return -1;
	}
	int g = grant(r, res);
	freeReplyObject(r);
	return g;
}

/* What wake_at() is given: the ms left to the waiter's deadline (the wait its script was
 * sent), and whether that script is the mutex's (which may answer its pttl alone). */
typedef struct {
	zend_long remaining;
	bool bare;
} round_arg;

/* rlock_block.wake_at for a waiter whose first command is an acquire script answering as the
 * lock's does ({1, token, fence}, {0, pttl, block ms}, or the mutex's pttl alone; arg: a
 * round_arg): how long its BLPOP may block. Not at all after an error (the round is over,
 * and is done again without the BLPOP), not past our own "1" when the script won, until
 * the holder's lease ends when that comes before the caller's deadline (then our own "0"
 * wakes it), else a little past the deadline (the BLPOP's own timeout, which an idle Redis
 * may be late with). */
static zend_long wake_at(redisReply *r1, void *arg, rlock_wake_how *how)
{
	const round_arg *a = arg;
	if (!rlock_reply_is_attempt(r1, a->bare)) {
		*how = RLOCK_WAKE_CLOSE;
		return 0;
	}
	zend_long left = a->remaining, block = rlock_reply_block(r1, left);
	if (block < 0) {
		return -1;
	}
	if (block < left) {
		return block;
	}
	*how = RLOCK_WAKE_PING;
	return left + DEADLINE_GRACE_MS;
}

/* The wake of a waiter: "0" pushed on its own list self (gone with the list's 10 s should
 * the BLPOP have returned something else first). */
static void wake_cmds(rlock_cmd wake[2], zend_string *self)
{
	/* (their arguments set one by one: a compound literal would zero both commands' 2 x 56
	 * arguments, at every round, for two commands seldom sent) */
	static const char *const verb[2] = { "RPUSH", "PEXPIRE" }, *const last[2] = { "0", "10000" };
	for (int i = 0; i < 2; i++) {
		wake[i].argc = 3;
		wake[i].argv[0] = verb[i]; wake[i].lens[0] = strlen(verb[i]);
		wake[i].argv[1] = ZSTR_VAL(self); wake[i].lens[1] = ZSTR_LEN(self);
		wake[i].argv[2] = last[i]; wake[i].lens[2] = strlen(last[i]);
	}
}

/* Whether r, what w's BLPOP popped, is a grant of w's primitive (1, res filled). */
static int granted(const rlock_waiter *w, const redisReply *r, rlock_attempt *res)
{
	return w->lists ? 0 : w->grant ? w->grant(r, w, res) : grant(r, res);
}

/* One round of waiting: the acquire and the BLPOP in one write. 1 acquired (res filled),
 * 0 not yet (counted among the waiters: *queued), -1 err set. *reached: the server
 * answered the acquire. */
static int wait_round(const rlock_opts *o, const rlock_waiter *w, zend_long remaining, bool *queued, bool *reached,
	rlock_attempt *res, rlock_err *err)
{
	zend_string *self = w->self;
	rlock_call c;
	char timeout[32];
	rlock_cmd blpop;
	redisReply *r1, *r2;

	w->call(&c, w, o, remaining, *queued, self);
	round_arg arg = { .remaining = remaining, .bare = c.script == &rlock_script_acquire };
	blpop_lists(&blpop, timeout, sizeof(timeout), self, w->lists ? w->lists : &w->list,
		w->lists ? w->nlists : w->list != NULL, remaining);
	rlock_cmd wake[2];
	wake_cmds(wake, self);
	rlock_block b = { .first = &c.cmd, .blocking = &blpop, .block_ms = remaining,
		.wake_at = wake_at, .arg = &arg, .wake = wake, .nwake = 2 };
	rlock_call_eval_head(&c, b.first_new, b.first_new_lens);
	if (rlock_route_call_block(o, w->k->keys[0], &b, &r1, &r2, err) < 0) {
		if (r1) {
			/* The server answered, then went away while we waited: the next round counts us
			 * again. A restart lost the count (each waiter back counts itself anew), and a
			 * grant popped for us may have gone with the connection (its release counted us
			 * out); a mere drop (CLIENT KILL, a proxy's timeout) so counts us twice, and the
			 * last release hands the key to nobody, which the next acquire takes over (phpt
			 * 812). Counting too few instead leaves waiters to sleep out leases: keeping
			 * queued here did, after a restart, about two waiters a lease. */
			*queued = false;
			*reached = true;
			freeReplyObject(r1);
		}
		return -1;
	}
	*reached = true;
	if (r1->type == REDIS_REPLY_ERROR) {
		/* NOSCRIPT, a cluster redirect, or an error attempt() reports (OOM, ...): this round
		 * again, one command at a time (unless the BLPOP, before we ended it, was handed the
		 * lock all the same) */
		freeReplyObject(r1);
		int g = granted(w, r2, res);
		if (r2) {
			freeReplyObject(r2);
		}
		if (g) {
			*queued = false;
			return 1;
		}
		if (attempt(o, w, remaining, *queued, res, err) < 0) {
			return -1;
		}
		*queued = !res->acquired;
		if (!res->acquired) {
			rlock_sleep_jittered(o->retry_delay, MIN(res->block, remaining));
		}
		return res->acquired;
	}
	bool ok = rlock_reply_attempt(rlock_route_answered(o), r1, arg.bare, remaining, res, err);
	if (!ok || (r2 && r2->type == REDIS_REPLY_ERROR && !res->acquired)) {
		if (ok && rlock_reply_error(rlock_route_answered(o), r2, err)) {
			r2 = NULL;
		}
		if (r2) {
			freeReplyObject(r2);
		}
		return -1;
	}
	if (res->acquired) {
		*queued = false;  /* the script left the waiters; r2 is our own "1" */
	} else if (granted(w, r2, res)) {
		*queued = false;  /* the release that handed it over uncounted us */
	} else {
		*queued = true;   /* nil, a wake, our "0", or r2 NULL: the connection closed on it */
	}
	if (r2) {
		freeReplyObject(r2);
	}
	return res->acquired;
}

bool rlock_lock_wait_out(const rlock_opts *o, bool reached, zend_long deadline, rlock_err *err)
{
	if (!reached || err->kind != RLOCK_ERR_CONNECTION || deadline - rlock_now_ms() <= 0) {
		return false;
	}
	/* the server went away while we waited (a restart): wait for it too; an error Redis
	 * answered (WRONGTYPE, ...) ends the wait, and so does a server never reached */
	rlock_sleep_jittered(o->retry_delay, MAX(deadline - rlock_now_ms(), 0));
	memset(err, 0, sizeof(*err));
	return true;
}

int rlock_lock_wait(const rlock_opts *o, rlock_waiter *w, zend_long deadline, rlock_attempt *res, rlock_err *err)
{
	bool queued = false, reached = false, waited = false;
	int rc;

	rlock_stats_waiters(1);  /* (one that takes the lock at its first round leaves at once) */
	for (;;) {
		zend_long remaining = MAX(deadline - rlock_now_ms(), 0);
		w->sent = rlock_now_ms();
		if (remaining == 0) {
			/* the last attempt, which also leaves the waiters */
			rc = attempt(o, w, 0, queued, res, err) < 0 ? -1 : res->acquired;
			break;
		}
		if (!w->self) {
			w->self = rlock_keys_self(w->k, w->token);
		}
		/* a round blocks a day at most: the longest wait, 24.8 days, is rounds */
		rc = wait_round(o, w, MIN(remaining, 86400000), &queued, &reached, res, err);
		if (!waited && (rc == 0 || (rc == 1 && res->block != 0))) {
			/* not taken at once: queued, or handed a grant */
			waited = true;
			rlock_stats_waited();
		}
		if (rc == 1 && res->block != 0) {
			rlock_stats_handed();
		}
		if (rc < 0 && rlock_lock_wait_out(o, reached, deadline, err)) {
			queued = false;
			continue;
		}
		if (rc != 0) {
			break;
		}
	}
	rlock_stats_waiters(-1);
	return rc;
}

/* The mutex's acquire round. */
static void mutex_call(rlock_call *c, const rlock_waiter *w, const rlock_opts *o, zend_long wait_ms, bool queued,
	zend_string *self)
{
	rlock_call_acquire(c, w->k, w->token, o, wait_ms, queued, self);
}

/* Compare-and-pexpire, within the call under way. */
static int key_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	rlock_call c;
	zend_long n, sent = rlock_now_ms();
	rlock_call_extend(&c, &key, h->token, ttl);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	if (!r || !rlock_reply_integer(rlock_route_answered(o), r, 0, 1, &n, err)) {
		return -1;
	}
	if (n == 1) {
		h->valid_until = sent + ttl;
	}
	return n == 1;
}

static int key_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err);

/* The key just taken (res->token), whose lease our clock cannot vouch for: extended to our
 * ttl from now, *sent set to when that was asked. The extend compares the token, which only
 * our own command ever set: found there, the key was ours throughout, so nobody else was
 * in; gone, it expired (or was taken) before we knew we had it. 1 ours for ttl from *sent;
 * 0 not ours (res->token released, and the key given back should the extend's own reply
 * have come too late as well); -1 err set. */
static int lease_from_now(const rlock_opts *o, zend_string *key, rlock_attempt *res, zend_long *sent, rlock_err *err)
{
	rlock_hold h = { .token = res->token };
	*sent = rlock_now_ms();
	int rc = key_extend(o, key, &h, o->ttl, err);
	if (rc == 1 && rlock_now_ms() - *sent >= o->ttl) {
		rlock_err ignored = {0};
		key_release(o, key, &h, &ignored);
		rc = 0;
	}
	if (rc != 1) {
		zend_string_release(res->token);
	}
	return rc;
}

/* How late an idle Redis (hz 10) may be with a blocked command's timeout. */
#define REDIS_TIMER_MS 100

/* WAIT until sync_replicas replicas have our writes (the lock among them), the whole within
 * read_timeout and Redis' timer: WAIT's own timeout is read_timeout less up to a quarter,
 * and its reply is awaited REDIS_TIMER_MS past read_timeout, the lateness of an idle
 * Redis. */
int rlock_lock_await_replicas(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	char n[24], timeout[24];
	zend_long acked = 0;
	rlock_cmd cmd = { .argc = 3, .argv = { "WAIT", n, timeout } };
	cmd.lens[0] = 4;
	cmd.lens[1] = snprintf(n, sizeof(n), ZEND_LONG_FMT, o->sync_replicas);
	cmd.lens[2] = snprintf(timeout, sizeof(timeout), ZEND_LONG_FMT,
		MAX(o->read_timeout - MIN(o->read_timeout / 4, REDIS_TIMER_MS), 1));

	redisReply *r = rlock_route_call(o, key, &cmd, REDIS_TIMER_MS, err);
	if (!r && err->kind == RLOCK_ERR_REPLY) {
		/* refused (a managed Redis' ACL: NOPERM; a service without WAIT: unknown command):
		 * say which option sent it */
		size_t len = strlen(err->msg);
		snprintf(err->msg + len, sizeof(err->msg) - len, " (WAIT, sent for sync_replicas)");
	}
	return r && rlock_reply_integer(rlock_route_answered(o), r, 0, ZEND_LONG_MAX, &acked, err) ? acked >= o->sync_replicas : -1;
}

/* Keys this process found taken in the last HOT_MS: their first attempt is the script,
 * which can queue us. Any other key is first tried with a plain SET NX PX, the least a
 * lock costs Redis; only when that fails does the script follow. */
#define HOT_MS 2000
#define HOT_MAX 4096

/* Keys longer than this are not remembered (a process keeps a copy of each key it tracks). */
#define TRACKED_KEY_MAX 1024

/* v into one of the process' tracking tables under key: none for a long key, and a full
 * table starts again empty. */
static void track(HashTable *table, zend_string *key, zval *v)
{
	if (ZSTR_LEN(key) > TRACKED_KEY_MAX) {
		if (table->pDestructor) {
			table->pDestructor(v);
		}
		return;
	}
	if (zend_hash_num_elements(table) >= HOT_MAX) {
		zend_hash_clean(table);
	}
	/* a persistent table takes a persistent copy of the key */
	zend_hash_str_update(table, ZSTR_VAL(key), ZSTR_LEN(key), v);
}

bool rlock_lock_key_hot(zend_string *key)
{
	zval *seen = zend_hash_find(&RLOCK_G(hot_keys), key);
	return seen && rlock_now_ms() - Z_LVAL_P(seen) < HOT_MS;
}

void rlock_lock_mark_hot(zend_string *key)
{
	zval now;
	ZVAL_LONG(&now, rlock_now_ms());
	track(&RLOCK_G(hot_keys), key, &now);
}

/* SET key token NX PX ttl: 1 acquired, 0 taken, -1 err set. */
static int attempt_plain(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	char ttl[RLOCK_LONG_STR];
	const char *t = rlock_long_str(ttl, o->ttl);
	rlock_cmd cmd = { .argc = 6, .argv = { "SET", ZSTR_VAL(key), ZSTR_VAL(token), "NX", "PX", t },
		.lens = { 3, ZSTR_LEN(key), ZSTR_LEN(token), 2, 2, ttl + sizeof(ttl) - 1 - t } };

	redisReply *r = rlock_route_call(o, key, &cmd, 0, err);
	if (!r) {
		return -1;
	}
	/* OK, or nil when the key is taken */
	int acquired = r->type == REDIS_REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0 ? 1
		: r->type == REDIS_REPLY_NIL ? 0 : -1;
	if (acquired < 0) {
		rlock_err_set(err, RLOCK_ERR_REPLY, rlock_route_answered(o)->label, "unexpected reply to SET");
	}
	freeReplyObject(r);
	return acquired;
}

zend_string *rlock_lock_token_for(const rlock_opts *o, const char *kind, zend_string *key, rlock_err *err)
{
	if (RLOCK_G(lost_tokens_pid) != rlock_getpid()) {
		/* a forked child: the parent's lost acquires are the parent's to retry */
		zend_hash_clean(&RLOCK_G(lost_tokens));
		RLOCK_G(lost_tokens_pid) = rlock_getpid();
	}
	if (zend_hash_num_elements(&RLOCK_G(lost_tokens)) > 0) {
		zend_string *id = rlock_opts_lock_id(o, kind, key);
		zend_string *lost = zend_hash_find_ptr(&RLOCK_G(lost_tokens), id);
		zend_string *token = lost ? zend_string_init(ZSTR_VAL(lost), ZSTR_LEN(lost), 0) : NULL;
		if (lost) {
			zend_hash_del(&RLOCK_G(lost_tokens), id);
		}
		zend_string_release(id);
		if (token) {
			return token;
		}
	}
	return rlock_new_token(err);
}

void rlock_lock_token_lost(const rlock_opts *o, const char *kind, zend_string *key, zend_string *token)
{
	zend_string *id = rlock_opts_lock_id(o, kind, key);
	zval v;
	ZVAL_PTR(&v, zend_string_init(ZSTR_VAL(token), ZSTR_LEN(token), 1));
	track(&RLOCK_G(lost_tokens), id, &v);
	zend_string_release(id);
}

static int lock_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	rlock_keys k;
	rlock_attempt res = {0};
	zend_long deadline = rlock_deadline(wait_ms);
	int rc = 0;
	zend_string *token = rlock_lock_token_for(o, rlock_lock_algo.kind, key, err);

	rlock_conn_begin(o, wait_ms);
	if (!token) {
		return -1;
	}
	/* the lease runs from before the command that took it: our clock errs on the safe side */
	zend_long sent = rlock_now_ms();
	if (!o->fencing && !rlock_lock_key_hot(key)) {
		rc = attempt_plain(o, key, token, err);
		if (rc == 1) {
			res.token = zend_string_copy(token);
			goto done;
		}
		if (rc < 0) {
			if (err->kind == RLOCK_ERR_CONNECTION) {
				rlock_lock_token_lost(o, rlock_lock_algo.kind, key, token);
			}
			zend_string_release(token);
			return -1;
		}
		/* taken: the script now, which can take over a grant left for nobody, or queue us */
		rlock_lock_mark_hot(key);
	}
	rlock_keys_init(&k, key);
	rlock_waiter w = { .k = &k, .token = token, .list = k.keys[1], .call = mutex_call };
	if (deadline > rlock_now_ms()) {
		rlock_lock_mark_hot(key);
	}
	rc = rlock_lock_wait(o, &w, deadline, &res, err);
	sent = w.sent;
	if (rc == 1 && res.block != 0 && res.block != o->ttl) {
		/* handed over with another holder's ttl: take our own */
		rc = lease_from_now(o, key, &res, &sent, err);
	}
	rlock_keys_free(&k);
	if (w.self) {
		zend_string_release(w.self);
	}
	if (rc < 0 && err->kind == RLOCK_ERR_CONNECTION) {
		rlock_lock_token_lost(o, rlock_lock_algo.kind, key, token);
	}
done:
	zend_string_release(token);
	if (rc == 1 && rlock_now_ms() - sent >= o->ttl / 2) {
		/* the reply that gave us the key came late (a slow network, a long wait for a
		 * hand-over): the lease runs from when Redis took the command, which our clock knows
		 * only to be after it was sent, and may have run out meanwhile, another holder in */
		rc = lease_from_now(o, key, &res, &sent, err);
	}
	if (rc == 1 && o->sync_replicas > 0 && (rc = rlock_lock_await_replicas(o, key, err)) != 1) {
		/* short of the replicas: give the lock back */
		rlock_hold h = { .token = res.token };
		rlock_err ignored = {0};
		key_release(o, key, &h, &ignored);
		zend_string_release(res.token);
	}
	if (rc == 1) {
		out->token = res.token;
		out->fence = o->fencing ? res.fence : 0;
		out->valid_until = sent + o->ttl;
	}
	return rc;
}

/* Compare-and-delete (handing over to a waiter), within the call under way. */
static int key_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	rlock_keys k;
	rlock_call c;
	zend_long n = 0;
	zend_string *next = rlock_new_token(err);

	if (!next) {
		return -1;
	}
	rlock_keys_init(&k, key);
	rlock_call_release(&c, &k, h->token, next, o, o->fair);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	rlock_keys_free(&k);
	zend_string_release(next);
	if (!r || !rlock_reply_integer(rlock_route_answered(o), r, 0, 2, &n, err)) {
		return -1;
	}
	return n > 0;
}

static int lock_release(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err)
{
	rlock_conn_begin(o, 0);
	return key_release(o, key, h, err);
}

static int lock_extend(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err)
{
	rlock_conn_begin(o, 0);
	return key_extend(o, key, h, ttl, err);
}

/* A one-key command, a call of its own; the reply or NULL with err set. */
static redisReply *key_command(const rlock_opts *o, const char *name, zend_string *key, rlock_err *err)
{
	rlock_cmd cmd = { .argc = 2, .argv = { name, ZSTR_VAL(key) }, .lens = { strlen(name), ZSTR_LEN(key) } };
	rlock_conn_begin(o, 0);
	return rlock_route_call(o, key, &cmd, 0, err);
}

static int lock_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	redisReply *r = key_command(o, "GET", key, err);
	if (!r) {
		return -1;
	}
	int yes = rlock_reply_holds(r, token);
	freeReplyObject(r);
	return yes;
}

static int lock_exists(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	zend_long n = 0;
	redisReply *r = key_command(o, "EXISTS", key, err);
	return r && rlock_reply_integer(rlock_route_answered(o), r, 0, ZEND_LONG_MAX, &n, err) ? n > 0 : -1;
}

static int lock_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err)
{
	redisReply *r = key_command(o, "PTTL", key, err);
	return r && rlock_reply_integer(rlock_route_answered(o), r, -2, ZEND_LONG_MAX, out, err) ? 0 : -1;
}

const rlock_algo rlock_lock_algo = {
	.kind = "lock",
	.acquire = lock_acquire,
	.release = lock_release,
	.extend = lock_extend,
	.is_owner = lock_is_owner,
	.exists = lock_exists,
	.pttl = lock_pttl,
};
