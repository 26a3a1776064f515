#ifndef RLOCK_SCRIPTS_H
#define RLOCK_SCRIPTS_H

#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/transport/conn.h"

/* Room for any zend_long in decimal, sign and NUL included. */
#define RLOCK_LONG_STR 24
/* n in decimal, written at the end of buf: its first digit (or sign), NUL-terminated; what
 * snprintf() costs, less its parsing of a format (a lock cycle formats several). */
const char *rlock_long_str(char buf[RLOCK_LONG_STR], zend_long n);

/* Lua the scripts share.
 * atleast(): key lives at least ms more (a key without expiry gets one); with more, a key
 * found short of ms is given ms + more, so that the calls that follow within more ms find it
 * long enough and leave it (one command each, PTTL, instead of two).
 * clock_ms(): the server's clock in ms, what the leases in sorted sets of holders count in. */
#define RLOCK_LUA_ATLEAST \
	"local function atleast(key, ms, more)\n" \
	"  ms = tonumber(ms)\n" \
	"  if redis.call('pttl', key) < ms then redis.call('pexpire', key, ms + (more or 0)) end\n" \
	"end\n"
#define RLOCK_LUA_CLOCK_MS \
	"local function clock_ms()\n" \
	"  local t = redis.call('time')\n" \
	"  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n" \
	"end\n"

/* Lua the scripts of the lock (scripts.c) and the read-write lock share (rwlock.c).
 * issue(): the next fencing token of a key: the server's clock in microseconds, or one more
 * than the last token when that is not below it. The counter outlives its last token by
 * keep ms (FENCE_KEEP_MS past the lease), then expires: nothing is kept for ever, and the
 * token after the expiry is the clock, past every earlier token. By induction, each token is
 * at most the clock when it was issued (a script takes more than a microsecond of a
 * single-threaded server, so the clock moves on between two tokens), so the clock at the
 * next acquire is past it, counter or not. The counter keeps the sequence increasing should
 * the clock step back while it lives (an NTP step, a failover to a replica whose clock is
 * behind): a step back by more than keep ms after the counter expired is the one case it
 * does not cover. With Redlock a master's counter may be raised to another master's clock:
 * the same holds while the masters' clocks agree within keep ms. Tokens fit a double exactly
 * until the year 2255. */
#define RLOCK_LUA_ISSUE RLOCK_LUA_ATLEAST \
	"local function issue(fence, keep)\n" \
	"  local t = redis.call('time')\n" \
	"  local f = tonumber(t[1]) * 1000000 + tonumber(t[2])\n" \
	"  local last = tonumber(redis.call('get', fence))\n" \
	"  if last and last >= f then f = last + 1 end\n" \
	"  redis.call('set', fence, string.format('%.0f', f), 'KEEPTTL')\n" \
	"  atleast(fence, keep)\n" \
	"  return f\n" \
	"end\n"
/* How long a fencing counter outlives the lease ttl of the last token it issued (issue()'s keep). */
zend_long rlock_fence_keep(zend_long ttl);

typedef struct {
	const char *source;
	char sha[41];
} rlock_script;

extern rlock_script rlock_script_acquire;
extern rlock_script rlock_script_release;
extern rlock_script rlock_script_force_release;
extern rlock_script rlock_script_extend;
extern rlock_script rlock_script_fence_floor;
extern rlock_script rlock_script_renew;  /* the watchdog's; source and sha fixed after MINIT */

/* free(): a release of a key with waiters, n their count (> 0). A waiter of the mutex counts
 * 1 in it, a waiter of a lock over several keys (multi.c) 2^32 (exact in a Lua number up to
 * 2^21 of them). With only the mutex's waiters and fair, the key goes straight
 * to the longest of them: set to nexttoken (ttl its lease), its count uncounted, the grant
 * "token fence ttl" pushed on grants (a fencing token issued when a fencing waiter made the
 * counter exist): 2. Otherwise the key is freed, and a "wake" pushed for each waiter of a
 * multi lock on wakes (each waits on every key's wakes and takes all of its keys or none)
 * and one for the mutex's on grants, unless the list has them: the first to try again takes
 * it: 1. A multi waiter is never handed one key, and never blocks on grants: a grant can
 * wait there for a mutex waiter that is not blocked at that moment (woken by a "wake", not
 * yet back), which a multi waiter's BLPOP would pop and drop (the key then held by nobody
 * for a whole lease). */
#define RLOCK_LUA_FREE RLOCK_LUA_ISSUE \
	"local function free(lock, grants, waiters, fence, wakes, n, nexttoken, fair, ttl, keep)\n" \
	"  local multi = math.floor(n / 4294967296)\n" \
	"  if fair == '1' and multi == 0 then\n" \
	"    if n > 1 then redis.call('decr', waiters) else redis.call('del', waiters) end\n" \
	"    local f = 0\n" \
	"    if redis.call('exists', fence) == 1 then f = issue(fence, keep) end\n" \
	"    redis.call('set', lock, nexttoken, 'PX', ttl)\n" \
	"    redis.call('rpush', grants, nexttoken .. ' ' .. string.format('%.0f', f) .. ' ' .. ttl)\n" \
	"    redis.call('pexpire', grants, ttl)\n" \
	"    return 2\n" \
	"  end\n" \
	"  redis.call('del', lock)\n" \
	"  local function wake(list, want)\n" \
	"    local have = redis.call('llen', list)\n" \
	"    if have >= want then return end\n" \
	"    local w = {}\n" \
	"    for i = 1, want - have do w[i] = 'wake' end\n" \
	"    redis.call('rpush', list, unpack(w))\n" \
	"    redis.call('pexpire', list, ttl)\n" \
	"  end\n" \
	"  if multi > 0 then wake(wakes, math.min(multi, 1000)) end\n" \
	"  if n - multi * 4294967296 > 0 then wake(grants, 1) end\n" \
	"  return 1\n" \
	"end\n"

