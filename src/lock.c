/* The lock on one Redis server: scripts, acquire, release, extend, and the wait.
 *
 * Waiting without polling: a waiter whose acquire fails is counted in a companion hash
 * (KEYS[3], field n) and blocks in BLPOP on a companion list (KEYS[2]). A release that sees
 * waiters does not free the key: it sets it to a fresh token and pushes that token on the
 * list, and Redis hands the element to the client that has been blocked longest. The woken
 * waiter owns the lock the moment BLPOP returns: FIFO hand-over in one round trip, no
 * newcomer can barge in between, and a waiter that timed out or died is no longer blocked,
 * so Redis never gives it the element. A grant that found nobody blocked stays on the list,
 * and the next acquire takes it over. A holder that expires without a release wakes nobody:
 * waiters block no longer than the holder's PTTL, then try again.
 *
 * Redis checks blocking timeouts on its timer (every 100 ms at the default hz 10), so a
 * BLPOP may return that much after its timeout. A waiter blocks for TIMER_SLACK_MS less than
 * it means to and sleeps the last stretch itself, still counted as a waiter: a release in
 * that stretch leaves its grant on the list for the waiter's next attempt. */

#define TIMER_SLACK_MS 100

#include "php.h"
#include "php_rlock.h"
#include "ext/standard/sha1.h"
#include "ext/random/php_random.h"
#include "zend_smart_str.h"
#include "lock.h"
#include "conn.h"

#include <time.h>

typedef struct {
	const char *source;
	char sha[41];
} rlock_script;

/* KEYS: lock, grants, waiters, fence. ARGV: token, ttl, fencing, wait, queued.
 * {1, token, fence} acquired; {0, pttl, block ms} not. */
static rlock_script script_acquire = { .source =
	"local lock, grants, waiters, fence = KEYS[1], KEYS[2], KEYS[3], KEYS[4]\n"
	"local token, ttl, fencing, wait, queued = ARGV[1], ARGV[2], ARGV[3] == '1', tonumber(ARGV[4]), ARGV[5] == '1'\n"
	"local function leave()\n"
	"  if queued and redis.call('hincrby', waiters, 'n', -1) <= 0 then redis.call('del', waiters) end\n"
	"end\n"
	"local function won(t, f)\n"
	"  leave()\n"
	"  if fencing and f == 0 then f = redis.call('incr', fence) end\n"
	"  return {1, t, f}\n"
	"end\n"
	"if redis.call('set', lock, token, 'NX', 'PX', ttl) then return won(token, 0) end\n"
	"local g = redis.call('lpop', grants)\n"
	"while g do\n"
	"  local t, f = string.match(g, '^(%x+) (%d+)')\n"
	"  if t and redis.call('get', lock) == t then\n"
	"    redis.call('pexpire', lock, ttl)\n"
	"    return won(t, tonumber(f))\n"
	"  end\n"
	"  g = redis.call('lpop', grants)\n"
	"end\n"
	"local pttl = redis.call('pttl', lock)\n"
	"if wait <= 0 then leave() return {0, pttl, 0} end\n"
	"local block = wait\n"
	"if pttl >= 0 and pttl + 1 < block then block = pttl + 1 end\n"
	"if not queued or redis.call('hexists', waiters, 'n') == 0 then redis.call('hincrby', waiters, 'n', 1) end\n"
	"redis.call('hset', waiters, 't', ttl)\n"
	"if fencing then redis.call('setnx', fence, 0) end\n"
	"if redis.call('pttl', waiters) < block + 500 then redis.call('pexpire', waiters, block + 500) end\n"
	"return {0, pttl, block}\n"
};

/* KEYS: lock, grants, waiters, fence. ARGV: token, next token, queued, fair.
 * 0 not ours; 1 released; 2 handed over to a waiter. */
