/* Pool-wide statistics in shared memory (stats.h).
 *
 * The mapping, made once at module start and never grown:
 *
 *   header | servers[STATS_SERVERS + 1] | procs[STATS_PROCS + 1] | hashes[nkeys] | keys[nkeys]
 *
 * Every word in it is read and written with relaxed atomics (no ordering is needed between
 * counters; a reader sees each one whole). What a process killed mid-update can leave:
 *
 * - a counter not yet added: one event uncounted, nothing inconsistent;
 * - a slot it claimed (its hash set) whose display name it had not finished writing: the
 *   name's tag does not match the slot's hash, and readers show the key by its hash;
 * - an evicted key's counts half moved into "other": the pool's totals, kept apart, stay
 *   exact; only the split between rows is off by what was in flight.
 *
 * Keys: a space-saving sketch, set-associative. A key (its kind and text, hashed) lives in
 * one of STATS_WAYS slots from hash % nkeys. Each slot has a weight: one per event, plus the
 * milliseconds waited. A key not in its slots claims an empty one, or evicts the one of least
 * weight and inherits that weight (space-saving's rule: a key that keeps coming back reaches
 * the top, one seen once is the next evicted); the evicted key's counts are moved to the
 * "other" row. The claim is a compare-and-swap on the slot's hash: the losers of a race look
 * again, then count under "other". The watchdog's thread never claims (it has no key text).
 *
 * Gauges (holds, waiters now): per process, in the slot of its pid, so that a process that
 * dies (SIGKILL, a crash, a php-fpm worker recycled) takes its part with it: a reader sums
 * the slots of live pids and frees the slots of dead ones (kill(pid, 0) says ESRCH). A new
 * process whose pid a dead one had takes that slot over and zeroes it. More live processes
 * than STATS_PROCS share one overflow slot, which nothing frees (documented). */

#include "php.h"
#include "php_rlock.h"
#include "src/stats/stats.h"
#include "src/core/options.h"
#include "zend_smart_str.h"

#include <errno.h>
#include <time.h>
#ifndef PHP_WIN32
# include <sys/mman.h>
# include <signal.h>
# include <unistd.h>
# include <sched.h>
# define YIELD() sched_yield()
#else
# define YIELD() SwitchToThread()
#endif

#define STATS_MAGIC UINT64_C(0x726c6f636b737431)  /* "rlockst1" */
#define STATS_WAYS 8
#define STATS_SERVERS 32
#define STATS_PROCS 4096
/* a key's display text is kept up to this many bytes (longer ones: cut, and the hash added) */
#define STATS_NAME 200
#define STATS_LABEL 128

/* Histogram buckets: upper bounds in microseconds, 1-2.5-5 steps from 0.1 ms to 60 s, then
 * +Inf. The same for waits and round trips. */
#define STATS_BUCKETS 19
static const uint64_t bucket_us[STATS_BUCKETS - 1] = {
	100, 250, 500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
	1000000, 2500000, 5000000, 10000000, 30000000, 60000000
};
/* the same bounds in seconds (Prometheus' le) */
static const char *const bucket_le[STATS_BUCKETS] = {
	"0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5",
	"1", "2.5", "5", "10", "30", "60", "+Inf"
};
/* and in milliseconds (rlock_status()) */
static const char *const bucket_ms[STATS_BUCKETS] = {
	"0.1", "0.25", "0.5", "1", "2.5", "5", "10", "25", "50", "100", "250", "500",
	"1000", "2500", "5000", "10000", "30000", "60000", "+Inf"
};

typedef struct {
	uint64_t n[STATS_BUCKETS];
	uint64_t sum_us;
	uint64_t max_us;
} stats_hist;

typedef struct {
	uint64_t ev[RLOCK_STAT_NEVENTS];
	stats_hist wait;
} stats_row;

typedef struct {
	stats_row row;
	uint64_t weight;
	uint64_t tag;         /* the hash whose name is written below; 0 while it is written */
	uint32_t len;         /* bytes of name */
	char kind[12];
	char name[STATS_NAME];
} stats_key;

typedef struct {
	uint64_t hash;        /* of the label; 0: free */
	uint64_t tag;
	char label[STATS_LABEL];
	uint64_t commands;
	uint64_t reconnects;
	uint64_t errors[RLOCK_STAT_NERRORS];
	stats_hist rtt;
} stats_server;

typedef struct {
	int64_t pid;          /* 0: free */
	int64_t holds;
	int64_t waiters;
} stats_proc;

typedef struct {
	uint64_t magic;
	uint64_t bytes;
	uint32_t nkeys;
	uint32_t ways;
	uint64_t started;     /* unix time of the mapping */
	uint64_t reset;       /* unix time of the last reset (started before any) */
	uint64_t evictions;
	stats_row pool;
	stats_row other;
	stats_server servers[STATS_SERVERS + 1];  /* the last: servers beyond the table */
	stats_proc procs[STATS_PROCS + 1];        /* the last: processes beyond the table */
} stats_header;

static stats_header *shm;
static uint64_t *hashes;
static stats_key *keys;
/* rlock.stats_keys, and why its value is refused ("" when it is not) */
static zend_long keys_setting;
static char setting_refused[320];

/* this process' gauge slot, and the pid it was taken for (a forked child takes its own): set
 * once per process by the one thread that claims it (claimer: the pid it claims for), which
 * the others (ZTS) wait for, never claiming the slot again (it would zero a live slot) */
