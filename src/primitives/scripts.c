/* The scripts every lock runs on a Redis server, the keys they touch, and the pieces
 * the one-server lock (lock.c) and Redlock (redlock.c) share. */

#include "php.h"
#include "php_rlock.h"
#include "ext/standard/sha1.h"
#if PHP_VERSION_ID >= 80200
# include "ext/random/php_random.h"
#else
# include "ext/standard/php_random.h" /* php_random_bytes/int before ext/random (8.1) */
#endif
#include "zend_smart_str.h"
#include "src/primitives/scripts.h"
#include "src/primitives/lua.h"
#include "src/transport/route.h"

#include <time.h>
#include <unistd.h>

/* issue(): src/primitives/lua/lib/issue.lua. */

/* How long a fencing counter outlives the lease of the last token it issued. */
#define FENCE_KEEP_MS 10000

zend_long rlock_fence_keep(zend_long ttl)
{
	return ttl > ZEND_LONG_MAX - FENCE_KEEP_MS ? ZEND_LONG_MAX : ttl + FENCE_KEEP_MS;
}

/* src/primitives/lua/lock/acquire.lua */
rlock_script rlock_script_acquire = { .source = RLOCK_LUA_LOCK_ACQUIRE };

/* src/primitives/lua/lock/release.lua */
rlock_script rlock_script_release = { .source = RLOCK_LUA_LOCK_RELEASE };

/* src/primitives/lua/lock/force_release.lua */
rlock_script rlock_script_force_release = { .source = RLOCK_LUA_LOCK_FORCE_RELEASE };

/* src/primitives/lua/lock/extend.lua */
rlock_script rlock_script_extend = { .source = RLOCK_LUA_LOCK_EXTEND };

/* src/primitives/lua/lock/extend_heal.lua */
rlock_script rlock_script_extend_heal = { .source = RLOCK_LUA_LOCK_EXTEND_HEAL };

/* src/primitives/lua/lock/renew.lua */
rlock_script rlock_script_renew = { .source = RLOCK_LUA_LOCK_RENEW };

/* src/primitives/lua/lock/fence_floor.lua */
rlock_script rlock_script_fence_floor = { .source = RLOCK_LUA_LOCK_FENCE_FLOOR };

void rlock_script_init(rlock_script *s)
{
	PHP_SHA1_CTX ctx;
	unsigned char digest[20];
	s->len = strlen(s->source);
	PHP_SHA1Init(&ctx);
	PHP_SHA1Update(&ctx, (const unsigned char *) s->source, s->len);
	PHP_SHA1Final(digest, &ctx);
	make_sha1_digest(s->sha, digest);
}

void rlock_scripts_minit(void)
{
	rlock_script_init(&rlock_script_acquire);
	rlock_script_init(&rlock_script_release);
	rlock_script_init(&rlock_script_force_release);
	rlock_script_init(&rlock_script_extend);
	rlock_script_init(&rlock_script_extend_heal);
	rlock_script_init(&rlock_script_fence_floor);
	rlock_script_init(&rlock_script_renew);
}

const char *rlock_long_str(char buf[RLOCK_LONG_STR], zend_long n)
{
	return zend_print_long_to_buf(buf + RLOCK_LONG_STR - 1, n);
}

zend_long rlock_deadline(zend_long wait_ms)
{
	zend_long now = rlock_now_ms();
	return wait_ms > ZEND_LONG_MAX - now ? ZEND_LONG_MAX : now + wait_ms;
}

zend_string *rlock_new_token(rlock_err *err)
{
	static const char hex[] = "0123456789abcdef";
	/* one getrandom() for 16 tokens; a forked child draws its own */
	if (RLOCK_G(random_used) + 16 > sizeof(RLOCK_G(random_pool)) || RLOCK_G(random_pid) != rlock_getpid()) {
		if (php_random_bytes_silent(RLOCK_G(random_pool), sizeof(RLOCK_G(random_pool))) == FAILURE) {
			rlock_err_set(err, RLOCK_ERR_REPLY, "-", "the operating system's CSPRNG failed");
			return NULL;
		}
		RLOCK_G(random_used) = 0;
		RLOCK_G(random_pid) = rlock_getpid();
	}
	unsigned char *raw = RLOCK_G(random_pool) + RLOCK_G(random_used);
	RLOCK_G(random_used) += 16;
	zend_string *t = zend_string_alloc(32, 0);
	for (int i = 0; i < 16; i++) {
		ZSTR_VAL(t)[2 * i] = hex[raw[i] >> 4];
		ZSTR_VAL(t)[2 * i + 1] = hex[raw[i] & 15];
	}
	ZSTR_VAL(t)[32] = '\0';
	memset(raw, 0, 16);  /* a handed-out token is not left in the pool */
	return t;
}

