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
 *   slot's version stays odd, and readers show the key by its hash until the next claim of
 *   the slot (which takes the dead writer's place: its pid is gone);
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
 * A slot's name is written by one process at a time: a claimant first takes the slot's
 * writer word (its pid; a dead writer's taken over), and a claimant that finds another
 * writing there counts under "other". The name sits under a version (a seqlock: odd while
 * written), so a reader never takes bytes of two writers for a name. Names are valid UTF-8
 * whatever the key: bytes that are not UTF-8 and control characters are written as \xHH,
 * and a name too long is cut on a character's boundary; both are marked by the key's hash
 * after the name ("...#hash" when cut, "#hash" when escaped), which tells them apart.
 *
 * Gauges (holds, waiters now): per process, in the slot of its pid, so that a process that
 * dies (SIGKILL, a crash, a php-fpm worker recycled) takes its part with it: a reader sums
 * the slots of live pids and frees the slots of dead ones (kill(pid, 0) says ESRCH). A new
 * process whose pid a dead one had takes that slot over and zeroes it. More live processes
 * than STATS_PROCS share one overflow slot, which nothing frees (documented).
 *
 * Where the mapping is: in php-fpm, one per pool, a named segment
 * /dev/shm/rlock-stats.<master's pid>.<pool> that the pool's first worker makes in its first
 * request, as the pool's user, mode 0600, and the pool's other workers map: two pools never
 * share one, and a pool under another user cannot open it; the pool's user (and root) can
 * read it from a shell (rlock_status(pool: 'www'), mapped read-only). The master maps none
 * and removes its pools' segments when it starts (those of a former master of its pid) and
 * when it ends. Anywhere else (CLI, other SAPIs): an anonymous mapping made at module start,
 * shared with the processes forked after it. */

#include "php.h"
#include "php_rlock.h"
#include "src/stats/stats.h"
#include "src/core/options.h"
#include "zend_smart_str.h"
#include "SAPI.h"
#include "zend_exceptions.h"
#include "src/core/errors.h"

#include <errno.h>
#include <time.h>
#ifndef PHP_WIN32
# include <sys/mman.h>
# include <signal.h>
# include <unistd.h>
# include <sched.h>
# include <fcntl.h>
# include <dirent.h>
# include <sys/stat.h>
# define YIELD() sched_yield()
#else
# define YIELD() SwitchToThread()
#endif

#define STATS_MAGIC UINT64_C(0x726c6f636b737432)  /* "rlockst2": a table of this layout (a pool's segment is read by other processes) */
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

/* A rate limiter's row (kind "ratelimit"): its decisions in a lock's events, and the sleeps
 * of acquire() in its wait histogram. */
#define RATE_ADMITTED RLOCK_STAT_ACQUIRES
#define RATE_REFUSED RLOCK_STAT_CONTENDED
#define RATE_WAITS RLOCK_STAT_WAITS
#define RATE_KIND "ratelimit"

/* stats_key.flags: how the name differs from the key */
#define STATS_CUT 1      /* cut to STATS_NAME bytes */
#define STATS_ESCAPED 2  /* bytes written as \xHH */

typedef struct {
	stats_row row;
	uint64_t weight;
	int64_t writer;       /* the pid claiming the slot and writing its name; 0: none */
	uint64_t version;     /* of the name: odd while it is written */
	uint64_t tag;         /* the hash whose name is written below */
	uint32_t len;         /* bytes of name */
	uint32_t flags;       /* STATS_CUT, STATS_ESCAPED */
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
	stats_row rate;        /* the rate limiters' decisions (RATE_ below) */
	stats_row rate_other;  /* of the limiters not tracked */
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

/* A new table's header, in the zeroed memory p of size bytes (its magic last: a worker of the
 * pool that maps it meanwhile waits for it). */
static void table_init(void *p, size_t size, zend_long nkeys)
{
	stats_header *h = p;
	h->bytes = size;
	h->nkeys = (uint32_t) nkeys;
	h->ways = (uint32_t) MIN(nkeys, STATS_WAYS);
	h->started = h->reset = (uint64_t) time(NULL);
	__atomic_store_n(&h->magic, STATS_MAGIC, __ATOMIC_RELEASE);
}

/* Whether the mapping p of size bytes holds a table (a segment found on disk is input). */
static bool table_valid(const stats_header *h, size_t size)
{
	return size >= sizeof(stats_header) && __atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) == STATS_MAGIC
		&& h->bytes == size && h->nkeys >= 1 && h->nkeys <= RLOCK_STATS_KEYS_MAX
		&& mapping_size(h->nkeys) == size && h->ways == MIN(h->nkeys, STATS_WAYS);
}

static void table_use(void *p)
{
	shm = p;
	hashes = (uint64_t *) (shm + 1);
	keys = (stats_key *) (hashes + shm->nkeys);
	rlock_stats_on = true;
}

#ifndef PHP_WIN32
#define POOL_PREFIX "rlock-stats."
#define POOL_NAME_MAX 64

/* php-fpm: the tables are the pools' (per_pool), the master's pid in their names */
static bool per_pool;
static bool pool_tried;
static pid_t master_pid;

/* Remove the segments of the pools of the master pid (a former master's of the same pid). */
static void pool_segments_remove(pid_t pid)
{
	char prefix[64];
	int n = snprintf(prefix, sizeof(prefix), POOL_PREFIX "%d.", (int) pid);
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, prefix, (size_t) n) == 0) {
			char name[300];
			snprintf(name, sizeof(name), "/%s", e->d_name);
			shm_unlink(name);
		}
	}
	if (d) {
		closedir(d);
	}
}

