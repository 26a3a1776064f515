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

/* The scripts' text is Lua, in src/primitives/lua/ (one .lua file per script, the pieces they
 * share in lib/ and in files whose name begins with "_"), made into C string macros at build
 * time: src/primitives/lua.h (scripts/gen_lua.php). */

/* How long a fencing counter outlives the lease ttl of the last token it issued (issue()'s keep). */
zend_long rlock_fence_keep(zend_long ttl);

typedef struct {
	const char *source;
	size_t len;  /* the source's (set with sha by rlock_script_init()) */
	char sha[41];
} rlock_script;

extern rlock_script rlock_script_acquire;
extern rlock_script rlock_script_release;
extern rlock_script rlock_script_force_release;
extern rlock_script rlock_script_extend;
extern rlock_script rlock_script_extend_heal;  /* Redlock's, per master */
extern rlock_script rlock_script_fence_floor;
extern rlock_script rlock_script_renew;  /* the watchdog's; source and sha fixed after MINIT */

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
/* Redlock's extend of token's hold on one master, healing it there if the key is gone (fence:
 * the hold's fencing token, 0 none). */
void rlock_call_extend_heal(rlock_call *c, rlock_keys *k, zend_string *token, zend_long ttl, zend_long fence);
void rlock_call_fence_floor(rlock_call *c, rlock_keys *k, zend_long floor, zend_string *token, const rlock_opts *o);
/* The pieces of a call, for the scripts of other primitives: EVALSHA s numkeys keys...
 * [extra], then arguments; a number is written into c->num[slot] (0 is taken by numkeys). */
void rlock_call_start(rlock_call *c, const rlock_script *s, int nkeys, zend_string **keys, zend_string *extra);
void rlock_call_num(rlock_call *c, int slot, zend_long n);
void rlock_call_str(rlock_call *c, zend_string *s);
/* A token argument: token, or for NULL RLOCK_TOKEN_ANY, which the read-write lock's and the
 * multi lock's scripts read as "whoever holds" (forceUnlock(); the read side's query: any
 * reader). It is no token of ours (rlock_token_ours()), and no other argument means it: a
 * caller's '' or malformed token compares as a token that holds nothing. */
#define RLOCK_TOKEN_ANY "*"
void rlock_call_token(rlock_call *c, zend_string *token);
void rlock_call_flag(rlock_call *c, bool flag);
/* The packed argument: "token n n ..." (m numbers, m <= 5; no token when NULL). */
void rlock_call_packed(rlock_call *c, zend_string *token, const zend_long *nums, int m);
/* The first two arguments that send c's script itself (EVAL), not its SHA. */
void rlock_call_eval_head(const rlock_call *c, const char *argv[2], size_t lens[2]);
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
/* Whether r, a GET of a mutex's key, says token holds it: the token, bare or marked with
 * the "+" that tells its release that waiters are counted (lua/lock/acquire.lua). */
bool rlock_reply_holds(const redisReply *r, const zend_string *token);
/* Whether r is what an acquire script answers: {1, a token of ours, fence >= 0} or
 * {0, pttl >= -2, wait >= 0}; with bare (the call's script is lua/lock/acquire.lua, the one
 * that answers so: rlock_script_acquire), also the mutex's pttl >= -2 alone. The other
 * acquire scripts answer tables only: an integer from them is no "not acquired". */
bool rlock_reply_is_attempt(const redisReply *r, bool bare);
/* r, for which rlock_reply_is_attempt() holds, from a call that sent wait_ms: -1 acquired,
 * else how long to wait. */
zend_long rlock_reply_block(const redisReply *r, zend_long wait_ms);

/* Replies into results; each frees r. False with err set on an unexpected reply (an
 * integer: outside min..max). (An error reply: rlock_reply_error(), src/transport/conn.h.) */
bool rlock_reply_integer(const rlock_server *s, redisReply *r, zend_long min, zend_long max, zend_long *out,
	rlock_err *err);
/* (bare: as for rlock_reply_is_attempt(); wait_ms: with bare, the wait the call sent, for
 * the mutex's integer answer) */
bool rlock_reply_attempt(const rlock_server *s, redisReply *r, bool bare, zend_long wait_ms, rlock_attempt *res,
	rlock_err *err);

/* A fresh owner token: 128 bits from the OS CSPRNG, as 32 hex digits. */
zend_string *rlock_new_token(rlock_err *err);
/* now + wait_ms, saturating. A wait is 0 to RLOCK_MS_MAX ms (about 24.8 days) for every
 * primitive and option alike (rlock_ms_arg, the "wait" option's range): PHP_INT_MAX is a
 * ValueError, never a wait for ever. */
zend_long rlock_deadline(zend_long wait_ms);

#endif