static stats_proc *mine;
static pid_t mine_pid;
static int64_t claimer;

#define LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define ADD(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define XCHG(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define CAS(p, expected, v) __atomic_compare_exchange_n((p), (expected), (v), false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)

static size_t mapping_size(zend_long nkeys)
{
	return sizeof(stats_header) + (size_t) nkeys * (sizeof(uint64_t) + sizeof(stats_key));
}

void rlock_stats_ini(zend_string *value, bool warn)
{
	const char *s = value ? ZSTR_VAL(value) : "";
	size_t len = value ? ZSTR_LEN(value) : 0;
	char why[200];

	setting_refused[0] = '\0';
	if (rlock_ini_long(s, len, 0, RLOCK_STATS_KEYS_MAX, &keys_setting, why, sizeof(why))) {
		return;
	}
	keys_setting = 0;
	snprintf(setting_refused, sizeof(setting_refused), "php.ini setting rlock.stats_keys=\"%.*s\" %s",
		(int) MIN(len, 64), s, why);
	if (warn) {
		php_error_docref(NULL, E_WARNING, "%s; every call that uses it throws", setting_refused);
	}
}

void rlock_stats_minit(void)
{
	zend_long nkeys = keys_setting;
#ifdef PHP_WIN32
	nkeys = 0;  /* no fork() to share a mapping with: statistics off */
#endif
	if (nkeys <= 0) {
		return;
	}
#ifndef PHP_WIN32
	size_t size = mapping_size(nkeys);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		php_error_docref(NULL, E_WARNING, "rlock: cannot map %zu bytes for statistics (rlock.stats_keys="
			ZEND_LONG_FMT "): %s; statistics are off", size, nkeys, strerror(errno));
		return;
	}
	/* an anonymous mapping comes zeroed */
	shm = p;
	rlock_stats_on = true;
	shm->magic = STATS_MAGIC;
	shm->bytes = size;
	shm->nkeys = (uint32_t) nkeys;
	shm->ways = (uint32_t) MIN(nkeys, STATS_WAYS);
	shm->started = shm->reset = (uint64_t) time(NULL);
	hashes = (uint64_t *) (shm + 1);
	keys = (stats_key *) (hashes + nkeys);
#endif
}

void rlock_stats_mshutdown(void)
{
#ifndef PHP_WIN32
	if (shm) {
		rlock_stats_on = false;
		munmap(shm, shm->bytes);
		shm = NULL;
	}
#endif
}

bool rlock_stats_on;

bool rlock_stats_refused(void)
{
	if (!setting_refused[0]) {
		return false;
	}
	zend_value_error("%s", setting_refused);
	return true;
}

/* ---- recording ---- */

static void hist_add(stats_hist *h, uint64_t us)
{
	int b = 0;
	while (b < STATS_BUCKETS - 1 && us > bucket_us[b]) {
		b++;
	}
	ADD(&h->n[b], 1);
	ADD(&h->sum_us, us);
	uint64_t max = LOAD(&h->max_us);
	while (us > max && !CAS(&h->max_us, &max, us)) {
	}
}

/* A key's hash with its kind mixed in (the kinds differ in their first 4 bytes: lock, read,
 * write, multi, semaphore); never 0 (a free slot). */
static uint64_t with_kind(uint64_t key_hash, const rlock_algo *a)
{
	uint32_t k;
	memcpy(&k, a->kind, sizeof(k));
	uint64_t h = key_hash ^ ((uint64_t) k * UINT64_C(0x9E3779B97F4A7C15));
	return h ? h : 1;
}

uint64_t rlock_stats_hash(const rlock_algo *a, zend_string *key)
{
	return with_kind(zend_string_hash_val(key), a);  /* cached in the string */
}

/* The same for a key whose hash another thread may be computing (the watchdog's): not cached. */
static uint64_t hash_uncached(const rlock_algo *a, zend_string *key)
{
	return with_kind(zend_inline_hash_func(ZSTR_VAL(key), ZSTR_LEN(key)), a);
}

/* How the statistics name a's lock on key: the key as the user wrote it (prefix included),
 * a semaphore by its name, a lock over several keys by them all. */
static zend_string *display_name(const rlock_algo *a, zend_string *key)
{
	if (a->stats_name) {
		return a->stats_name(key);  /* a semaphore by its name */
	}
	if (strcmp(a->kind, "multi") == 0 && a->name) {
		smart_str s = {0};
		a->name(key, &s);
		smart_str_0(&s);
		return smart_str_extract(&s);
	}
	return zend_string_copy(key);
}

static void name_write(stats_key *k, uint64_t h, const rlock_algo *a, zend_string *key)
{
	zend_string *name = display_name(a, key);
	uint32_t len = (uint32_t) MIN(ZSTR_LEN(name), STATS_NAME);

	__atomic_store_n(&k->tag, 0, __ATOMIC_RELEASE);
	/* plain writes: a reader checks the tag around its copy */
	memcpy(k->name, ZSTR_VAL(name), len);
	strncpy(k->kind, a->kind, sizeof(k->kind) - 1);
	STORE(&k->len, ZSTR_LEN(name) > STATS_NAME ? UINT32_MAX : len);
	__atomic_store_n(&k->tag, h, __ATOMIC_RELEASE);
	zend_string_release(name);
}