/* This worker's pool into out ([A-Za-z0-9_.-], others '_'): from its process title, which
 * php-fpm sets to "php-fpm: pool NAME" (fpm_get_status() would say it too, but reads the
 * scoreboard while the request starts). */
static bool pool_name(char *out, size_t cap)
{
	char title[256];
	int fd = open("/proc/self/cmdline", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, title, sizeof(title) - 1) : -1;
	if (fd >= 0) {
		close(fd);
	}
	if (n <= 0) {
		return false;
	}
	title[n] = '\0';
	const char *at = strstr(title, "pool ");
	if (!at || !at[5]) {
		return false;
	}
	at += 5;
	size_t len = 0;
	for (; at[len] && at[len] != ' ' && len + 1 < cap; len++) {
		char c = at[len];
		out[len] = isalnum((unsigned char) c) || c == '_' || c == '-' || c == '.' ? c : '_';
	}
	out[len] = '\0';
	return len > 0;
}

/* A php-fpm worker's first request: its pool's table mapped, made when it is the first. */
static void pool_attach(void)
{
	char pool[POOL_NAME_MAX + 1], name[POOL_NAME_MAX + 64];
	pool_tried = true;
	if (!pool_name(pool, sizeof(pool))) {
		php_error_docref(NULL, E_WARNING, "rlock: this worker's process title names no php-fpm pool: statistics are off in it");
		return;
	}
	snprintf(name, sizeof(name), "/" POOL_PREFIX "%d.%s", (int) master_pid, pool);
	size_t size = mapping_size(keys_setting);
	int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	bool made = fd >= 0;
	if (!made && errno == EEXIST) {
		fd = shm_open(name, O_RDWR, 0);
	}
	if (fd < 0 || (made && ftruncate(fd, (off_t) size) < 0)) {
		php_error_docref(NULL, E_WARNING, "rlock: cannot %s the statistics of pool %s (/dev/shm%s): %s; statistics are off "
			"in this worker", made ? "size" : "open", pool, name, strerror(errno));
		if (made) {
			shm_unlink(name);
		}
		if (fd >= 0) {
			close(fd);
		}
		return;
	}
	struct stat st;
	/* another worker made it: its size once that one set it (a moment) */
	for (int i = 0; !made && i < 1000 && fstat(fd, &st) == 0 && (size_t) st.st_size < sizeof(stats_header); i++) {
		usleep(1000);
	}
	if (!made) {
		size = fstat(fd, &st) == 0 ? (size_t) st.st_size : 0;
	}
	void *p = size >= sizeof(stats_header) ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	if (p != MAP_FAILED && made) {
		table_init(p, size, keys_setting);
	}
	for (int i = 0; p != MAP_FAILED && !made && i < 1000 && !table_valid(p, size); i++) {
		usleep(1000);
	}
	if (p == MAP_FAILED || !table_valid(p, size)) {
		php_error_docref(NULL, E_WARNING, "rlock: the statistics of pool %s (/dev/shm%s) are not a table of this "
			"version; statistics are off in this worker", pool, name);
		if (p != MAP_FAILED) {
			munmap(p, size);
		}
		return;
	}
	table_use(p);
}
#endif

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
	if (strcmp(sapi_module.name, "fpm-fcgi") == 0) {
		/* the master: each pool's workers map their pool's (pool_attach()) */
		per_pool = true;
		master_pid = getpid();
		pool_segments_remove(master_pid);
		return;
	}
	size_t size = mapping_size(nkeys);
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		php_error_docref(NULL, E_WARNING, "rlock: cannot map %zu bytes for statistics (rlock.stats_keys="
			ZEND_LONG_FMT "): %s; statistics are off", size, nkeys, strerror(errno));
		return;
	}
	/* an anonymous mapping comes zeroed */
	table_init(p, size, nkeys);
	table_use(p);
