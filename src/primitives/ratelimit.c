/* The rate limiter on one Redis server or a Cluster: GCRA (the generic cell rate algorithm,
 * as go-redis/redis_rate and redis-cell run it), on the server's clock, one script call per
 * decision.
 *
 * One key per limit, a companion of the limit's own key (role "rate"): a string holding the
 * theoretical arrival time (TAT), "us rest", the server's clock in microseconds plus rest /
 * limit of one (a permit costs T = period * 1000 / limit us, which need not be whole: kept
 * exact, so that a limit of 3 per second admits 3 per second, not 3.000003). A decision for
 * n permits at the server's time now:
 *   tat = max(TAT, now); new = tat + n * T; due = new - burst * T
 * and the permits are taken (TAT = new) when due <= now + reserve (reserve 0: now; an
 * acquire() with "fair" reserves up to its wait, and sleeps until due). The key expires at
 * new: a TAT in the past is no key at all, so nothing is left once the permits are due
 * again, and a limit nobody uses costs nothing. A refusal changes nothing and says in how
 * many us due <= now would hold (the retry-after). Over any span of the server's clock the
 * permits taken are at most burst + span / T: limit x seconds + burst.
 *
 * Several limits are taken by one script, all or none: each is decided as above and only
 * when every one admits are they all written. Every number a script handles stays an
 * integer below 2^53 (exact in a Lua number): the clock in us (about 2^51 until 2255), a
 * TAT at most burst * T + reserve past it (each at most RLOCK_MS_MAX ms:
 * rlock_rate_burst_max()), a rest below limit (at most 2^31).
 *
 * The scripts call TIME before they write: Redis 6.2 replicates a script's effects (its
 * writes, never the script itself) by default; redis.replicate_commands() says so on a
 * server configured otherwise, and is a no-op from Redis 7 on. */

#include "php.h"
#include "php_rlock.h"
#include "src/primitives/ratelimit.h"
#include "src/primitives/scripts.h"
#include "src/primitives/lua.h"
#include "src/primitives/lock.h"
#include "src/transport/route.h"
#include "src/stats/stats.h"

#include <time.h>

/* src/primitives/lua/ratelimit/take.lua */
static rlock_script script_take = { .source = RLOCK_LUA_RATELIMIT_TAKE };

/* src/primitives/lua/ratelimit/give.lua */
static rlock_script script_give = { .source = RLOCK_LUA_RATELIMIT_GIVE };

/* src/primitives/lua/ratelimit/free.lua */
static rlock_script script_free = { .source = RLOCK_LUA_RATELIMIT_FREE };

void rlock_ratelimit_minit(void)
{
	rlock_script_init(&script_take);
	rlock_script_init(&script_give);
	rlock_script_init(&script_free);
	/* the statistics name a limiter as messages do */
	rlock_stats_rate_name_by(rlock_rate_name);
}

/* The role of the limit's key among the companions of its own (scripts.c). */
#define ROLE "rate"

zend_string *rlock_rate_key(zend_string *full)
{
	return rlock_keys_companion(full, ROLE);
}

zend_string *rlock_rate_name(zend_string *key)
{
	return rlock_keys_companion_name(key, ROLE);
}

zend_long rlock_rate_burst_max(zend_long limit, zend_long period_ms)
{
	/* burst * period <= RLOCK_MS_MAX * limit: at most 2^62, no overflow */
	return MIN((zend_long) RLOCK_MS_MAX * limit / period_ms, RLOCK_MS_MAX);
}

void rlock_rate_init(rlock_rate *r, zend_long limit, zend_long period_ms, zend_long burst)
{
	zend_long per = period_ms * 1000;  /* at most 2^41 */
	r->limit = limit;
	r->period_ms = period_ms;
	r->burst = burst;
	r->per_q = per / limit;
	r->per_s = per % limit;
}

/* The cost of n permits (0 to burst), q + *s / limit us: n * per_q is at most the burst's
 * (at most RLOCK_MS_MAX * 1000 us), n * per_s below 2^62. */
static zend_long cost(const rlock_rate *r, zend_long n, zend_long *s)
{
	zend_long rest = n * r->per_s;
	*s = rest % r->limit;
	return n * r->per_q + rest / r->limit;
}

/* "limit q s bq bs" for n permits of r: the take script's argument (a new string). */
static zend_string *limit_arg(const rlock_rate *r, zend_long n)
{
	zend_long s, bs;
	zend_long q = cost(r, n, &s), bq = cost(r, r->burst, &bs);
	return zend_strpprintf(0, ZEND_LONG_FMT " " ZEND_LONG_FMT " " ZEND_LONG_FMT " " ZEND_LONG_FMT " " ZEND_LONG_FMT,
		r->limit, q, s, bq, bs);
}