/* slot's counts (its key evicted) moved to "other" */
static void move_to_other(stats_key *k)
{
	uint64_t *from = (uint64_t *) &k->row, *to = (uint64_t *) &shm->other;
	size_t n = sizeof(stats_row) / sizeof(uint64_t);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = XCHG(&from[i], 0);
		if (i == n - 1) {
			/* max_us: the larger */
			uint64_t max = LOAD(&to[i]);
			while (v > max && !CAS(&to[i], &max, v)) {
			}
		} else if (v) {
			ADD(&to[i], v);
		}
	}
}

/* The slot of hash h among its ways, or NULL. */
static stats_key *find(uint64_t h, uint32_t *empty, uint32_t *least)
{
	uint32_t n = shm->nkeys, i = (uint32_t) (h % n);
	uint64_t min = UINT64_MAX;
	*empty = *least = UINT32_MAX;
	for (uint32_t w = 0; w < shm->ways; w++, i = i + 1 == n ? 0 : i + 1) {
		uint64_t s = LOAD(&hashes[i]);
		if (s == h) {
			return &keys[i];
		}
		if (s == 0) {
			if (*empty == UINT32_MAX) {
				*empty = i;
			}
			continue;
		}
		uint64_t wgt = LOAD(&keys[i].weight);
		if (wgt < min) {
			min = wgt;
			*least = i;
		}
	}
	return NULL;
}

/* The row of a's key (hash h), a slot claimed for it when key is given; NULL: "other". */
static stats_key *slot_of(uint64_t h, const rlock_algo *a, zend_string *key)
{
	uint32_t empty, least;
	for (int round = 0; round < 2; round++) {
		stats_key *k = find(h, &empty, &least);
		if (k || !key) {
			return k;
		}
		uint32_t i = empty != UINT32_MAX ? empty : least;
		uint64_t old = empty != UINT32_MAX ? 0 : LOAD(&hashes[i]);
		if (CAS(&hashes[i], &old, h)) {
			/* what the slot counted (an evicted key's, or a count that landed after a
			 * reset) is not this key's */
			ADD(&shm->evictions, old != 0);
			move_to_other(&keys[i]);
			name_write(&keys[i], h, a, key);
			return &keys[i];
		}
		/* another process claimed it first: maybe for this key; look again */
	}
	return NULL;
}

static void count_row(stats_row *r, rlock_stat_event ev)
{
	ADD(&r->ev[ev], 1);
}

static void record(uint64_t h, const rlock_algo *a, zend_string *key, const rlock_stat_event *evs, int nev, int64_t wait_us)
{
	stats_key *k = slot_of(h, a, key);
	if (nev == 1 && wait_us < 0) {
		/* one event (an uncontended tryLock()/lock() without a wait): the common case */
		ADD(&shm->pool.ev[evs[0]], 1);
		ADD(k ? &k->row.ev[evs[0]] : &shm->other.ev[evs[0]], 1);
		if (k) {
			ADD(&k->weight, 1);
		}
		return;
	}
	stats_row *rows[2] = { &shm->pool, k ? &k->row : &shm->other };
	for (int r = 0; r < 2; r++) {
		for (int e = 0; e < nev; e++) {
			count_row(rows[r], evs[e]);
		}
		if (wait_us >= 0) {
			hist_add(&rows[r]->wait, (uint64_t) wait_us);
		}
	}
	if (k) {
		ADD(&k->weight, (uint64_t) nev + (wait_us > 0 ? (uint64_t) wait_us / 1000 : 0));
	}
}

void rlock_stats_count(const rlock_algo *a, zend_string *key, rlock_stat_event ev)
{
	if (shm) {
		record(rlock_stats_hash(a, key), a, key, &ev, 1, -1);
	}
}

void rlock_stats_lost(const rlock_algo *a, zend_string *key)
{
	rlock_stats_count(a, key, RLOCK_STAT_LOST);
}

void rlock_stats_count_hash(uint64_t h, rlock_stat_event ev)
{
	if (shm) {
		record(h, NULL, NULL, &ev, 1, -1);
	}
}

uint64_t rlock_stats_watch_hash(const rlock_algo *a, zend_string *key)
{
	return shm ? hash_uncached(a, key) : 0;
}

void rlock_stats_begin(rlock_stats_mark *m, zend_long wait_ms)
{
	*m = (rlock_stats_mark) {
		.t0 = shm && wait_ms > 0 ? (uint64_t) rlock_now_us() : 0,
		.outer = RLOCK_G(stats_call),
	};
	RLOCK_G(stats_call) = m;
}

void rlock_stats_waited(void)
{
	RLOCK_G(counters).contended++;
	if (RLOCK_G(stats_call)) {
		RLOCK_G(stats_call)->waited = true;
	}
}

void rlock_stats_handed(void)
{
	RLOCK_G(counters).handovers++;
	if (RLOCK_G(stats_call)) {
		RLOCK_G(stats_call)->handed = true;
	}
}