static rlock_script script_release = { .source =
	"local lock, grants, waiters, fence = KEYS[1], KEYS[2], KEYS[3], KEYS[4]\n"
	"local token, nexttoken, queued, fair = ARGV[1], ARGV[2], ARGV[3] == '1', ARGV[4] == '1'\n"
	"if queued and redis.call('hincrby', waiters, 'n', -1) <= 0 then redis.call('del', waiters) end\n"
	"if redis.call('get', lock) ~= token then return 0 end\n"
	"if tonumber(redis.call('hget', waiters, 'n') or '0') > 0 then\n"
	"  local ttl = redis.call('hget', waiters, 't')\n"
	"  if fair then\n"
	"    local f = 0\n"
	"    if redis.call('exists', fence) == 1 then f = redis.call('incr', fence) end\n"
	"    redis.call('set', lock, nexttoken, 'PX', ttl)\n"
	"    redis.call('rpush', grants, nexttoken .. ' ' .. f .. ' ' .. ttl)\n"
	"    redis.call('pexpire', grants, ttl)\n"
	"    return 2\n"
	"  end\n"
	"  redis.call('del', lock)\n"
	"  if redis.call('llen', grants) == 0 then\n"
	"    redis.call('rpush', grants, 'wake')\n"
	"    redis.call('pexpire', grants, ttl)\n"
	"  end\n"
	"  return 1\n"
	"end\n"
	"redis.call('del', lock)\n"
	"return 1\n"
};

/* KEYS: lock. ARGV: token, ttl. */
static rlock_script script_extend = { .source =
	"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end\n"
	"return 0\n"
};

/* The watchdog's batch renewal: the extend script over many keys at once. KEYS: n lock
 * keys. ARGV: n tokens, then n ttls. One integer per key: 1 renewed, 0 not ours (a key that
 * is not a string is not ours either). */
static rlock_script script_renew = { .source =
	"local n = #KEYS\n"
	"local out = {}\n"
	"for i = 1, n do\n"
	"  if redis.pcall('get', KEYS[i]) == ARGV[i] then\n"
	"    redis.call('pexpire', KEYS[i], ARGV[n + i])\n"
	"    out[i] = 1\n"
	"  else\n"
	"    out[i] = 0\n"
	"  end\n"
	"end\n"
	"return out\n"
};

static void script_init(rlock_script *s)
{
	PHP_SHA1_CTX ctx;
	unsigned char digest[20];
	PHP_SHA1Init(&ctx);
	PHP_SHA1Update(&ctx, (const unsigned char *) s->source, strlen(s->source));
	PHP_SHA1Final(digest, &ctx);
	make_sha1_digest(s->sha, digest);
}

void rlock_lock_minit(void)
{
	script_init(&script_acquire);
	script_init(&script_release);
	script_init(&script_extend);
	script_init(&script_renew);
}

void rlock_lock_renew_script(const char **source, const char **sha)
{
	*source = script_renew.source;
	*sha = script_renew.sha;
}

static zend_long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (zend_long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A fresh owner token: 128 bits from the OS CSPRNG, as 32 hex digits. */
static zend_string *new_token(rlock_err *err)
{
	unsigned char raw[16];
	if (php_random_bytes_silent(raw, sizeof(raw)) == FAILURE) {
		rlock_err_set(err, RLOCK_ERR_REPLY, "-", "the operating system's CSPRNG failed");
		return NULL;
	}
	zend_string *t = zend_string_alloc(32, 0);
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		ZSTR_VAL(t)[2 * i] = hex[raw[i] >> 4];
		ZSTR_VAL(t)[2 * i + 1] = hex[raw[i] & 15];
	}
	ZSTR_VAL(t)[32] = '\0';
	return t;
}

/* The lock key and its companions, which share its hash slot: the key's own {hash tag} if
 * it has one, else the whole key as the tag. */
typedef struct {
	zend_string *keys[4];  /* lock, grants, waiters, fence */
} rlock_keys;

static bool has_hash_tag(zend_string *key)
{
	const char *open = memchr(ZSTR_VAL(key), '{', ZSTR_LEN(key));
	if (!open) {
		return false;
	}
	const char *close = memchr(open + 1, '}', ZSTR_VAL(key) + ZSTR_LEN(key) - open - 1);
	return close && close > open + 1;
}

