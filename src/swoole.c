/* Swoole's coroutines, through the C functions its extension exports (looked up with
 * dlsym: no link-time dependency), and Swoole\Coroutine::defer() for a coroutine's end. */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE  /* RTLD_DEFAULT */
#endif
#include "php.h"
#include "php_rlock.h"
#include "swoole.h"
#include "zend_closures.h"
#include "zend_extensions.h"

const rlock_swoole_api *rlock_swoole = NULL;

#ifndef PHP_WIN32  /* (Swoole runs on POSIX systems only: elsewhere rlock_swoole stays NULL) */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netdb.h>
#include <errno.h>
#include <limits.h>
#include <time.h>

static rlock_swoole_api api;

/* PHP's own "tcp" transport, as at MINIT (before any hook: Swoole hooks at run time). Not
 * php_stream_generic_socket_factory's address: a build may register a local copy of it. */
static void *php_tcp;

/* The function the closure given to defer() runs: one per handler (one today). */
static zend_internal_function end_fn;

void rlock_swoole_minit(zif_handler on_end)
{
	/* PHP loads extensions RTLD_GLOBAL: Swoole's symbols are the process' once loaded */
	api.get_id = (long (*)(void)) dlsym(RTLD_DEFAULT, "swoole_coroutine_get_id");
	api.poll = (int (*)(struct pollfd *, nfds_t, int)) dlsym(RTLD_DEFAULT, "swoole_coroutine_poll");
	api.usleep = (void (*)(int)) dlsym(RTLD_DEFAULT, "swoole_coroutine_usleep");
	api.getaddrinfo = (int (*)(const char *, const char *, const struct addrinfo *, struct addrinfo **))
		dlsym(RTLD_DEFAULT, "swoole_coroutine_getaddrinfo");
	rlock_swoole = api.get_id && api.poll && api.usleep ? &api : NULL;
	if (rlock_swoole) {
		php_tcp = zend_hash_str_find_ptr(php_stream_xport_get_hash(), "tcp", sizeof("tcp") - 1);
		end_fn.type = ZEND_INTERNAL_FUNCTION;
		end_fn.fn_flags = ZEND_ACC_PUBLIC;
		end_fn.function_name = zend_string_init_interned(ZEND_STRL("rlock\\coroutine_end"), 1);
		end_fn.handler = on_end;
	}
}

void rlock_swoole_mshutdown(void)
{
#if PHP_VERSION_ID >= 80200
	if (ZEND_MAP_PTR(end_fn.run_time_cache)) {
		pefree(ZEND_MAP_PTR(end_fn.run_time_cache), 1);
		ZEND_MAP_PTR_INIT(end_fn.run_time_cache, NULL);
	}
#endif
}

/* Whether Swoole's hooks are on: its "tcp" transport in place of PHP's. */
static bool hooked(void)
{
	return zend_hash_str_find_ptr(php_stream_xport_get_hash(), "tcp", sizeof("tcp") - 1) != php_tcp;
}

long rlock_swoole_coroutine(void)
{
	long cid;
	if (!rlock_swoole || (cid = rlock_swoole->get_id()) <= 0 || !hooked()) {
		return 0;
	}
	return cid;
}

static zend_long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (zend_long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Swoole's poll() yields until an fd is ready or ms passed; it returns -1 for both a
 * timeout and a failure to watch an fd: what poll() would say is asked then, without
 * waiting, and the time left (a watch that failed) waited out the blocking way. */
int rlock_swoole_poll(struct pollfd *fds, nfds_t n, zend_long ms)
{
	zend_long deadline = now_ms() + ms;
	int rc = ms > 0 ? rlock_swoole->poll(fds, n, (int) MIN(ms, INT_MAX)) : -1;
	if (rc >= 0) {
		return rc;
	}
	for (nfds_t i = 0; i < n; i++) {
		fds[i].revents = 0;
	}
	do {
		rc = poll(fds, n, (int) MAX(MIN(deadline - now_ms(), INT_MAX), 0));
	} while (rc < 0 && errno == EINTR);
	return rc;
}

void rlock_swoole_sleep_us(zend_long us)
{
	rlock_swoole->usleep((int) MIN(us, INT_MAX));
}

const char *rlock_swoole_resolve(const char *host, char *buf, size_t size)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *res = NULL;
	const char *out = NULL;
	if (!rlock_swoole->getaddrinfo) {
		return NULL;
	}
	/* IPv4 first, then IPv6, as hiredis resolves */
	if (rlock_swoole->getaddrinfo(host, NULL, &hints, &res) != 0 || !res) {
		hints.ai_family = AF_INET6;
		res = NULL;
		if (rlock_swoole->getaddrinfo(host, NULL, &hints, &res) != 0 || !res) {
			return NULL;
		}
	}
	if (res->ai_family == AF_INET) {
		out = inet_ntop(AF_INET, &((struct sockaddr_in *) res->ai_addr)->sin_addr, buf, (socklen_t) size);
	} else if (res->ai_family == AF_INET6) {
		out = inet_ntop(AF_INET6, &((struct sockaddr_in6 *) res->ai_addr)->sin6_addr, buf, (socklen_t) size);
	}
	freeaddrinfo(res);
	return out;
}

bool rlock_swoole_defer(void)
{
	zend_class_entry *ce = zend_hash_str_find_ptr(EG(class_table), ZEND_STRL("swoole\\coroutine"));
	zend_function *defer = ce ? zend_hash_str_find_ptr(&ce->function_table, ZEND_STRL("defer")) : NULL;
	zval closure, rv;

	if (!defer) {
		return false;
	}
#if PHP_VERSION_ID >= 80200
	size_t cache = zend_internal_run_time_cache_reserved_size();
	if (!__atomic_load_n(&ZEND_MAP_PTR(end_fn.run_time_cache), __ATOMIC_ACQUIRE) && cache > 0) {
		/* what the engine gives a registered function (an observer keeps its state there),
		 * sized once every extension has asked for its part; set once for the process
		 * (Swoole's threads may get here at once: the first one's is kept) */
		void *mine = pecalloc(1, cache, 1), *none = NULL;
		if (!__atomic_compare_exchange_n(&ZEND_MAP_PTR(end_fn.run_time_cache), &none, mine, false,
				__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			pefree(mine, 1);
		}
	}
#endif
	zend_create_closure(&closure, (zend_function *) &end_fn, NULL, NULL, NULL);
	ZVAL_UNDEF(&rv);
	zend_call_known_function(defer, NULL, ce, &rv, 1, &closure, NULL);
	zval_ptr_dtor(&rv);
	zval_ptr_dtor(&closure);
	return !EG(exception);
}
#else
void rlock_swoole_minit(zif_handler on_end)
{
	(void) on_end;
}

void rlock_swoole_mshutdown(void)
{
}

long rlock_swoole_coroutine(void)
{
	return 0;
}

int rlock_swoole_poll(struct pollfd *fds, nfds_t n, zend_long ms)
{
	(void) fds; (void) n; (void) ms;
	return -1;
}

void rlock_swoole_sleep_us(zend_long us)
{
	(void) us;
}

const char *rlock_swoole_resolve(const char *host, char *buf, size_t size)
{
	(void) host; (void) buf; (void) size;
	return NULL;
}

bool rlock_swoole_defer(void)
{
	return false;
}
#endif