static bool has_hash_tag(zend_string *key)
{
	size_t tag_len;
	return rlock_route_hash_tag(ZSTR_VAL(key), ZSTR_LEN(key), &tag_len) != NULL;
}

bool rlock_keys_cluster_safe(zend_string *key)
{
	return has_hash_tag(key) || !memchr(ZSTR_VAL(key), '}', ZSTR_LEN(key));
}

/* Key names. Distinct locks never share a Redis key, companions included, whatever the
 * prefix:
 *
 * - The lock of the full key K (prefix and key, any bytes) is the Redis key L = K, or
 *   "}" K when K begins with "}" (which keys hardly ever do).
 * - L's companions are "}{" L "}:" role when L has no {hash tag}, else "}=" L ":" role;
 *   role is "grants", "waiters", "fence", "wakes", or "self-" and a waiter's token (hex); a
 *   semaphore's (semaphore.c) "semaphore", "semaphore-queue", "semaphore-waiters" and
 *   "semaphore-self-" and a ticket (hex); a rate limit's (ratelimit.c) "rate": never a
 *   ':'. (An ACL pattern "~}?PREFIX*" covers them.)
 *
 * Lock keys: K -> L is one-to-one (the identity on keys not beginning with "}"; a "}" put
 * before those that do, which then begin with two). No lock key is a companion: a lock key
 * begins with a byte other than "}", or with "}}"; a companion begins with "}{" or "}=".
 * Companions: the byte after the first tells the form, the role is what follows the last
 * ':' (the role has none), and what is left is L, braces taken off in the "{" form; so one
 * name is one (L, role), and as K -> L is one-to-one, one (K, role).
 *
 * Cluster: the hash tag is between the first "{" and the next "}". Neither the leading "}"
 * nor "=" is a "{", so a tagged L's companions have L's own tag, and an untagged L, which
 * then has no "}" at all (rlock_keys_cluster_safe()), is its companions' tag, whole: the
 * companions hash to L's slot. */
#define KEY_MARK '}'

zend_string *rlock_keys_lock_key(zend_string *full)
{
	if (ZSTR_LEN(full) == 0 || ZSTR_VAL(full)[0] != KEY_MARK) {
		return full;
	}
	zend_string *l = zend_string_concat2("}", 1, ZSTR_VAL(full), ZSTR_LEN(full));
	zend_string_release(full);
	return l;
}

bool rlock_keys_is_lock_key(zend_string *l, zend_string *prefix)
{
	const char *k = ZSTR_VAL(l);
	size_t len = ZSTR_LEN(l);
	if (len > 0 && k[0] == KEY_MARK) {
		/* "}" put before a full key that begins with one; any other is a companion */
		if (len < 2 || k[1] != KEY_MARK) {
			return false;
		}
		k++;
		len--;
	}
	return len > ZSTR_LEN(prefix) && memcmp(k, ZSTR_VAL(prefix), ZSTR_LEN(prefix)) == 0;
}

static zend_string *companion_of(zend_string *l, bool tagged, const char *role, zend_string *extra)
{
	/* "}{" L "}:" role extra, or "}=" L ":" role extra: one allocation of its exact size */
	size_t role_len = strlen(role), extra_len = extra ? ZSTR_LEN(extra) : 0;
	zend_string *c = zend_string_alloc(2 + ZSTR_LEN(l) + !tagged + 1 + role_len + extra_len, 0);
	char *p = ZSTR_VAL(c);
	*p++ = KEY_MARK;
	*p++ = tagged ? '=' : '{';
	memcpy(p, ZSTR_VAL(l), ZSTR_LEN(l));
	p += ZSTR_LEN(l);
	if (!tagged) {
		*p++ = '}';
	}
	*p++ = ':';
	memcpy(p, role, role_len);
	p += role_len;
	if (extra) {
		memcpy(p, ZSTR_VAL(extra), extra_len);
		p += extra_len;
	}
	*p = '\0';
	return c;
}