void rlock_stats_end(const rlock_stats_mark *m, const rlock_algo *a, zend_string *key, zend_long wait_ms, int rc)
{
	rlock_stat_event evs[4];
	int n = 0;
	bool waited = m->waited;

	RLOCK_G(stats_call) = m->outer;
	if (rc == 1) {
		RLOCK_G(counters).acquired++;
		evs[n++] = RLOCK_STAT_ACQUIRES;
		if (m->handed) {
			evs[n++] = RLOCK_STAT_HANDOVERS;
		}
	} else if (rc == 0 && wait_ms > 0) {
		RLOCK_G(counters).timeouts++;
		evs[n++] = RLOCK_STAT_TIMEOUTS;
		waited = true;
	} else if (rc == 0) {
		evs[n++] = RLOCK_STAT_CONTENDED;  /* a try that found it taken */
	} else {
		return;  /* an error: counted by its server */
	}
	if (waited) {
		evs[n++] = RLOCK_STAT_CONTENDED;
		evs[n++] = RLOCK_STAT_WAITS;
	}
	if (shm) {
		record(rlock_stats_hash(a, key), a, key, evs, n, m->t0 ? (int64_t) rlock_now_us() - (int64_t) m->t0 : -1);
	}
}

/* The slot of server label; the overflow slot when the table is full. */
static stats_server *server_of(const char *label)
{
	size_t len = strlen(label);
	uint64_t h = zend_inline_hash_func(label, len);
	h = h ? h : 1;
	for (uint32_t w = 0; w < STATS_SERVERS; w++) {
		stats_server *s = &shm->servers[(h + w) % STATS_SERVERS];
		uint64_t cur = LOAD(&s->hash);
		if (cur == 0) {
			if (!CAS(&s->hash, &cur, h) && cur != h) {
				continue;
			}
			if (cur == 0) {
				__atomic_store_n(&s->tag, 0, __ATOMIC_RELEASE);
				memcpy(s->label, label, MIN(len, STATS_LABEL - 1));
				s->label[MIN(len, STATS_LABEL - 1)] = '\0';
				__atomic_store_n(&s->tag, h, __ATOMIC_RELEASE);
			}
			return s;
		}
		if (cur == h) {
			return s;
		}
	}
	return &shm->servers[STATS_SERVERS];
}

void rlock_stats_command(void **slot, const char *label, uint64_t us, bool timed)
{
	if (shm) {
		stats_server *s = *slot ? *slot : (*slot = server_of(label));
		ADD(&s->commands, 1);
		if (timed) {
			hist_add(&s->rtt, us);
		}
	}
}

void rlock_stats_server_error(const char *label, rlock_stat_error kind)
{
	if (shm) {
		ADD(&server_of(label)->errors[kind], 1);
	}
}

void rlock_stats_reconnect(const char *label)
{
	RLOCK_G(counters).reconnects++;
	if (shm) {
		ADD(&server_of(label)->reconnects, 1);
	}
}

/* This process' gauge slot: taken at its first use (in a forked child: again), by one thread. */
static stats_proc *proc_slot(void)
{
	pid_t pid = rlock_getpid();
	if (__atomic_load_n(&mine_pid, __ATOMIC_ACQUIRE) == pid) {
		return mine;
	}
	int64_t seen = LOAD(&claimer);
	if (seen == pid || !CAS(&claimer, &seen, (int64_t) pid)) {
		/* another thread of this process claims it */
		while (__atomic_load_n(&mine_pid, __ATOMIC_ACQUIRE) != pid) {
			YIELD();
		}
		return mine;
	}
	stats_proc *free_slot = NULL;
	for (uint32_t i = 0; i < STATS_PROCS; i++) {
		int64_t p = LOAD(&shm->procs[i].pid);
		if (p == pid) {
			/* a dead process' whose pid we have now: its numbers are not ours */
			free_slot = &shm->procs[i];
			STORE(&free_slot->holds, 0);
			STORE(&free_slot->waiters, 0);
			break;
		}
	}
	for (uint32_t i = 0; !free_slot && i < STATS_PROCS; i++) {
		int64_t expected = 0;
		if (LOAD(&shm->procs[i].pid) == 0 && CAS(&shm->procs[i].pid, &expected, (int64_t) pid)) {
			free_slot = &shm->procs[i];
		}
	}
	stats_proc *slot = free_slot ? free_slot : &shm->procs[STATS_PROCS];
	mine = slot;
	__atomic_store_n(&mine_pid, pid, __ATOMIC_RELEASE);
	return slot;
}

void rlock_stats_gauge(bool waiters, int delta)
{
	stats_proc *p = proc_slot();
	ADD(waiters ? &p->waiters : &p->holds, delta);
}

/* ---- reading ---- */

static void row_read(const stats_row *r, stats_row *out)
{
	const uint64_t *from = (const uint64_t *) r;
	uint64_t *to = (uint64_t *) out;
	for (size_t i = 0; i < sizeof(stats_row) / sizeof(uint64_t); i++) {
		to[i] = LOAD(&from[i]);
	}
}

static void hist_read(const stats_hist *h, stats_hist *out)
{
	for (int b = 0; b < STATS_BUCKETS; b++) {
		out->n[b] = LOAD(&h->n[b]);
	}
	out->sum_us = LOAD(&h->sum_us);
	out->max_us = LOAD(&h->max_us);
}

static uint64_t hist_count(const stats_hist *h)
{
	uint64_t n = 0;
	for (int b = 0; b < STATS_BUCKETS; b++) {
		n += h->n[b];
	}
	return n;
}

/* The q-quantile in ms, as Prometheus' histogram_quantile() computes it (linear within the
 * bucket), and never above the largest seen. */