/* The longest wait the take script can answer, in us: a TAT as far ahead as a burst's refill
 * and a reservation's wait (each at most RLOCK_MS_MAX ms, whatever limit of the key wrote it),
 * and the permits asked. */
#define WAIT_MAX_US ((long long) RLOCK_MS_MAX * 3000 + 3000)

/* Whether r is what the take script answers for count limits asked to admit within
 * reserve_us: {0 or 1, count waits from 0 to WAIT_MAX_US}, each wait at most reserve_us when
 * taken (the script takes only then: a longer one would be a sleep nobody asked for), and
 * then the first key's TAT, a string that fits rlock_rate_wait's. */
static bool take_reply(const redisReply *r, int count, zend_long reserve_us)
{
	if (r->type != REDIS_REPLY_ARRAY || r->elements < 1 || r->element[0]->type != REDIS_REPLY_INTEGER
			|| r->elements != (size_t) count + 1 + (r->element[0]->integer == 1)) {
		return false;
	}
	if (r->element[0]->integer == 1) {
		const redisReply *tat = r->element[count + 1];
		if (tat->type != REDIS_REPLY_STRING || tat->len >= sizeof(((rlock_rate_wait *) NULL)->tat)) {
			return false;
		}
	}
	for (size_t i = 0; i < (size_t) count + 1; i++) {
		if (r->element[i]->type != REDIS_REPLY_INTEGER || r->element[i]->integer < 0
				|| r->element[i]->integer > (i == 0 ? 1 : WAIT_MAX_US)) {
			return false;
		}
		if (i > 0 && r->element[0]->integer == 1 && r->element[i]->integer > reserve_us) {
			return false;
		}
	}
	return true;
}

int rlock_rate_take(const rlock_opts *o, zend_string *const *keys, const rlock_rate *const *rates, int count,
	zend_long n, zend_long reserve_us, rlock_rate_wait *waits, rlock_err *err)
{
	rlock_call c;
	zend_string *args[RLOCK_RATE_ALL_MAX];

	ZEND_ASSERT(count >= 1 && count <= RLOCK_RATE_ALL_MAX);
	rlock_call_start(&c, &script_take, count, (zend_string **) keys, NULL);
	rlock_call_num(&c, 1, reserve_us);
	for (int i = 0; i < count; i++) {
		args[i] = limit_arg(rates[i], n);
		rlock_call_str(&c, args[i]);
	}
	redisReply *r = rlock_lock_run(o, keys[0], &c, err);
	for (int i = 0; i < count; i++) {
		zend_string_release(args[i]);
	}
	if (!r) {
		return -1;
	}
	if (!take_reply(r, count, reserve_us)) {
		rlock_err_set(err, RLOCK_ERR_REPLY, rlock_route_answered(o)->label, "unexpected reply to the rate limit script");
		freeReplyObject(r);
		return -1;
	}
	int taken = r->element[0]->integer == 1;
	for (int i = 0; i < count; i++) {
		waits[i].wait_us = (zend_long) r->element[i + 1]->integer;
		waits[i].tat[0] = '\0';
	}
	if (taken) {
		memcpy(waits[0].tat, r->element[count + 1]->str, r->element[count + 1]->len);
		waits[0].tat[r->element[count + 1]->len] = '\0';
	}
	freeReplyObject(r);
	return taken;
}

/* Give back n permits of r on key that the take script said left tat there: when nobody
 * took any after them (else they stay taken). A failure is not the caller's: it has an
 * exception to throw already, and the permits are due anyway. */
static void give_back(const rlock_opts *o, zend_string *key, const rlock_rate *r, zend_long n, const char *tat)
{
	rlock_call c;
	rlock_err err = {0};
	zend_long s, q = cost(r, n, &s);
	zend_string *held = zend_string_init(tat, strlen(tat), 0);
	zend_string *arg = zend_strpprintf(0, ZEND_LONG_FMT " " ZEND_LONG_FMT " " ZEND_LONG_FMT, r->limit, q, s);

	rlock_call_start(&c, &script_give, 1, &key, NULL);
	rlock_call_str(&c, held);
	rlock_call_str(&c, arg);
	redisReply *reply = rlock_lock_run(o, key, &c, &err);
	zend_string_release(held);
	zend_string_release(arg);
	if (reply) {
		freeReplyObject(reply);
	}
}