static zend_string *companion(rlock_keys *k, const char *role, zend_string *extra)
{
	return companion_of(k->keys[0], k->tagged, role, extra);
}

zend_string *rlock_keys_companion(zend_string *lock_key, const char *role)
{
	return companion_of(lock_key, has_hash_tag(lock_key), role, NULL);
}

zend_string *rlock_keys_companion_base(zend_string *c, const char *role)
{
	/* "}{" L "}:" role or "}=" L ":" role, as companion_of() makes them */
	size_t role_len = strlen(role), len = ZSTR_LEN(c);
	if (len < 3 + role_len || ZSTR_VAL(c)[0] != KEY_MARK) {
		return NULL;
	}
	bool braced = ZSTR_VAL(c)[1] == '{';
	size_t tail = 1 + role_len + braced;
	if ((!braced && ZSTR_VAL(c)[1] != '=') || len < 2 + tail
			|| memcmp(ZSTR_VAL(c) + len - role_len, role, role_len) != 0) {
		return NULL;
	}
	return zend_string_init(ZSTR_VAL(c) + 2, len - 2 - tail, 0);
}

zend_string *rlock_keys_companion_name(zend_string *c, const char *role)
{
	zend_string *base = rlock_keys_companion_base(c, role);
	return base ? base : zend_string_copy(c);
}

void rlock_keys_init(rlock_keys *k, zend_string *key)
{
	static const char *role[4] = { "grants", "waiters", "fence", "wakes" };
	k->tagged = has_hash_tag(key);
	k->keys[0] = zend_string_copy(key);
	for (int i = 0; i < 4; i++) {
		k->keys[i + 1] = companion(k, role[i], NULL);
	}
}

zend_string *rlock_keys_self(rlock_keys *k, zend_string *token)
{
	return companion(k, "self-", token);
}

void rlock_keys_free(rlock_keys *k)
{
	for (int i = 0; i < 5; i++) {
		zend_string_release(k->keys[i]);
	}
}

/* EVALSHA sha numkeys keys... [extra key] */
void rlock_call_start(rlock_call *c, const rlock_script *s, int nkeys, zend_string **keys, zend_string *extra)
{
	rlock_cmd *cmd = &c->cmd;
	c->script = s;
	cmd->argc = 0;
	cmd->argv[cmd->argc] = "EVALSHA"; cmd->lens[cmd->argc++] = 7;
	cmd->argv[cmd->argc] = s->sha; cmd->lens[cmd->argc++] = 40;
	const char *n = rlock_long_str(c->num[0], nkeys + (extra != NULL));
	cmd->argv[cmd->argc] = n; cmd->lens[cmd->argc++] = c->num[0] + sizeof(c->num[0]) - 1 - n;
	for (int i = 0; i < nkeys; i++) {
		cmd->argv[cmd->argc] = ZSTR_VAL(keys[i]); cmd->lens[cmd->argc++] = ZSTR_LEN(keys[i]);
	}
	if (extra) {
		cmd->argv[cmd->argc] = ZSTR_VAL(extra); cmd->lens[cmd->argc++] = ZSTR_LEN(extra);
	}
}

static void call_arg(rlock_call *c, const char *arg, size_t len)
{
	c->cmd.argv[c->cmd.argc] = arg;
	c->cmd.lens[c->cmd.argc++] = len;
}

void rlock_call_num(rlock_call *c, int slot, zend_long n)
{
	const char *s = rlock_long_str(c->num[slot], n);
	call_arg(c, s, c->num[slot] + sizeof(c->num[slot]) - 1 - s);
}

void rlock_call_str(rlock_call *c, zend_string *s)
{
	call_arg(c, ZSTR_VAL(s), ZSTR_LEN(s));
}