static double hist_quantile(const stats_hist *h, double q)
{
	uint64_t count = hist_count(h), seen = 0;
	if (count == 0) {
		return 0;
	}
	double rank = q * (double) count;
	for (int b = 0; b < STATS_BUCKETS; b++) {
		if (seen + h->n[b] >= rank && h->n[b] > 0) {
			if (b == STATS_BUCKETS - 1) {
				return h->max_us / 1000.0;
			}
			double lo = b ? (double) bucket_us[b - 1] : 0, hi = (double) bucket_us[b];
			double v = lo + (hi - lo) * (rank - (double) seen) / (double) h->n[b];
			return MIN(v, (double) h->max_us) / 1000.0;
		}
		seen += h->n[b];
	}
	return h->max_us / 1000.0;
}

static void hist_array(const stats_hist *h, zval *out)
{
	zval buckets;
	array_init(out);
	add_assoc_long(out, "count", (zend_long) hist_count(h));
	add_assoc_double(out, "sum_ms", h->sum_us / 1000.0);
	add_assoc_double(out, "p50_ms", hist_quantile(h, 0.5));
	add_assoc_double(out, "p99_ms", hist_quantile(h, 0.99));
	add_assoc_double(out, "max_ms", h->max_us / 1000.0);
	array_init_size(&buckets, STATS_BUCKETS);
	for (int b = 0; b < STATS_BUCKETS; b++) {
		zval n;
		ZVAL_LONG(&n, (zend_long) h->n[b]);
		zend_symtable_str_update(Z_ARRVAL(buckets), bucket_ms[b], strlen(bucket_ms[b]), &n);
	}
	add_assoc_zval(out, "buckets", &buckets);
}

static const char *const event_names[RLOCK_STAT_NEVENTS] = {
	"acquires", "contended", "waits", "timeouts", "lost", "renewals", "renewal_failures", "handovers"
};
static const char *const event_help[RLOCK_STAT_NEVENTS] = {
	"Locks acquired.",
	"Acquire calls that found the lock taken.",
	"Acquire calls that blocked waiting for the lock.",
	"Acquire calls that gave up at the end of their wait.",
	"Holds found no longer ours (lease expired or taken over).",
	"Leases renewed by the watchdog.",
	"Watchdog renewals that failed (retried).",
	"Acquires handed over by a release to a waiter."
};
static const char *const error_names[RLOCK_STAT_NERRORS] = { "connection", "timeout", "auth", "reply" };

static void row_fields(const stats_row *r, zval *out)
{
	zval wait;
	for (int e = 0; e < RLOCK_STAT_NEVENTS; e++) {
		add_assoc_long(out, event_names[e], (zend_long) r->ev[e]);
	}
	hist_array(&r->wait, &wait);
	add_assoc_zval(out, "wait", &wait);
}

/* A slot's key text, read consistently (its tag matches the slot's hash around the copy),
 * into out; false when it is being written (or its writer died): then its hash names it. */
static bool name_read(const stats_key *k, uint64_t h, smart_str *out, char *kind)
{
	char buf[STATS_NAME];
	for (int tries = 0; tries < 3; tries++) {
		if (__atomic_load_n(&k->tag, __ATOMIC_ACQUIRE) != h) {
			continue;
		}
		uint32_t len = LOAD(&k->len);
		bool cut = len == UINT32_MAX;
		len = cut ? STATS_NAME : len;
		memcpy(buf, k->name, len);
		memcpy(kind, k->kind, sizeof(k->kind));
		kind[sizeof(k->kind) - 1] = '\0';
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&k->tag, __ATOMIC_ACQUIRE) != h || LOAD(&hashes[k - keys]) != h) {
			continue;
		}
		smart_str_appendl(out, buf, len);
		if (cut) {
			smart_str_append_printf(out, "...#%016" PRIx64, h);
		}
		return true;
	}
	smart_str_append_printf(out, "#%016" PRIx64, h);
	strcpy(kind, "?");
	return false;
}

typedef struct {
	zend_string *name;
	char kind[12];
	uint64_t hash;
	uint64_t weight;
	stats_row row;
} key_view;

static int by_weight(const void *a, const void *b)
{
	const key_view *x = a, *y = b;
	if (x->weight != y->weight) {
		return x->weight < y->weight ? 1 : -1;
	}
	int c = zend_binary_strcmp(ZSTR_VAL(x->name), ZSTR_LEN(x->name), ZSTR_VAL(y->name), ZSTR_LEN(y->name));
	return c ? c : strcmp(x->kind, y->kind);
}

/* The tracked keys, heaviest first: *n of them (the caller frees each name and the array). */
static key_view *keys_read(uint32_t *n)
{
	key_view *v = safe_emalloc(shm->nkeys, sizeof(key_view), 0);
	*n = 0;
	for (uint32_t i = 0; i < shm->nkeys; i++) {
		uint64_t h = LOAD(&hashes[i]);
		if (!h) {
			continue;
		}
		smart_str s = {0};
		key_view *k = &v[*n];
		name_read(&keys[i], h, &s, k->kind);
		smart_str_0(&s);
		k->name = smart_str_extract(&s);
		k->hash = h;
		k->weight = LOAD(&keys[i].weight);
		row_read(&keys[i].row, &k->row);
		(*n)++;
	}
	qsort(v, *n, sizeof(*v), by_weight);
	return v;
}

static void keys_free(key_view *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		zend_string_release(v[i].name);
	}
	efree(v);
}