#endif
}

void rlock_stats_rinit(void)
{
#ifndef PHP_WIN32
	if (per_pool && !pool_tried) {
		pool_attach();
	}
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
	if (per_pool && getpid() == master_pid) {
		pool_segments_remove(master_pid);
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
		return a->stats_name(key);  /* a semaphore, a rate limiter by its name */
	}
	if (strcmp(a->kind, "multi") == 0 && a->name) {
		smart_str s = {0};
		a->name(key, &s);
		smart_str_0(&s);
		return smart_str_extract(&s);
	}
	return zend_string_copy(key);
}

/* The length of the UTF-8 character at s[i] (1 to 4), or 0 when the bytes there are not
 * one (a stray continuation byte, an overlong form, a surrogate, beyond U+10FFFF, cut). */
static size_t utf8_char(const char *s, size_t len, size_t i)
{
	unsigned char c = (unsigned char) s[i];
	size_t n = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
	if (n == 0 || i + n > len || (n == 2 && c < 0xC2) || (n == 4 && c > 0xF4)) {
		return 0;
	}
	for (size_t j = 1; j < n; j++) {
		if (((unsigned char) s[i + j] & 0xC0) != 0x80) {
			return 0;
		}
	}
	unsigned char d = (unsigned char) s[i + 1];
	if ((n == 3 && ((c == 0xE0 && d < 0xA0) || (c == 0xED && d >= 0xA0)))
			|| (n == 4 && ((c == 0xF0 && d < 0x90) || (c == 0xF4 && d >= 0x90)))) {
		return 0;
	}
	return n;
}

/* s as a name of at most cap bytes, into out: valid UTF-8, a byte that is not (and a control
 * character) as \xHH, cut before the first character (or escape) that would not fit. Its
 * length; *flags: STATS_CUT, STATS_ESCAPED. */
static size_t name_encode(const char *s, size_t len, char *out, size_t cap, uint32_t *flags)
{
	size_t o = 0;
	*flags = 0;
	for (size_t i = 0; i < len; ) {
		unsigned char c = (unsigned char) s[i];
		size_t n = utf8_char(s, len, i);
		bool esc = n == 0 || c < 0x20 || c == 0x7F;
		size_t need = esc ? 4 : n;
		if (o + need > cap) {
			*flags |= STATS_CUT;
			break;
		}
		if (esc) {
			char hex[5];
			snprintf(hex, sizeof(hex), "\\x%02X", c);
			memcpy(out + o, hex, 4);
			*flags |= STATS_ESCAPED;
			i++;
		} else {
			memcpy(out + o, s + i, n);
			i += n;
		}
		o += need;
	}
	return o;
}

/* Whether this process may write slot k's name: it took the slot's writer word (free, or left
 * by a writer that died in the middle); false while another writes there. */
static bool writer_take(stats_key *k, int64_t pid)
{
	int64_t cur = 0;
	if (CAS(&k->writer, &cur, pid)) {
		return true;
	}
#ifndef PHP_WIN32
	/* another thread of this process (ZTS) is alive by definition */
	if (cur != pid && kill((pid_t) cur, 0) < 0 && errno == ESRCH && CAS(&k->writer, &cur, pid)) {
		return true;
	}
#endif
	return false;
}

static void writer_give(stats_key *k)
{
	__atomic_store_n(&k->writer, 0, __ATOMIC_RELEASE);
}

/* Slot k's name (its writer word ours): under its version, odd while written (a writer that
 * died in the middle left it odd: it stays so). */
static void name_write(stats_key *k, uint64_t h, const rlock_algo *a, zend_string *key)
{
	zend_string *name = display_name(a, key);
	char buf[STATS_NAME];
	uint32_t flags;
	uint32_t len = (uint32_t) name_encode(ZSTR_VAL(name), ZSTR_LEN(name), buf, sizeof(buf), &flags);
	zend_string_release(name);

	uint64_t v = LOAD(&k->version) | 1;
	STORE(&k->version, v);
	__atomic_thread_fence(__ATOMIC_RELEASE);  /* odd before any byte of the name */
	/* plain writes: one writer at a time, and a reader checks the version around its copy */
	memcpy(k->name, buf, len);
	memset(k->kind, 0, sizeof(k->kind));
	strncpy(k->kind, a->kind, sizeof(k->kind) - 1);
	STORE(&k->len, len);
	STORE(&k->flags, flags);
	STORE(&k->tag, h);
	__atomic_store_n(&k->version, v + 1, __ATOMIC_RELEASE);
}