void rlock_call_token(rlock_call *c, zend_string *token)
{
	if (token) {
		rlock_call_str(c, token);
	} else {
		call_arg(c, RLOCK_TOKEN_ANY, sizeof(RLOCK_TOKEN_ANY) - 1);
	}
}

/* The packed argument: a token (none when NULL), then the m numbers of nums, separated by
 * spaces; the token is cut should it not leave room for them (a token never is: 32 bytes). */
void rlock_call_packed(rlock_call *c, zend_string *token, const zend_long *nums, int m)
{
	char *p = c->packed, num[RLOCK_LONG_STR];
	size_t len = token ? MIN(ZSTR_LEN(token), sizeof(c->packed) - (size_t) m * RLOCK_LONG_STR) : 0;
	if (token) {
		memcpy(p, ZSTR_VAL(token), len);
		p += len;
	}
	for (int i = 0; i < m; i++) {
		const char *n = rlock_long_str(num, nums[i]);
		len = num + sizeof(num) - 1 - n;
		if (token || i > 0) {
			*p++ = ' ';
		}
		memcpy(p, n, len);
		p += len;
	}
	call_arg(c, c->packed, p - c->packed);
}

void rlock_call_flag(rlock_call *c, bool flag)
{
	call_arg(c, flag ? "1" : "0", 1);
}

void rlock_call_acquire(rlock_call *c, rlock_keys *k, zend_string *token, const rlock_opts *o, zend_long wait_ms,
	bool queued, zend_string *self)
{
	rlock_call_start(c, &rlock_script_acquire, 4, k->keys, self);
	rlock_call_str(c, token);
	rlock_call_num(c, 1, o->ttl);
	rlock_call_flag(c, o->fencing);
	rlock_call_num(c, 2, wait_ms);
	rlock_call_flag(c, queued);
	rlock_call_num(c, 3, rlock_fence_keep(o->ttl));
}

void rlock_call_release(rlock_call *c, rlock_keys *k, zend_string *token, zend_string *next, const rlock_opts *o,
	bool fair)
{
	zend_long nums[3] = { fair, o->ttl, rlock_fence_keep(o->ttl) };
	rlock_call_start(c, token ? &rlock_script_release : &rlock_script_force_release, 5, k->keys, NULL);
	rlock_call_str(c, token ? token : ZSTR_EMPTY_ALLOC());
	rlock_call_packed(c, next, nums, 3);
	if (token && !fair) {
		/* (lock/release.lua: a bare token's release looks for waiters too) */
		rlock_call_flag(c, true);
	}
}

void rlock_call_extend(rlock_call *c, zend_string **key, zend_string *token, zend_long ttl)
{
	rlock_call_start(c, &rlock_script_extend, 1, key, NULL);
	rlock_call_str(c, token);
	rlock_call_num(c, 1, ttl);
}

void rlock_call_extend_heal(rlock_call *c, rlock_keys *k, zend_string *token, zend_long ttl, zend_long fence)
{
	rlock_call_start(c, &rlock_script_extend_heal, 1, &k->keys[0], k->keys[3]);
	rlock_call_str(c, token);
	rlock_call_num(c, 1, ttl);
	rlock_call_num(c, 2, fence);
	rlock_call_num(c, 3, rlock_fence_keep(ttl));
}

void rlock_call_fence_floor(rlock_call *c, rlock_keys *k, zend_long floor, zend_string *token, const rlock_opts *o)
{
	rlock_call_start(c, &rlock_script_fence_floor, 1, &k->keys[0], k->keys[3]);
	rlock_call_num(c, 1, floor);
	rlock_call_num(c, 2, rlock_fence_keep(o->ttl));
	rlock_call_str(c, token);
}

void rlock_call_eval_head(const rlock_call *c, const char *argv[2], size_t lens[2])
{
	argv[0] = "EVAL"; lens[0] = 4;
	argv[1] = c->script->source; lens[1] = c->script->len;
}

bool rlock_call_noscript(rlock_call *c, redisReply *r)
{
	if (!c->script || !r || r->type != REDIS_REPLY_ERROR || r->len < 8 || strncmp(r->str, "NOSCRIPT", 8) != 0) {
		return false;
	}
	rlock_call_eval_head(c, c->cmd.argv, c->cmd.lens);
	return true;
}