/* The gauges summed over live processes; the slots of dead ones freed. */
static void gauges(int64_t *holds, int64_t *waiters)
{
	*holds = *waiters = 0;
	for (uint32_t i = 0; i <= STATS_PROCS; i++) {
		stats_proc *p = &shm->procs[i];
		int64_t pid = LOAD(&p->pid);
		if (pid == 0 && i < STATS_PROCS) {
			continue;
		}
#ifndef PHP_WIN32
		if (i < STATS_PROCS && kill((pid_t) pid, 0) < 0 && errno == ESRCH) {
			/* dead: what it held or waited for is no more */
			STORE(&p->holds, 0);
			STORE(&p->waiters, 0);
			CAS(&p->pid, &pid, 0);
			continue;
		}
#endif
		*holds += LOAD(&p->holds);
		*waiters += LOAD(&p->waiters);
	}
	*holds = MAX(*holds, 0);
	*waiters = MAX(*waiters, 0);
}

static bool server_read(uint32_t i, stats_server *out, smart_str *label)
{
	stats_server *s = &shm->servers[i];
	uint64_t h = LOAD(&s->hash);
	if (i < STATS_SERVERS && !h) {
		return false;
	}
	out->commands = LOAD(&s->commands);
	out->reconnects = LOAD(&s->reconnects);
	for (int e = 0; e < RLOCK_STAT_NERRORS; e++) {
		out->errors[e] = LOAD(&s->errors[e]);
	}
	hist_read(&s->rtt, &out->rtt);
	if (i == STATS_SERVERS) {
		if (out->commands == 0 && out->reconnects == 0 && hist_count(&out->rtt) == 0) {
			uint64_t errs = 0;
			for (int e = 0; e < RLOCK_STAT_NERRORS; e++) {
				errs += out->errors[e];
			}
			if (!errs) {
				return false;
			}
		}
		smart_str_appends(label, "other");
		return true;
	}
	char buf[STATS_LABEL];
	if (__atomic_load_n(&s->tag, __ATOMIC_ACQUIRE) == h) {
		memcpy(buf, s->label, STATS_LABEL);
		buf[STATS_LABEL - 1] = '\0';
		smart_str_appends(label, buf);
	} else {
		smart_str_append_printf(label, "#%016" PRIx64, h);
	}
	return true;
}

void rlock_stats_status(zval *out, bool with_keys)
{
	stats_row pool, other;
	int64_t holds, waiters;
	zval table, servers;

	array_init(out);
	add_assoc_bool(out, "enabled", shm != NULL);
	array_init(&table);
	add_assoc_long(&table, "keys", shm ? (zend_long) shm->nkeys : 0);
	add_assoc_long(&table, "bytes", shm ? (zend_long) shm->bytes : 0);
	if (!shm) {
		add_assoc_zval(out, "table", &table);
		return;
	}
	uint32_t tracked = 0;
	for (uint32_t i = 0; i < shm->nkeys; i++) {
		tracked += LOAD(&hashes[i]) != 0;
	}
	add_assoc_long(&table, "tracked", (zend_long) tracked);
	add_assoc_long(&table, "evictions", (zend_long) LOAD(&shm->evictions));
	add_assoc_long(&table, "started", (zend_long) shm->started);
	add_assoc_long(&table, "reset", (zend_long) LOAD(&shm->reset));
	add_assoc_zval(out, "table", &table);

	row_read(&shm->pool, &pool);
	row_fields(&pool, out);
	gauges(&holds, &waiters);
	add_assoc_long(out, "holds", (zend_long) holds);
	add_assoc_long(out, "waiters", (zend_long) waiters);

	array_init(&servers);
	for (uint32_t i = 0; i <= STATS_SERVERS; i++) {
		stats_server s;
		smart_str label = {0};
		zval row, errors, rtt;
		if (!server_read(i, &s, &label)) {
			continue;
		}
		smart_str_0(&label);
		array_init(&row);
		add_assoc_long(&row, "commands", (zend_long) s.commands);
		array_init(&errors);
		for (int e = 0; e < RLOCK_STAT_NERRORS; e++) {
			add_assoc_long(&errors, error_names[e], (zend_long) s.errors[e]);
		}
		add_assoc_zval(&row, "errors", &errors);
		add_assoc_long(&row, "reconnects", (zend_long) s.reconnects);
		hist_array(&s.rtt, &rtt);
		add_assoc_zval(&row, "rtt", &rtt);
		zend_symtable_update(Z_ARRVAL(servers), label.s, &row);
		smart_str_free(&label);
	}
	add_assoc_zval(out, "servers", &servers);

	if (with_keys) {
		uint32_t n;
		key_view *v = keys_read(&n);
		zval list, o;
		array_init_size(&list, n);
		for (uint32_t i = 0; i < n; i++) {
			zval row;
			array_init(&row);
			add_assoc_string(&row, "kind", v[i].kind);
			row_fields(&v[i].row, &row);
			/* a read-write lock's sides, named by one key: their kind added */
			if (strcmp(v[i].kind, "read") == 0 || strcmp(v[i].kind, "write") == 0
					|| zend_symtable_exists(Z_ARRVAL(list), v[i].name)) {
				zend_string *both = zend_string_concat3(ZSTR_VAL(v[i].name), ZSTR_LEN(v[i].name), " (", 2,
					v[i].kind, strlen(v[i].kind));
				zend_string *with = zend_string_concat2(ZSTR_VAL(both), ZSTR_LEN(both), ")", 1);
				zend_symtable_update(Z_ARRVAL(list), with, &row);
				zend_string_release(both);
				zend_string_release(with);
			} else {
				zend_symtable_update(Z_ARRVAL(list), v[i].name, &row);
			}
		}
		keys_free(v, n);
		add_assoc_zval(out, "keys", &list);
		row_read(&shm->other, &other);
		array_init(&o);
		row_fields(&other, &o);
		add_assoc_zval(out, "other", &o);
	}
}

