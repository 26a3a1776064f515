#ifndef RLOCK_LOCK_H
#define RLOCK_LOCK_H

#include "src/core/options.h"
#include "src/core/errors.h"
#include "src/transport/conn.h"
#include "zend_smart_str.h"

/* One acquisition of a key. */
typedef struct {
	zend_string *token;     /* 32 hex digits: 128 bits from the OS CSPRNG */
	zend_long fence;        /* fencing token, 0 without the option; -1: none (a multi lock) */
	zend_long valid_until;  /* the monotonic ms our lease (Redlock: its validity) ends, by our clock */
} rlock_hold;

/* A lock algorithm: on one server (lock.c) or over N masters (redlock.c). Results: 1 yes,
 * 0 no, -1 err set. */
typedef struct {
	/* What a hold of this algorithm is called in this process' registry: holds of
	 * different kinds on one key are distinct (mutex, over one server or N: "lock"). */
	const char *kind;
	/* Held by several at once, each acquire a hold of its own (a semaphore's permits): never
	 * reentrant, kept in the registry under its token too, and taken outside the registry
	 * (acquire NULL; rlock_registry_add). */
	bool shared;
	/* Acquire, waiting up to wait_ms; out filled on 1 (out->token is the caller's). */
	int (*acquire)(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err);
	/* Compare-and-delete; 0: it was not ours. h->token NULL: delete whoever holds it
	 * (RLock::forceUnlock()), the waiters served as by the holder's release; 0: nobody did. */
	int (*release)(const rlock_opts *o, zend_string *key, const rlock_hold *h, rlock_err *err);
	/* Compare-and-pexpire to ttl; 0: it was not ours. */
	int (*extend)(const rlock_opts *o, zend_string *key, rlock_hold *h, zend_long ttl, rlock_err *err);
	int (*is_owner)(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err);
	int (*exists)(const rlock_opts *o, zend_string *key, rlock_err *err);
	/* The key's remaining lease into *out (-2 no key, -1 no expiry); 0 or -1. */
	int (*pttl)(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err);
	/* restore()'s look where set (Redlock): 1 token holds the lock, *out the lease the
	 * masters holding it have (-1 no expiry); 0 not held; -1 err. NULL: is_owner, then pttl. */
	int (*owner_pttl)(const rlock_opts *o, zend_string *key, zend_string *token, zend_long *out, rlock_err *err);
	/* The Redis keys a hold of key keeps its token in, which the watchdog renews: at most
	 * max into out (the caller releases them), how many. NULL: key itself. */
	uint32_t (*renewed)(zend_string *key, zend_string **out, uint32_t max);
	/* How a message names the lock on key, as the user knows it, appended to out (after
	 * "the"). NULL: lock "key" (a mutex's key is the user's, prefix included). */
	void (*name)(zend_string *key, smart_str *out);
	/* How the statistics name the lock on key (src/stats): a new string. NULL: as messages
	 * do for a lock over several keys (name), else key. */
	zend_string *(*stats_name)(zend_string *key);
} rlock_algo;

/* The most Redis keys one hold keeps its token in (rlock_algo.renewed). */
#define RLOCK_ALGO_MAX_KEYS 10

extern const rlock_algo rlock_lock_algo;


/* noun "key" appended to out: how messages name a lock. */
void rlock_lock_name(smart_str *out, const char *noun, zend_string *key);
/* How messages name a's lock on key, after "the" (a->name): a new string. */
zend_string *rlock_algo_name(const rlock_algo *a, zend_string *key);

/* WAIT until sync_replicas replicas have our writes, within read_timeout: 1 they have, 0
 * too few did in time, -1 err set. After any acquire, the caller giving the lock back short
 * of 1. */
int rlock_lock_await_replicas(const rlock_opts *o, zend_string *key, rlock_err *err);

struct rlock_keys_s;
struct rlock_attempt_s;
struct rlock_call_s;