bool rlock_token_ours(const char *s, size_t len)
{
	if (len != 32) {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) {
			return false;
		}
	}
	return true;
}

bool rlock_reply_integer(const rlock_server *s, redisReply *r, zend_long min, zend_long max, zend_long *out,
	rlock_err *err)
{
	if (r->type != REDIS_REPLY_INTEGER || r->integer < min || r->integer > max) {
		if (r->type == REDIS_REPLY_INTEGER) {
			rlock_err_set(err, RLOCK_ERR_REPLY, s->label, "unexpected reply: an integer out of range");
		} else {
			rlock_err_set(err, RLOCK_ERR_REPLY, s->label, "unexpected reply of type %d", r->type);
		}
		freeReplyObject(r);
		return false;
	}
	*out = (zend_long) r->integer;
	freeReplyObject(r);
	return true;
}

bool rlock_reply_holds(const redisReply *r, const zend_string *token)
{
	size_t n = ZSTR_LEN(token);
	return r->type == REDIS_REPLY_STRING && (r->len == n || (r->len == n + 1 && r->str[n] == '+'))
		&& memcmp(r->str, ZSTR_VAL(token), n) == 0;
}

bool rlock_reply_is_attempt(const redisReply *r, bool bare)
{
	if (r->type == REDIS_REPLY_INTEGER) {
		/* the mutex's "not acquired": PTTL's -2, -1, or a lease */
		return bare && r->integer >= -2 && r->integer < ZEND_LONG_MAX;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || r->element[0]->type != REDIS_REPLY_INTEGER
			|| r->element[2]->type != REDIS_REPLY_INTEGER || r->element[2]->integer < 0) {
		return false;
	}
	if (r->element[0]->integer == 1) {
		return r->element[1]->type == REDIS_REPLY_STRING && rlock_token_ours(r->element[1]->str, r->element[1]->len);
	}
	/* PTTL's -2 (no key) and -1 (no expiry), or a lease; +1 on it does not overflow */
	return r->element[0]->integer == 0 && r->element[1]->type == REDIS_REPLY_INTEGER
		&& r->element[1]->integer >= -2 && r->element[1]->integer < ZEND_LONG_MAX;
}

/* How long a caller that sent wait_ms waits for a hand-over of a key whose lease is pttl
 * (PTTL's -2, -1, or ms): until the lease ends, or the wait does; 0 without a wait. */
static zend_long attempt_block(zend_long pttl, zend_long wait_ms)
{
	if (wait_ms <= 0) {
		return 0;
	}
	return pttl >= 0 && pttl + 1 < wait_ms ? pttl + 1 : wait_ms;
}

zend_long rlock_reply_block(const redisReply *r, zend_long wait_ms)
{
	if (r->type == REDIS_REPLY_INTEGER) {
		return attempt_block((zend_long) r->integer, wait_ms);
	}
	return r->element[0]->integer == 1 ? -1 : (zend_long) r->element[2]->integer;
}

bool rlock_reply_attempt(const rlock_server *s, redisReply *r, bool bare, zend_long wait_ms, rlock_attempt *res,
	rlock_err *err)
{
	if (!rlock_reply_is_attempt(r, bare)) {
		rlock_err_set(err, RLOCK_ERR_REPLY, s->label, "unexpected reply to the acquire script");
		freeReplyObject(r);
		return false;
	}
	if (r->type == REDIS_REPLY_INTEGER) {
		*res = (rlock_attempt) { .pttl = (zend_long) r->integer,
			.block = attempt_block((zend_long) r->integer, wait_ms) };
		freeReplyObject(r);
		return true;
	}
	res->acquired = r->element[0]->integer == 1;
	res->token = res->acquired ? zend_string_init(r->element[1]->str, r->element[1]->len, 0) : NULL;
	res->fence = res->acquired ? (zend_long) r->element[2]->integer : 0;
	res->pttl = res->acquired ? 0 : (zend_long) r->element[1]->integer;
	res->block = res->acquired ? 0 : (zend_long) r->element[2]->integer;
	freeReplyObject(r);
	return true;
}