/* slot's counts (its key evicted) moved to "other", a rate limiter's to its own (the slot's
 * writer word ours: its kind is what the last writer wrote) */
static void move_to_other(stats_key *k)
{
	bool rate = strncmp(k->kind, RATE_KIND, sizeof(k->kind)) == 0;
	uint64_t *from = (uint64_t *) &k->row, *to = (uint64_t *) (rate ? &shm->rate_other : &shm->other);
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
	/* the hash's bits mixed before the modulo: zend's hash of keys that differ in their last
	 * characters ("k1", "k2", ...) differs in its low bits alone, which left most of a large
	 * table's slots unused (37,000 of 65,536 keys tracked, the rest evicting each other) */
	uint32_t n = shm->nkeys, i = (uint32_t) (((h * UINT64_C(0x9E3779B97F4A7C15)) >> 32) % n);
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
		if (i == UINT32_MAX) {
			return NULL;
		}
		int64_t pid = (int64_t) rlock_getpid();
		if (!writer_take(&keys[i], pid)) {
			/* another process claims it now: maybe for this key; look again */
			continue;
		}
		uint64_t old = empty != UINT32_MAX ? 0 : LOAD(&hashes[i]);
		if (CAS(&hashes[i], &old, h)) {
			/* what the slot counted (an evicted key's, or a count that landed after a
			 * reset) is not this key's */
			ADD(&shm->evictions, old != 0);
			move_to_other(&keys[i]);
			name_write(&keys[i], h, a, key);
			writer_give(&keys[i]);
			return &keys[i];
		}
		writer_give(&keys[i]);
		/* another process claimed it first: maybe for this key; look again */
	}
	return NULL;
}

static void count_row(stats_row *r, rlock_stat_event ev)
{
	ADD(&r->ev[ev], 1);
}

/* events evs of a's key (hash h) into its row (or other) and pool: the locks', or the rate
 * limiters' (rate) */
