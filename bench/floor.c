/*
 * The floor: the least a Redis lock + unlock can cost from a client.
 *
 * One connection, a fresh 128-bit token per cycle, SET key token NX PX ttl to
 * acquire and EVALSHA of a compare-and-delete script to release: two round
 * trips, no allocation beyond what hiredis does. Runs for SECONDS and prints
 * one JSON line like the PHP drivers do.
 *
 * Build: cc -O2 -o floor floor.c -lhiredis
 * Usage: floor HOST PORT SECONDS [KEY]
 */
#include <hiredis/hiredis.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>

static const char release_lua[] =
	"if redis.call('get', KEYS[1]) == ARGV[1] then "
	"return redis.call('del', KEYS[1]) else return 0 end";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(redisContext *c, const char *what)
{
	fprintf(stderr, "floor: %s: %s\n", what, c && c->err ? c->errstr : "unexpected reply");
	exit(1);
}

static void new_token(char out[33])
{
	unsigned char raw[16];
	int i;

	if (getrandom(raw, sizeof(raw), 0) != sizeof(raw)) {
		perror("floor: getrandom");
		exit(1);
	}
	for (i = 0; i < 16; i++) {
		sprintf(out + 2 * i, "%02x", raw[i]);
	}
}

/* One lock + unlock; returns 0 when the lock was taken and released. */
static int cycle(redisContext *c, const char *key, const char *sha)
{
	char token[33];
	redisReply *r;
	int ok;

	new_token(token);
	r = redisCommand(c, "SET %s %s NX PX %d", key, token, 10000);
	if (!r) {
		die(c, "SET");
	}
	ok = r->type == REDIS_REPLY_STATUS;
	freeReplyObject(r);
	if (!ok) {
		return -1;
	}
	r = redisCommand(c, "EVALSHA %s 1 %s %s", sha, key, token);
	if (!r || r->type != REDIS_REPLY_INTEGER) {
		die(c, "EVALSHA");
	}
	ok = r->integer == 1;
	freeReplyObject(r);
	return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct timeval tv = { 2, 0 };
	const char *key;
	char sha[64];
	double seconds, start, elapsed;
	long n = 0, failed = 0;
	redisContext *c;
	redisReply *r;
	int i;

	if (argc < 4) {
		fprintf(stderr, "usage: %s HOST PORT SECONDS [KEY]\n", argv[0]);
		return 2;
	}
	seconds = atof(argv[3]);
	key = argc > 4 ? argv[4] : "bench:floor";

	c = redisConnectWithTimeout(argv[1], atoi(argv[2]), tv);
	if (!c || c->err) {
		die(c, "connect");
	}
	redisSetTimeout(c, tv);

	r = redisCommand(c, "SCRIPT LOAD %s", release_lua);
	if (!r || r->type != REDIS_REPLY_STRING) {
		die(c, "SCRIPT LOAD");
	}
	snprintf(sha, sizeof(sha), "%s", r->str);
	freeReplyObject(r);

	for (i = 0; i < 200; i++) {
		cycle(c, key, sha);
	}

	start = now_s();
	do {
		/* check the clock every 64 cycles, as cheaply as the PHP loops do */
		for (i = 0; i < 64; i++) {
			failed += cycle(c, key, sha) != 0;
			n++;
		}
		elapsed = now_s() - start;
	} while (elapsed < seconds);

	printf("{\"kind\":\"uncontended\",\"lib\":\"floor\",\"cycles\":%ld,\"failed\":%ld,"
		"\"seconds\":%.6f,\"cycles_per_s\":%.1f,\"us_per_cycle\":%.3f}\n",
		n, failed, elapsed, n / elapsed, elapsed * 1e6 / n);
	redisFree(c);
	return failed ? 1 : 0;
}