/* ---- Prometheus ---- */

/* A label value: \ " and newline escaped; bytes that are not UTF-8 (and NUL) as '?'. Whether
 * it had to change any (then the caller makes it unique). */
static bool label_escape(smart_str *out, const char *s, size_t len)
{
	bool changed = false;
	for (size_t i = 0; i < len; ) {
		unsigned char c = (unsigned char) s[i];
		size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
		bool ok = n > 0 && i + n <= len && !(n == 2 && c < 0xC2) && !(n == 4 && c > 0xF4);
		for (size_t j = 1; ok && j < n; j++) {
			ok = ((unsigned char) s[i + j] & 0xC0) == 0x80;
		}
		if (ok && n == 3) {
			unsigned char d = (unsigned char) s[i + 1];
			ok = !(c == 0xE0 && d < 0xA0) && !(c == 0xED && d >= 0xA0);
		} else if (ok && n == 4) {
			unsigned char d = (unsigned char) s[i + 1];
			ok = !(c == 0xF0 && d < 0x90) && !(c == 0xF4 && d >= 0x90);
		}
		if (!ok || c == 0) {
			smart_str_appendc(out, '?');
			changed = true;
			i++;
			continue;
		}
		if (c == '\\') {
			smart_str_appends(out, "\\\\");
		} else if (c == '"') {
			smart_str_appends(out, "\\\"");
		} else if (c == '\n') {
			smart_str_appends(out, "\\n");
		} else {
			smart_str_appendl(out, s + i, n);
		}
		i += n;
	}
	return changed;
}