static void record_in(uint64_t h, const rlock_algo *a, zend_string *key, const rlock_stat_event *evs, int nev,
	int64_t wait_us, stats_row *pool, stats_row *other)
{
	stats_key *k = slot_of(h, a, key);
	if (nev == 1 && wait_us < 0) {
		/* one event (an uncontended tryLock()/lock() without a wait): the common case */
		ADD(&pool->ev[evs[0]], 1);
		ADD(k ? &k->row.ev[evs[0]] : &other->ev[evs[0]], 1);
		if (k) {
			ADD(&k->weight, 1);
		}
		return;
	}
	stats_row *rows[2] = { pool, k ? &k->row : other };
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

static inline void record(uint64_t h, const rlock_algo *a, zend_string *key, const rlock_stat_event *evs, int nev, int64_t wait_us)
{
	record_in(h, a, key, evs, nev, wait_us, &shm->pool, &shm->other);
}

/* what a rate limiter is to the key table: its kind (hashed in), its name (display_name(): the
 * rate limiter's own, given at MINIT, rlock_stats_rate_name_by()) */
static rlock_algo rate_algo = { .kind = RATE_KIND };

void rlock_stats_rate_name_by(zend_string *(*fn)(zend_string *key))
{
	rate_algo.stats_name = fn;
}

void rlock_stats_rate(zend_string *key, bool admitted, int64_t slept_us)
{
	if (shm) {
		rlock_stat_event evs[2] = { admitted ? RATE_ADMITTED : RATE_REFUSED, RATE_WAITS };
		record_in(rlock_stats_hash(&rate_algo, key), &rate_algo, key, evs, slept_us > 0 ? 2 : 1,
			slept_us > 0 ? slept_us : -1, &shm->rate, &shm->rate_other);
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
				uint32_t flags;
				s->label[name_encode(label, len, s->label, STATS_LABEL - 1, &flags)] = '\0';
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
	if (!shm) {
		return;  /* php-fpm's master, or a worker whose pool's table could not be mapped */
	}
	stats_proc *p = proc_slot();
	ADD(waiters ? &p->waiters : &p->holds, delta);
}

/* ---- reading ---- */

/* The table a reading function reads (rd): this process' own, or a php-fpm pool's mapped
 * read-only from a shell (rlock_status(pool: ...)). Per thread: the watchdog's thread
 * records into the own table (shm) whatever a request reads. */
typedef struct {
	stats_header *shm;
	uint64_t *hashes;
	stats_key *keys;
	bool ro;
} stats_table;
ZEND_TLS stats_table rd;

static void read_own(void)
{
	rd = (stats_table) { .shm = shm, .hashes = hashes, .keys = keys };
}

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
 * bucket), never above the largest seen, rounded to the microsecond. */
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
			/* to the microsecond, as every time here is (not 34.69387755102 ms) */
			return round(MIN(v, (double) h->max_us)) / 1000.0;
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

/* A rate limiter's row: decisions admitted and refused, acquire()'s sleeps (count and time). */
static void rate_fields(const stats_row *r, zval *out)
{
	zval wait;
	array_init(out);
	add_assoc_long(out, "admitted", (zend_long) r->ev[RATE_ADMITTED]);
	add_assoc_long(out, "refused", (zend_long) r->ev[RATE_REFUSED]);
	add_assoc_long(out, "waits", (zend_long) r->ev[RATE_WAITS]);
	hist_array(&r->wait, &wait);
	add_assoc_zval(out, "wait", &wait);
}

/* A slot's name, read consistently (under its version: no writer between the two reads, and
 * written for the slot's hash h), into out; false when it is being written (or its writer
 * died, or another key took the slot since): then its hash names it. */
static bool name_read(const stats_key *k, uint64_t h, smart_str *out, char *kind)
{
	char buf[STATS_NAME];
	for (int tries = 0; tries < 4; tries++) {
		uint64_t v = __atomic_load_n(&k->version, __ATOMIC_ACQUIRE);
		if (v & 1) {
			YIELD();
			continue;
		}
		uint64_t tag = LOAD(&k->tag);
		uint32_t len = MIN(LOAD(&k->len), STATS_NAME);
		uint32_t flags = LOAD(&k->flags);
		memcpy(buf, k->name, len);
		memcpy(kind, k->kind, sizeof(k->kind));
		kind[sizeof(k->kind) - 1] = '\0';
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (LOAD(&k->version) != v) {
			continue;
		}
		if (tag != h || LOAD(&rd.hashes[k - rd.keys]) != h) {
			break;  /* the slot is another key's now */
		}
		smart_str_appendl(out, buf, len);
		if (flags) {
			smart_str_append_printf(out, "%s#%016" PRIx64, flags & STATS_CUT ? "..." : "", h);
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

/* The most keys rlock_status() and rlock_metrics() name one by one (each sort: the locks, the
 * rate limiters); the rest are summed into their "other" row: what either makes stays within
 * a few MB whatever rlock.stats_keys (65536 keys' rows would not fit in 128M). */
#define STATS_TOP 1000

/* Whether slot k holds a rate limiter: its kind's second letter, read as it is ("read" and
 * "ratelimit" differ there; a slot being claimed may be filed with the other sort once). */
static bool slot_is_rate(const stats_key *k)
{
	return LOAD(&k->kind[0]) == 'r' && LOAD(&k->kind[1]) == 'a';
}

typedef struct {
	uint32_t i;
	uint64_t weight;
} slot_weight;

static int by_slot_weight(const void *a, const void *b)
{
	const slot_weight *x = a, *y = b;
	return x->weight != y->weight ? (x->weight < y->weight ? 1 : -1) : (x->i > y->i) - (x->i < y->i);
}

static void row_sum(stats_row *to, const stats_row *r)
{
	uint64_t *t = (uint64_t *) to;
	const uint64_t *f = (const uint64_t *) r;
	size_t n = sizeof(stats_row) / sizeof(uint64_t);
	for (size_t i = 0; i < n - 1; i++) {
		t[i] += f[i];
	}
	t[n - 1] = MAX(t[n - 1], f[n - 1]);  /* max_us */
}

/* The tracked keys of one sort (rate: the rate limiters, else the locks), heaviest first: at
 * most STATS_TOP of them, *n (the caller frees them: keys_free()); the rows of the others
 * summed into rest. Reads a slot's weight (16 bytes a slot) before any name. */
static key_view *keys_read(bool rate, uint32_t *n, stats_row *rest)
{
	slot_weight *w = safe_emalloc(rd.shm->nkeys, sizeof(slot_weight), 0);
	uint32_t c = 0;
	for (uint32_t i = 0; i < rd.shm->nkeys; i++) {
		if (LOAD(&rd.hashes[i]) && slot_is_rate(&rd.keys[i]) == rate) {
			w[c].i = i;
			w[c].weight = LOAD(&rd.keys[i].weight);
			c++;
		}
	}
	if (c > STATS_TOP) {
		qsort(w, c, sizeof(*w), by_slot_weight);
	}
	uint32_t top = MIN(c, STATS_TOP);
	key_view *v = safe_emalloc(MAX(top, 1), sizeof(key_view), 0);
	*n = 0;
	for (uint32_t j = 0; j < c; j++) {
		uint32_t i = w[j].i;
		uint64_t h = LOAD(&rd.hashes[i]);
		if (!h) {
			continue;  /* reset since */
		}
		if (j >= top) {
			stats_row r;
			row_read(&rd.keys[i].row, &r);
			row_sum(rest, &r);
			continue;
		}
		smart_str s = {0};
		key_view *k = &v[*n];
		name_read(&rd.keys[i], h, &s, k->kind);
		smart_str_0(&s);
		k->name = smart_str_extract(&s);
		k->hash = h;
		k->weight = w[j].weight;
		row_read(&rd.keys[i].row, &k->row);
		(*n)++;
	}
	efree(w);
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
		stats_proc *p = &rd.shm->procs[i];
		int64_t pid = LOAD(&p->pid);
		if (pid == 0 && i < STATS_PROCS) {
			continue;
		}
#ifndef PHP_WIN32
		if (i < STATS_PROCS && kill((pid_t) pid, 0) < 0 && errno == ESRCH) {
			/* dead: what it held or waited for is no more (a pool's table read from a
			 * shell is mapped read-only: its workers free the slot) */
			if (!rd.ro) {
				STORE(&p->holds, 0);
				STORE(&p->waiters, 0);
				CAS(&p->pid, &pid, 0);
			}
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
	stats_server *s = &rd.shm->servers[i];
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

static void status_read(zval *out, bool with_keys)
{
	stats_row pool, other;
	int64_t holds, waiters;
	zval table, servers;

	array_init(out);
	add_assoc_bool(out, "enabled", rd.shm != NULL);
	array_init(&table);
	add_assoc_long(&table, "keys", rd.shm ? (zend_long) rd.shm->nkeys : 0);
	add_assoc_long(&table, "bytes", rd.shm ? (zend_long) rd.shm->bytes : 0);
	if (!rd.shm) {
		add_assoc_zval(out, "table", &table);
		return;
	}
	uint32_t tracked = 0;
	for (uint32_t i = 0; i < rd.shm->nkeys; i++) {
		tracked += LOAD(&rd.hashes[i]) != 0;
	}
	add_assoc_long(&table, "tracked", (zend_long) tracked);
	add_assoc_long(&table, "evictions", (zend_long) LOAD(&rd.shm->evictions));
	add_assoc_long(&table, "started", (zend_long) rd.shm->started);
	add_assoc_long(&table, "reset", (zend_long) LOAD(&rd.shm->reset));
	add_assoc_zval(out, "table", &table);

	row_read(&rd.shm->pool, &pool);
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
		row_read(&rd.shm->other, &other);
		key_view *v = keys_read(false, &n, &other);
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
		array_init(&o);
		row_fields(&other, &o);
		add_assoc_zval(out, "other", &o);
	}

	/* the rate limiters: their decisions, and with keys each limiter's (and the rest's) */
	zval rates;
	stats_row r;
	row_read(&rd.shm->rate, &r);
	rate_fields(&r, &rates);
	if (with_keys) {
		uint32_t n;
		stats_row rest;
		zval list, o;
		row_read(&rd.shm->rate_other, &rest);
		key_view *v = keys_read(true, &n, &rest);
		array_init_size(&list, n);
		for (uint32_t i = 0; i < n; i++) {
			zval row;
			rate_fields(&v[i].row, &row);
			zend_symtable_update(Z_ARRVAL(list), v[i].name, &row);
		}
		keys_free(v, n);
		add_assoc_zval(&rates, "limiters", &list);
		rate_fields(&rest, &o);
		add_assoc_zval(&rates, "other", &o);
	}
	add_assoc_zval(out, "ratelimit", &rates);
}

/* ---- Prometheus ---- */

/* A label value: \ " and newline escaped; bytes that are not UTF-8 (and NUL) as '?'. Whether
 * it had to change any (then the caller makes it unique). */
static bool label_escape(smart_str *out, const char *s, size_t len)
{
	bool changed = false;
	for (size_t i = 0; i < len; ) {
		unsigned char c = (unsigned char) s[i];
		size_t n = utf8_char(s, len, i);
		if (n == 0 || c == 0) {
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

/* A row's label: name="key" (escaped; one that had to change told apart by its hash), and
 * kind="kind" when kind. */
static zend_string *key_label(const char *name, const key_view *k, bool kind)
{
	smart_str l = {0};
	smart_str_append_printf(&l, "%s=\"", name);
	if (label_escape(&l, ZSTR_VAL(k->name), ZSTR_LEN(k->name))) {
		/* two keys may read the same once changed: the hash tells them apart */
		smart_str_append_printf(&l, "#%016" PRIx64, k->hash);
	}
	smart_str_appendc(&l, '"');
	if (kind) {
		smart_str_appends(&l, ",kind=\"");
		label_escape(&l, k->kind, strlen(k->kind));
		smart_str_appendc(&l, '"');
	}
	smart_str_0(&l);
	return smart_str_extract(&l);
}

/* The rate limiters' families: decisions by limiter (the top ones, then "other"), acquire()'s
 * sleeps for their permits. */
static void rate_metrics(smart_str *m)
{
	uint32_t n;
	stats_row rest;
	row_read(&rd.shm->rate_other, &rest);
	key_view *v = keys_read(true, &n, &rest);
	zend_string **labels = safe_emalloc(n + 1, sizeof(zend_string *), 0);
	for (uint32_t i = 0; i <= n; i++) {
		labels[i] = i == n ? zend_string_init("limiter=\"other\"", strlen("limiter=\"other\""), 0)
			: key_label("limiter", &v[i], false);
	}
	family(m, "rlock_ratelimit_decisions_total", "counter",
		"Rate limiter decisions (tryAcquire(), acquire(), all()), by limiter and decision: admitted or refused.");
	for (uint32_t i = 0; i <= n; i++) {
		const stats_row *r = i == n ? &rest : &v[i].row;
		for (int d = 0; d < 2; d++) {
			smart_str s = {0};
			smart_str_append_printf(&s, "%s,decision=\"%s\"", ZSTR_VAL(labels[i]), d ? "refused" : "admitted");
			smart_str_0(&s);
			sample(m, "rlock_ratelimit_decisions_total", "", ZSTR_VAL(s.s), NULL, r->ev[d ? RATE_REFUSED : RATE_ADMITTED]);
			smart_str_free(&s);
		}
	}
	family(m, "rlock_ratelimit_waits_total", "counter", "RRateLimiter::acquire() calls that slept for their permits.");
	for (uint32_t i = 0; i <= n; i++) {
		sample(m, "rlock_ratelimit_waits_total", "", ZSTR_VAL(labels[i]), NULL, (i == n ? &rest : &v[i].row)->ev[RATE_WAITS]);
	}
	family(m, "rlock_ratelimit_wait_seconds_total", "counter", "Time RRateLimiter::acquire() calls slept for their permits.");
	for (uint32_t i = 0; i <= n; i++) {
		smart_str_append_printf(m, "rlock_ratelimit_wait_seconds_total{%s} %.6f\n", ZSTR_VAL(labels[i]),
			(i == n ? &rest : &v[i].row)->wait.sum_us / 1e6);
	}
	for (uint32_t i = 0; i <= n; i++) {
		zend_string_release(labels[i]);
	}
	efree(labels);
	keys_free(v, n);
}

static zend_string *metrics_read(void)
{
	smart_str m = {0};
	char name[64];

	if (!rd.shm) {
		smart_str_appends(&m, "# rlock: statistics are off (rlock.stats_keys=0)\n");
		smart_str_0(&m);
		return smart_str_extract(&m);
	}
	uint32_t n;
	stats_row other;
	row_read(&rd.shm->other, &other);
	key_view *v = keys_read(false, &n, &other);
	/* each row's labels, made once: key="...",kind="..." */
	zend_string **labels = safe_emalloc(n + 1, sizeof(zend_string *), 0);
	for (uint32_t i = 0; i <= n; i++) {
		labels[i] = i == n ? zend_string_init("key=\"other\",kind=\"other\"", strlen("key=\"other\",kind=\"other\""), 0)
			: key_label("key", &v[i], true);
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
		/* a key's 22 lines only once it has a wait to show (a tryLock()'s never has) */
		if (i == n || hist_count(&v[i].row.wait) > 0) {
			hist_samples(&m, "rlock_wait_seconds", ZSTR_VAL(labels[i]), i == n ? &other.wait : &v[i].row.wait);
		}
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
	rate_metrics(&m);
	family(&m, "rlock_stats_keys", "gauge", "Keys the statistics table tracks at most (rlock.stats_keys).");
	sample(&m, "rlock_stats_keys", "", "", NULL, rd.shm->nkeys);
	family(&m, "rlock_stats_evictions_total", "counter", "Keys evicted from the statistics table (their counts moved to key=\"other\").");
	sample(&m, "rlock_stats_evictions_total", "", "", NULL, LOAD(&rd.shm->evictions));

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

void rlock_stats_status(zval *out, bool with_keys)
{
	read_own();
	status_read(out, with_keys);
}

zend_string *rlock_stats_metrics(void)
{
	read_own();
	return metrics_read();
}

#ifndef PHP_WIN32
/* The table of the running php-fpm pool named pool, mapped read-only into rd; false with an
 * exception thrown (arg: the pool argument's number). */
static bool pool_read_begin(zend_string *pool, uint32_t arg)
{
	size_t len = ZSTR_LEN(pool);
	bool ok = len > 0 && len <= POOL_NAME_MAX;
	for (size_t i = 0; ok && i < len; i++) {
		char c = ZSTR_VAL(pool)[i];
		ok = isalnum((unsigned char) c) || c == '_' || c == '-' || c == '.';
	}
	if (!ok) {
		zend_argument_value_error(arg, "must be a php-fpm pool's name (1 to %d of A-Z a-z 0-9 _ - .)", POOL_NAME_MAX);
		return false;
	}
	/* rlock-stats.<pid>.<pool> of a master that runs (another user's: EPERM) */
	char path[POOL_NAME_MAX + 64] = "";
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	while (d && !path[0] && (e = readdir(d)) != NULL) {
		char *end;
		if (strncmp(e->d_name, POOL_PREFIX, strlen(POOL_PREFIX)) != 0) {
			continue;
		}
		long pid = strtol(e->d_name + strlen(POOL_PREFIX), &end, 10);
		if (pid > 0 && *end == '.' && strcmp(end + 1, ZSTR_VAL(pool)) == 0 && (kill((pid_t) pid, 0) == 0 || errno == EPERM)) {
			snprintf(path, sizeof(path), "/dev/shm/%s", e->d_name);
		}
	}
	if (d) {
		closedir(d);
	}
	if (!path[0]) {
		zend_throw_exception_ex(rlock_ce_exception, 0, "No running php-fpm pool \"%s\" keeps rlock statistics (none in "
			"/dev/shm/" POOL_PREFIX "<master pid>.%s: a pool's table is made by its first request)", ZSTR_VAL(pool), ZSTR_VAL(pool));
		return false;
	}
	int fd = open(path, O_RDONLY);
	struct stat st;
	void *p = MAP_FAILED;
	size_t size = 0;
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size >= (off_t) sizeof(stats_header)
			&& st.st_size <= (off_t) mapping_size(RLOCK_STATS_KEYS_MAX)) {
		size = (size_t) st.st_size;
		p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	}
	int err = errno;
	if (fd >= 0) {
		close(fd);
	}
	if (fd < 0) {
		zend_throw_exception_ex(rlock_ce_exception, 0, "Cannot read the statistics of php-fpm pool \"%s\" (%s): %s; "
			"read them as the pool's user or root", ZSTR_VAL(pool), path, strerror(err));
		return false;
	}
	if (p == MAP_FAILED || !table_valid(p, size)) {
		if (p != MAP_FAILED) {
			munmap(p, size);
		}
		zend_throw_exception_ex(rlock_ce_exception, 0, "The statistics of php-fpm pool \"%s\" (%s) are not a table "
			"this rlock reads (another version?)", ZSTR_VAL(pool), path);
		return false;
	}
	stats_header *h = p;
	rd = (stats_table) { .shm = h, .hashes = (uint64_t *) (h + 1), .keys = (stats_key *) ((uint64_t *) (h + 1) + h->nkeys),
		.ro = true };
	return true;
}

static void pool_read_end(void)
{
	munmap(rd.shm, rd.shm->bytes);
	read_own();
}
#endif

bool rlock_stats_pool_status(zend_string *pool, uint32_t arg, zval *out, bool with_keys)
{
#ifndef PHP_WIN32
	if (!pool_read_begin(pool, arg)) {
		return false;
	}
	status_read(out, with_keys);
	pool_read_end();
	return true;
#else
	zend_throw_exception_ex(rlock_ce_exception, 0, "No php-fpm pool keeps rlock statistics on Windows");
	return false;
#endif
}

zend_string *rlock_stats_pool_metrics(zend_string *pool, uint32_t arg)
{
#ifndef PHP_WIN32
	if (!pool_read_begin(pool, arg)) {
		return NULL;
	}
	zend_string *m = metrics_read();
	pool_read_end();
	return m;
#else
	zend_throw_exception_ex(rlock_ce_exception, 0, "No php-fpm pool keeps rlock statistics on Windows");
	return NULL;
#endif
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
	ZERO(&shm->rate, sizeof(stats_row));
	ZERO(&shm->rate_other, sizeof(stats_row));
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