static void keys_init(rlock_keys *k, zend_string *key)
{
	static const char *suffix[3] = { ":grants", ":waiters", ":fence" };
	bool tagged = has_hash_tag(key);
	k->keys[0] = zend_string_copy(key);
	for (int i = 0; i < 3; i++) {
		smart_str s = {0};
		if (!tagged) {
			smart_str_appendc(&s, '{');
		}
		smart_str_append(&s, key);
		if (!tagged) {
			smart_str_appendc(&s, '}');
		}
		smart_str_appends(&s, suffix[i]);
		k->keys[i + 1] = smart_str_extract(&s);
	}
}

static void keys_free(rlock_keys *k)
{
	for (int i = 0; i < 4; i++) {
		zend_string_release(k->keys[i]);
	}
}

/* A reply into err when it is an error; true when it is one. */
static bool reply_error(const rlock_opts *o, redisReply *r, rlock_err *err)
{
	if (r->type != REDIS_REPLY_ERROR) {
		return false;
	}
	rlock_err_set(err, RLOCK_ERR_REPLY, o->server.label, "%.*s", (int) r->len, r->str);
	freeReplyObject(r);
	return true;
}

/* EVALSHA, and EVAL when the server does not know the script (restarted, flushed). */
static redisReply *run_script(const rlock_opts *o, rlock_script *s, int nkeys, zend_string **keys,
	int nargs, const char **args, const size_t *arglens, rlock_err *err)
{
	const char *argv[16];
	size_t lens[16];
	char numkeys[8];
	int argc = 0;

	argv[argc] = "EVALSHA"; lens[argc++] = 7;
	argv[argc] = s->sha; lens[argc++] = 40;
	lens[argc] = snprintf(numkeys, sizeof(numkeys), "%d", nkeys);
	argv[argc++] = numkeys;
	for (int i = 0; i < nkeys; i++) {
		argv[argc] = ZSTR_VAL(keys[i]); lens[argc++] = ZSTR_LEN(keys[i]);
	}
	for (int i = 0; i < nargs; i++) {
		argv[argc] = args[i]; lens[argc++] = arglens[i];
	}

	redisReply *r = rlock_conn_call(o, argc, argv, lens, 0, err);
	if (r && r->type == REDIS_REPLY_ERROR && r->len >= 8 && strncmp(r->str, "NOSCRIPT", 8) == 0) {
		freeReplyObject(r);
		argv[0] = "EVAL"; lens[0] = 4;
		argv[1] = s->source; lens[1] = strlen(s->source);
		r = rlock_conn_call(o, argc, argv, lens, 0, err);
	}
	if (r && reply_error(o, r, err)) {
		return NULL;
	}
	return r;
}

static bool integer_reply(redisReply *r, zend_long *out)
{
	if (r->type != REDIS_REPLY_INTEGER) {
		return false;
	}
	*out = (zend_long) r->integer;
	return true;
}

static void unexpected(const rlock_opts *o, redisReply *r, rlock_err *err)
{
	rlock_err_set(err, RLOCK_ERR_REPLY, o->server.label, "unexpected reply of type %d", r->type);
	freeReplyObject(r);
}

typedef struct {
	int acquired;      /* 1 or 0 */
	zend_string *token;
	zend_long fence;
	zend_long block;   /* when not acquired: how long to wait for a hand-over */
} attempt_result;

/* One round trip: take the key (or a grant left for nobody), else join the waiters when
 * wait_ms > 0. 0, or -1 with err set. */
static int attempt(const rlock_opts *o, rlock_keys *k, zend_string *token, zend_long wait_ms, bool queued,
	attempt_result *res, rlock_err *err)
{
	char ttl[24], wait[24];
	const char *args[5] = { ZSTR_VAL(token), ttl, o->fencing ? "1" : "0", wait, queued ? "1" : "0" };
	size_t lens[5] = { ZSTR_LEN(token), 0, 1, 0, 1 };
	lens[1] = snprintf(ttl, sizeof(ttl), ZEND_LONG_FMT, o->ttl);
	lens[3] = snprintf(wait, sizeof(wait), ZEND_LONG_FMT, wait_ms);

	redisReply *r = run_script(o, &script_acquire, 4, k->keys, 5, args, lens, err);
	if (!r) {
		return -1;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 3 || r->element[0]->type != REDIS_REPLY_INTEGER) {
		unexpected(o, r, err);
		return -1;
	}
	res->acquired = r->element[0]->integer == 1;
	if (res->acquired) {
		res->token = zend_string_init(r->element[1]->str, r->element[1]->len, 0);
		res->fence = (zend_long) r->element[2]->integer;
	} else {
		res->block = (zend_long) r->element[2]->integer;
	}
	freeReplyObject(r);
	return 0;
}