int rlock_rate_acquire(const rlock_opts *o, zend_string *key, const rlock_rate *r, zend_long n, zend_long wait_ms,
	bool fair, zend_long *retry_us, rlock_err *err)
{
	zend_long start = rlock_now_us(), deadline = start + wait_ms * 1000;  /* wait_ms is at most RLOCK_MS_MAX */
	bool slept = false;
	rlock_rate_wait w;
	bool reached = false;

	rlock_conn_begin(o, wait_ms);
	for (;;) {
		zend_long left = MAX(deadline - rlock_now_us(), 0);
		int rc = rlock_rate_take(o, &key, &r, 1, n, fair ? left : 0, &w, err);
		if (rc < 0) {
			/* the server answered us in this wait, and went away since (a restart): waited
			 * out within the wait as a lock's waiter does, then the script again */
			if (rlock_lock_wait_out(o, reached, deadline / 1000, err)) {
				if (UNEXPECTED(EG(exception) != NULL)) {
					return -2;  /* (nothing taken) */
				}
				continue;
			}
			return -1;
		}
		reached = true;
		if (rc == 1) {
			/* reserved (fair): ours, due in wait_us, counted from the reply */
			rlock_rate_sleep(w.wait_us);
			if (UNEXPECTED(EG(exception) != NULL)) {
				/* an exception came in while we waited (Swoole: Co::cancel($cid, true)), and
				 * the caller gets it, not the permits: they go back at once */
				give_back(o, key, r, n, w.tat);
				return -2;
			}
			*retry_us = 0;
			/* a decision, with the time slept for it (the round trips' included) */
			rlock_stats_rate(key, true, slept || w.wait_us > 0 ? MAX(rlock_now_us() - start, 1) : 0);
			return 1;
		}
		if (fair || w.wait_us > deadline - rlock_now_us()) {
			*retry_us = w.wait_us;
			rlock_stats_rate(key, false, slept ? MAX(rlock_now_us() - start, 1) : 0);
			return 0;
		}
		rlock_rate_sleep(w.wait_us);
		slept = true;
		if (UNEXPECTED(EG(exception) != NULL)) {
			return -2;  /* (nothing taken) */
		}
	}
}

int rlock_rate_remaining(const rlock_opts *o, zend_string *key, const rlock_rate *rate, zend_long *out, rlock_err *err)
{
	rlock_call c;
	zend_long bs, bq = cost(rate, rate->burst, &bs);
	zend_string *arg = zend_strpprintf(0, ZEND_LONG_FMT " " ZEND_LONG_FMT " " ZEND_LONG_FMT, rate->limit, bq, bs);

	rlock_call_start(&c, &script_free, 1, &key, NULL);
	rlock_call_str(&c, arg);
	redisReply *r = rlock_lock_run(o, key, &c, err);
	zend_string_release(arg);
	if (!r) {
		return -1;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type != REDIS_REPLY_INTEGER
			|| r->element[1]->type != REDIS_REPLY_INTEGER || r->element[0]->integer < 0
			|| r->element[1]->integer < 0 || r->element[1]->integer >= rate->limit) {
		rlock_err_set(err, RLOCK_ERR_REPLY, rlock_route_answered(o)->label, "unexpected reply to the rate limit script");
		freeReplyObject(r);
		return -1;
	}
	/* the most permits k (0 to burst) whose cost fits the free part {fq, fs}: guessed, then
	 * put right by exact comparisons (the guess is a double's) */
	zend_long fq = MIN((zend_long) r->element[0]->integer, bq), fs = (zend_long) r->element[1]->integer;
	freeReplyObject(r);
	double per = (double) rate->per_q + (double) rate->per_s / (double) rate->limit;
	zend_long k = (zend_long) MIN(((double) fq + (double) fs / (double) rate->limit) / per, (double) rate->burst), s;
	zend_long q;
	while (k > 0 && ((q = cost(rate, k, &s)) > fq || (q == fq && s > fs))) {
		k--;
	}
	while (k < rate->burst && ((q = cost(rate, k + 1, &s)) < fq || (q == fq && s <= fs))) {
		k++;
	}
	*out = k;
	return 0;
}

int rlock_rate_reset(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	rlock_cmd cmd = { .argc = 2, .argv = { "DEL", ZSTR_VAL(key) }, .lens = { 3, ZSTR_LEN(key) } };
	redisReply *r = rlock_route_call(o, key, &cmd, 0, err);
	if (!r) {
		return -1;
	}
	if (rlock_reply_error(rlock_route_answered(o), r, err)) {
		return -1;
	}
	freeReplyObject(r);
	return 0;
}

void rlock_rate_sleep(zend_long wait_us)
{
	/* to a deadline: a signal that cuts a sleep short is slept through; in a Swoole
	 * coroutine the sleep yields (rlock_sleep_us), and ends when an exception comes in */
	zend_long until = rlock_now_us() + wait_us, left;
	while ((left = until - rlock_now_us()) > 0 && !EG(exception)) {
		rlock_sleep_us(left);
	}
}