static void family(smart_str *m, const char *name, const char *type, const char *help)
{
	smart_str_append_printf(m, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void sample(smart_str *m, const char *name, const char *suffix, const char *labels, const char *le, uint64_t v)
{
	smart_str_appends(m, name);
	smart_str_appends(m, suffix);
	if (*labels || le) {
		smart_str_appendc(m, '{');
		smart_str_appends(m, labels);
		if (le) {
			smart_str_append_printf(m, "%sle=\"%s\"", *labels ? "," : "", le);
		}
		smart_str_appendc(m, '}');
	}
	smart_str_append_printf(m, " %" PRIu64 "\n", v);
}

static void hist_samples(smart_str *m, const char *name, const char *labels, const stats_hist *h)
{
	uint64_t cum = 0;
	for (int b = 0; b < STATS_BUCKETS; b++) {
		cum += h->n[b];
		sample(m, name, "_bucket", labels, bucket_le[b], cum);
	}
	smart_str_appends(m, name);
	smart_str_appends(m, "_sum");
	if (*labels) {
		smart_str_append_printf(m, "{%s}", labels);
	}
	smart_str_append_printf(m, " %.6f\n", h->sum_us / 1e6);
	sample(m, name, "_count", labels, NULL, cum);
}

/* A counter of every server read (labels[i] set), the field at offset of its row. */
static void server_counter(smart_str *m, const char *name, const char *help, zend_string *const *labels,
	const stats_server *s, size_t offset)
{
	family(m, name, "counter", help);
	for (uint32_t i = 0; i <= STATS_SERVERS; i++) {
		if (labels[i]) {
			sample(m, name, "", ZSTR_VAL(labels[i]), NULL, *(const uint64_t *) ((const char *) &s[i] + offset));
		}
	}
}

zend_string *rlock_stats_metrics(void)
{
	smart_str m = {0};
	char name[64];

	if (!shm) {
		smart_str_appends(&m, "# rlock: statistics are off (rlock.stats_keys=0)\n");
		smart_str_0(&m);
		return smart_str_extract(&m);
	}
	uint32_t n;
	key_view *v = keys_read(&n);
	stats_row other;
	row_read(&shm->other, &other);
	/* each row's labels, made once: key="...",kind="..." */
	zend_string **labels = safe_emalloc(n + 1, sizeof(zend_string *), 0);
	for (uint32_t i = 0; i <= n; i++) {
		smart_str l = {0};
		smart_str_appends(&l, "key=\"");
		if (i == n) {
			smart_str_appends(&l, "other\",kind=\"other\"");
		} else {
			if (label_escape(&l, ZSTR_VAL(v[i].name), ZSTR_LEN(v[i].name))) {
				/* two keys may read the same once changed: the hash tells them apart */
				smart_str_append_printf(&l, "#%016" PRIx64, v[i].hash);
			}
			smart_str_appends(&l, "\",kind=\"");
			label_escape(&l, v[i].kind, strlen(v[i].kind));
			smart_str_appendc(&l, '"');
		}
		smart_str_0(&l);
		labels[i] = smart_str_extract(&l);
	}
	for (int e = 0; e < RLOCK_STAT_NEVENTS; e++) {
		snprintf(name, sizeof(name), "rlock_%s_total", event_names[e]);
		family(&m, name, "counter", event_help[e]);
		for (uint32_t i = 0; i <= n; i++) {
			sample(&m, name, "", ZSTR_VAL(labels[i]), NULL, i == n ? other.ev[e] : v[i].row.ev[e]);
		}
	}
	family(&m, "rlock_wait_seconds", "histogram",
		"Time lock() calls with a wait took to acquire or give up (0 when the lock was free).");
	for (uint32_t i = 0; i <= n; i++) {
		hist_samples(&m, "rlock_wait_seconds", ZSTR_VAL(labels[i]), i == n ? &other.wait : &v[i].row.wait);
	}
	for (uint32_t i = 0; i <= n; i++) {
		zend_string_release(labels[i]);
	}
	efree(labels);
	keys_free(v, n);

	int64_t holds, waiters;
	gauges(&holds, &waiters);
	family(&m, "rlock_holds", "gauge", "Locks held now by the processes of the pool.");
	sample(&m, "rlock_holds", "", "", NULL, (uint64_t) holds);
	family(&m, "rlock_waiters", "gauge", "Callers of the pool blocked waiting for a lock now.");
	sample(&m, "rlock_waiters", "", "", NULL, (uint64_t) waiters);
	family(&m, "rlock_stats_keys", "gauge", "Keys the statistics table tracks at most (rlock.stats_keys).");
	sample(&m, "rlock_stats_keys", "", "", NULL, shm->nkeys);
	family(&m, "rlock_stats_evictions_total", "counter", "Keys evicted from the statistics table (their counts moved to key=\"other\").");
	sample(&m, "rlock_stats_evictions_total", "", "", NULL, LOAD(&shm->evictions));

	stats_server s[STATS_SERVERS + 1];
	zend_string *slabels[STATS_SERVERS + 1] = {0};
	for (uint32_t i = 0; i <= STATS_SERVERS; i++) {
		smart_str label = {0}, l = {0};
		if (!server_read(i, &s[i], &label)) {
			continue;
		}
		smart_str_appends(&l, "server=\"");
		label_escape(&l, label.s ? ZSTR_VAL(label.s) : "", label.s ? ZSTR_LEN(label.s) : 0);
		smart_str_appendc(&l, '"');
		smart_str_0(&l);
		slabels[i] = smart_str_extract(&l);
		smart_str_free(&label);
	}
	server_counter(&m, "rlock_server_commands_total", "Commands (or pipelines) a server answered.", slabels, s,
		XtOffsetOf(stats_server, commands));
	family(&m, "rlock_server_errors_total", "counter", "Failed commands by kind: connection, timeout, auth, reply.");
	for (uint32_t i = 0; i <= STATS_SERVERS; i++) {
		for (int e = 0; slabels[i] && e < RLOCK_STAT_NERRORS; e++) {
			smart_str l = {0};
			smart_str_append_printf(&l, "%s,kind=\"%s\"", ZSTR_VAL(slabels[i]), error_names[e]);
			smart_str_0(&l);
			sample(&m, "rlock_server_errors_total", "", ZSTR_VAL(l.s), NULL, s[i].errors[e]);
			smart_str_free(&l);
		}
	}
	server_counter(&m, "rlock_server_reconnects_total", "Connections to a server opened again.", slabels, s,
		XtOffsetOf(stats_server, reconnects));
	family(&m, "rlock_server_rtt_seconds", "histogram", "Round-trip time of commands to a server (one command in four timed).");
	for (uint32_t i = 0; i <= STATS_SERVERS; i++) {
		if (slabels[i]) {
			hist_samples(&m, "rlock_server_rtt_seconds", ZSTR_VAL(slabels[i]), &s[i].rtt);
			zend_string_release(slabels[i]);
		}
	}
	smart_str_0(&m);
	return smart_str_extract(&m);
}

void rlock_stats_reset(void)
{
	if (!shm) {
		return;
	}
	uint64_t *w;
	size_t n;
	/* the rows and the servers, word by word (each store atomic: a writer racing the reset
	 * lands its count before or after it, whole) */
#define ZERO(p, size) for (w = (uint64_t *) (p), n = (size) / sizeof(uint64_t); n-- > 0; w++) { STORE(w, 0); }
	ZERO(&shm->pool, sizeof(stats_row));
	ZERO(&shm->other, sizeof(stats_row));
	for (uint32_t i = 0; i <= STATS_SERVERS; i++) {
		/* counts only: a server keeps its place, which connections remember */
		stats_server *s = &shm->servers[i];
		STORE(&s->commands, 0);
		STORE(&s->reconnects, 0);
		ZERO(s->errors, sizeof(s->errors));
		ZERO(&s->rtt, sizeof(s->rtt));
	}
	for (uint32_t i = 0; i < shm->nkeys; i++) {
		STORE(&hashes[i], 0);
		ZERO(&keys[i].row, sizeof(stats_row));
		STORE(&keys[i].weight, 0);
	}
#undef ZERO
	STORE(&shm->evictions, 0);
	STORE(&shm->reset, (uint64_t) time(NULL));
}

bool rlock_stats_totals(uint64_t out[RLOCK_STAT_NEVENTS], uint64_t *reconnects)
{
	if (!shm) {
		return false;
	}
	for (int e = 0; e < RLOCK_STAT_NEVENTS; e++) {
		out[e] = LOAD(&shm->pool.ev[e]);
	}
	*reconnects = 0;
	for (uint32_t i = 0; i <= STATS_SERVERS; i++) {
		*reconnects += LOAD(&shm->servers[i].reconnects);
	}
	return true;
}