/* Block until a release hands us the key or about block_ms pass. 1 handed over (res
 * filled), 0 woken or timed out: try again; -1 err set. */
static int await_grant(const rlock_opts *o, rlock_keys *k, zend_long block_ms, attempt_result *res, rlock_err *err)
{
	char timeout[32];

	if (block_ms <= TIMER_SLACK_MS) {
		usleep((useconds_t) block_ms * 1000);
		return 0;
	}
	block_ms -= TIMER_SLACK_MS;
	const char *argv[3] = { "BLPOP", ZSTR_VAL(k->keys[1]), timeout };
	size_t lens[3] = { 5, ZSTR_LEN(k->keys[1]), 0 };
	lens[2] = snprintf(timeout, sizeof(timeout), "%.3f", block_ms / 1000.0);

	redisReply *r = rlock_conn_call(o, 3, argv, lens, block_ms, err);
	if (!r) {
		return -1;
	}
	if (reply_error(o, r, err)) {
		return -1;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 2) {
		freeReplyObject(r);  /* nil: timed out */
		return 0;
	}
	/* "token fence ttl", or "wake" when the releaser let go without a hand-over */
	const char *g = r->element[1]->str;
	const char *sp = memchr(g, ' ', r->element[1]->len);
	if (!sp) {
		freeReplyObject(r);
		return 0;
	}
	res->acquired = 1;
	res->token = zend_string_init(g, sp - g, 0);
	res->fence = ZEND_STRTOL(sp + 1, NULL, 10);
	const char *sp2 = strchr(sp + 1, ' ');
	res->block = sp2 ? ZEND_STRTOL(sp2 + 1, NULL, 10) : o->ttl;  /* the lease it came with */
	freeReplyObject(r);
	return 1;
}

static void sleep_jittered(zend_long base_ms, zend_long max_ms)
{
	zend_long ms = base_ms, jitter = 0;
	if (base_ms > 0 && php_random_int(0, base_ms, &jitter, false) == SUCCESS) {
		ms = base_ms / 2 + jitter / 2;
	}
	if (ms > max_ms) {
		ms = max_ms;
	}
	if (ms > 0) {
		usleep((useconds_t) ms * 1000);
	}
}

int rlock_lock_acquire(const rlock_opts *o, zend_string *key, zend_long wait_ms, rlock_hold *out, rlock_err *err)
{
	rlock_keys k;
	attempt_result res = {0};
	zend_long deadline = now_ms() + wait_ms;
	bool queued = false, connected = false;
	int rc = 0;
	zend_string *token = new_token(err);

	if (!token) {
		return -1;
	}
	keys_init(&k, key);
	for (;;) {
		zend_long remaining = MAX(deadline - now_ms(), 0);
		if (attempt(o, &k, token, remaining, queued, &res, err) < 0) {
			/* A server that goes away while we wait (a restart) is waited for too. */
			if (!connected || remaining == 0) {
				rc = -1;
				break;
			}
			queued = false;
			sleep_jittered(o->retry_delay, remaining);
			continue;
		}
		connected = true;
		if (res.acquired) {
			rc = 1;
			break;
		}
		if (remaining == 0) {
			break;
		}
		if (!queued) {
			RLOCK_G(counters).contended++;
			queued = true;
		}
		int g = await_grant(o, &k, MIN(res.block, remaining), &res, err);
		if (g == 1) {
			/* handed over with another waiter's ttl: take our own */
			rc = res.block == o->ttl ? 1 : rlock_lock_extend(o, key, res.token, o->ttl, err);
			if (rc == 1) {
				break;
			}
			zend_string_release(res.token);
			if (rc < 0) {
				break;
			}
			continue;
		}
		if (g < 0) {
			queued = false;
			sleep_jittered(o->retry_delay, MAX(deadline - now_ms(), 0));
		}
	}
	keys_free(&k);
	zend_string_release(token);
	if (rc == 1) {
		out->token = res.token;
		out->fence = o->fencing ? res.fence : 0;
		out->queued = queued;
		RLOCK_G(counters).acquired++;
	} else if (rc == 0 && wait_ms > 0) {
		RLOCK_G(counters).timeouts++;
	}
	return rc;
}