void rlock_scripts_minit(void);
/* s->sha from s->source (MINIT; for the scripts of every primitive). */
void rlock_script_init(rlock_script *s);

/* The lock key and its companions, which share its hash slot: the key's own {hash tag} if
 * it has one, else the whole key as the tag. How the names are made, and why no two locks
 * share one: scripts.c. */
typedef struct rlock_keys_s {
	zend_string *keys[5];  /* lock, grants, waiters, fence, wakes (a multi lock's waiters') */
	bool tagged;           /* the key has a {hash tag} of its own */
} rlock_keys;

/* The Redis key of the lock on full (prefix and key; released, or returned as it is). */
zend_string *rlock_keys_lock_key(zend_string *full);
/* Whether l can be the Redis key of a lock whose full key begins with prefix (then a key of
 * its own after it): rlock_keys_lock_key() of such a key. */
bool rlock_keys_is_lock_key(zend_string *l, zend_string *prefix);
void rlock_keys_init(rlock_keys *k, zend_string *key);
/* Whether key's companions can share its Cluster slot: it has a {hash tag}, or no '}' at all
 * (then "{key}" is the companions' tag). */
bool rlock_keys_cluster_safe(zend_string *key);
/* The list where a successful acquire tells its own BLPOP so (one per lock() call). */
zend_string *rlock_keys_self(rlock_keys *k, zend_string *token);
/* The companion of the lock key lock_key named role (no ':' in it; the roles each primitive
 * uses are listed in scripts.c). */
zend_string *rlock_keys_companion(zend_string *lock_key, const char *role);
/* The lock key whose companion named role c is, or NULL when it is none (a new string). */
zend_string *rlock_keys_companion_base(zend_string *c, const char *role);
/* How messages name the lock whose companion named role c is: its lock key, or c itself
 * when it is none (a new string). */
zend_string *rlock_keys_companion_name(zend_string *c, const char *role);
void rlock_keys_free(rlock_keys *k);

/* One script call, as EVALSHA; switched to EVAL when the server answers NOSCRIPT. */
typedef struct rlock_call_s {
	rlock_cmd cmd;
	const rlock_script *script;
	char num[5][RLOCK_LONG_STR];
	char packed[6 * RLOCK_LONG_STR];  /* several values in one argument: "token n n n" */
} rlock_call;

void rlock_call_acquire(rlock_call *c, rlock_keys *k, zend_string *token, const rlock_opts *o, zend_long wait_ms,
	bool queued, zend_string *self);
/* The release of token's hold; token NULL: of whoever holds the key (RLock::forceUnlock()). */
void rlock_call_release(rlock_call *c, rlock_keys *k, zend_string *token, zend_string *next, const rlock_opts *o,
	bool fair);
void rlock_call_extend(rlock_call *c, zend_string **key, zend_string *token, zend_long ttl);
void rlock_call_fence_floor(rlock_call *c, rlock_keys *k, zend_long floor, zend_string *token, const rlock_opts *o);
/* The pieces of a call, for the scripts of other primitives: EVALSHA s numkeys keys...
 * [extra], then arguments; a number is written into c->num[slot] (0 is taken by numkeys). */
void rlock_call_start(rlock_call *c, const rlock_script *s, int nkeys, zend_string **keys, zend_string *extra);
void rlock_call_num(rlock_call *c, int slot, zend_long n);
void rlock_call_str(rlock_call *c, zend_string *s);
void rlock_call_flag(rlock_call *c, bool flag);
/* The packed argument: "token n n ..." (m numbers, m <= 5; no token when NULL). */
void rlock_call_packed(rlock_call *c, zend_string *token, const zend_long *nums, int m);
/* Send the script itself (EVAL), not its SHA. */
void rlock_call_use_eval(rlock_call *c);
/* True (and c switched to EVAL) when r says the server does not know the script. */
bool rlock_call_noscript(rlock_call *c, redisReply *r);

/* What one acquire script call answered. */
typedef struct rlock_attempt_s {
	bool acquired;
	zend_string *token;  /* acquired: ours, or the grant we took over */
	zend_long fence;
	zend_long pttl;      /* not acquired: the holder's remaining lease */
	zend_long block;     /* not acquired: how long to wait for a hand-over */
} rlock_attempt;

/* Replies are input. Whether [s, s + len) looks like a token of ours (32 lower-case hex
 * digits): a token from a reply is adopted only then. */
bool rlock_token_ours(const char *s, size_t len);
/* Whether r is what the acquire script answers: {1, a token of ours, fence >= 0} or
 * {0, pttl >= -2, wait >= 0}. */
bool rlock_reply_is_attempt(const redisReply *r);

/* Replies into results; each frees r. False with err set on an unexpected reply (an
 * integer: outside min..max). (An error reply: rlock_reply_error(), src/transport/conn.h.) */
bool rlock_reply_integer(const rlock_server *s, redisReply *r, zend_long min, zend_long max, zend_long *out,
	rlock_err *err);
bool rlock_reply_attempt(const rlock_server *s, redisReply *r, rlock_attempt *res, rlock_err *err);

/* A fresh owner token: 128 bits from the OS CSPRNG, as 32 hex digits. */
zend_string *rlock_new_token(rlock_err *err);
/* now + wait_ms, saturating. A wait is 0 to RLOCK_MS_MAX ms (about 24.8 days) for every
 * primitive and option alike (rlock_ms_arg, the "wait" option's range): PHP_INT_MAX is a
 * ValueError, never a wait for ever. */
zend_long rlock_deadline(zend_long wait_ms);

#endif