/* Acquires whose reply never came (a timeout, a dropped connection) may have taken the key
 * all the same: token_lost() remembers the token, and the next acquire of that key (of that
 * kind of lock) in this process gets it from token_for() (else a fresh one), so that its
 * script takes a key that holds it for ours: no orphan lock blocks the key for its ttl. */
zend_string *rlock_lock_token_for(const rlock_opts *o, const char *kind, zend_string *key, rlock_err *err);
void rlock_lock_token_lost(const rlock_opts *o, const char *kind, zend_string *key, zend_string *token);

/* One caller waiting for a lock of any kind (the mutex; a read-write lock's sides; a
 * semaphore's permits): what rlock_lock_wait() needs to run its rounds. */
typedef struct rlock_waiter_s {
	struct rlock_keys_s *k;  /* k->keys[0] routes the calls (every key of a lock shares its slot) */
	zend_string *token;      /* the caller's */
	zend_string *list;       /* what a release pushes on: grants ("token fence ttl") or wakes */
	/* A lock over several keys (multi.c): nlists lists instead of list, each key's wakes (a
	 * release pushes only "wake" there: nothing popped from them is adopted). */
	zend_string *const *lists;
	int nlists;
	/* c: one acquire answering as the lock's does, that, failing, counts the caller among
	 * the waiters when wait_ms > 0 (queued: counted already) and leaves them when 0; self,
	 * when not NULL, its last key, where a win pushes "1" */
	void (*call)(struct rlock_call_s *c, const struct rlock_waiter_s *w, const rlock_opts *o, zend_long wait_ms,
		bool queued, zend_string *self);
	/* A grant of another kind of primitive (a semaphore's, pushed on self): whether r, what
	 * the BLPOP popped, is one; 1 yes (res filled as by a win, res->block nonzero: the lease
	 * it came with), 0 no. NULL: the lock's, "token fence ttl" popped from list. */
	int (*grant)(const redisReply *r, const struct rlock_waiter_s *w, struct rlock_attempt_s *res);
	void *arg;               /* the call's and the grant's */
	/* our own list: the caller's when set, else made at the first round (the caller frees
	 * it either way) */
	zend_string *self;
	zend_long sent;          /* when the last acquire was sent: a lease runs from there */
} rlock_waiter;

/* Keys this process found taken lately (a lock's, a semaphore's): their first attempt may
 * queue the caller; any other key's first attempt is the cheapest that can take it. */
bool rlock_lock_key_hot(zend_string *key);
void rlock_lock_mark_hot(zend_string *key);

/* Wait for w's lock until deadline without polling: rounds of its acquire and a BLPOP on
 * its list (and self) in one write, woken by a release's push, by our own push when the
 * holder's lease ends, or at the deadline. 1 acquired (res filled: a grant popped comes
 * with res->block, its lease), 0 not by the deadline (no longer counted), -1 err set. */
int rlock_lock_wait(const rlock_opts *o, rlock_waiter *w, zend_long deadline, struct rlock_attempt_s *res,
	rlock_err *err);
/* A waiter's round failed with err: whether it waits on (true, err cleared, after
 * retry_delay, jittered) because the server it reached in this wait went away (a connection
 * error, a restart) and deadline (rlock_now_ms() time) has not passed: a waiter whose Redis
 * restarts keeps waiting, and reconnects within its wait. false: the failure is the
 * caller's (an error Redis answered, a server never reached, the deadline passed). */
bool rlock_lock_wait_out(const rlock_opts *o, bool reached, zend_long deadline, rlock_err *err);

/* Block on server s until a release hands key k over (1, res filled: res->block is the
 * lease it came with), wakes us, or block_ms pass (0: try again); -1 err set. */
int rlock_lock_await(const rlock_opts *o, const rlock_server *s, struct rlock_keys_s *k, zend_long block_ms,
	struct rlock_attempt_s *res, rlock_err *err);

/* One script call about key, within the call under way: EVALSHA, and EVAL when the server
 * does not know the script. The reply, or NULL with err set (error replies included). */
redisReply *rlock_lock_run(const rlock_opts *o, zend_string *key, struct rlock_call_s *c, rlock_err *err);

#endif