int rlock_lock_release(const rlock_opts *o, zend_string *key, zend_string *token, bool queued, rlock_err *err)
{
	rlock_keys k;
	zend_string *next = new_token(err);
	zend_long n = 0;

	if (!next) {
		return -1;
	}
	const char *args[4] = { ZSTR_VAL(token), ZSTR_VAL(next), queued ? "1" : "0", o->fair ? "1" : "0" };
	size_t lens[4] = { ZSTR_LEN(token), ZSTR_LEN(next), 1, 1 };
	keys_init(&k, key);
	redisReply *r = run_script(o, &script_release, 4, k.keys, 4, args, lens, err);
	keys_free(&k);
	zend_string_release(next);
	if (!r) {
		return -1;
	}
	if (!integer_reply(r, &n)) {
		unexpected(o, r, err);
		return -1;
	}
	freeReplyObject(r);
	return n > 0;
}

int rlock_lock_extend(const rlock_opts *o, zend_string *key, zend_string *token, zend_long ttl, rlock_err *err)
{
	char ttlbuf[24];
	zend_long n = 0;
	const char *args[2] = { ZSTR_VAL(token), ttlbuf };
	size_t lens[2] = { ZSTR_LEN(token), 0 };
	lens[1] = snprintf(ttlbuf, sizeof(ttlbuf), ZEND_LONG_FMT, ttl);

	redisReply *r = run_script(o, &script_extend, 1, &key, 2, args, lens, err);
	if (!r) {
		return -1;
	}
	if (!integer_reply(r, &n)) {
		unexpected(o, r, err);
		return -1;
	}
	freeReplyObject(r);
	return n == 1;
}

/* A one-key command. */
static redisReply *key_command(const rlock_opts *o, const char *cmd, zend_string *key, rlock_err *err)
{
	const char *argv[2] = { cmd, ZSTR_VAL(key) };
	size_t lens[2] = { strlen(cmd), ZSTR_LEN(key) };
	redisReply *r = rlock_conn_call(o, 2, argv, lens, 0, err);
	if (r && reply_error(o, r, err)) {
		return NULL;
	}
	return r;
}

int rlock_lock_is_owner(const rlock_opts *o, zend_string *key, zend_string *token, rlock_err *err)
{
	redisReply *r = key_command(o, "GET", key, err);
	if (!r) {
		return -1;
	}
	int yes = r->type == REDIS_REPLY_STRING && r->len == ZSTR_LEN(token)
		&& memcmp(r->str, ZSTR_VAL(token), r->len) == 0;
	freeReplyObject(r);
	return yes;
}

int rlock_lock_exists(const rlock_opts *o, zend_string *key, rlock_err *err)
{
	zend_long n = 0;
	redisReply *r = key_command(o, "EXISTS", key, err);
	if (!r) {
		return -1;
	}
	if (!integer_reply(r, &n)) {
		unexpected(o, r, err);
		return -1;
	}
	freeReplyObject(r);
	return n > 0;
}

int rlock_lock_pttl(const rlock_opts *o, zend_string *key, zend_long *out, rlock_err *err)
{
	redisReply *r = key_command(o, "PTTL", key, err);
	if (!r) {
		return -1;
	}
	if (!integer_reply(r, out)) {
		unexpected(o, r, err);
		return -1;
	}
	freeReplyObject(r);
	return 0;
}
