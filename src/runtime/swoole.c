/* Swoole's coroutines, through the C functions its extension exports (looked up with
 * dlsym: no link-time dependency), and its hook at a coroutine's end. */

#ifndef _GNU_SOURCE
# define _GNU_SOURCE  /* RTLD_DEFAULT */
#endif
#include "php.h"
#include "php_rlock.h"
#include "src/runtime/swoole.h"
#include "src/transport/conn.h"

const rlock_swoole_api *rlock_swoole = NULL;

#ifndef PHP_WIN32  /* (Swoole runs on POSIX systems only: elsewhere rlock_swoole stays NULL) */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <netdb.h>
#include <errno.h>
#include <limits.h>
#include <time.h>

static rlock_swoole_api api;

/* swoole_api.h's SW_GLOBAL_HOOK_ON_CORO_STOP: Swoole calls its hooks of that type as a
 * coroutine's context is destroyed (PHPCoroutine::destroy_context), after every defer() of
 * the coroutine ran (or was dropped: one threw), before its Context object is released,
 * the coroutine still the running one. */
#define SW_HOOK_ON_CORO_STOP 4

static void (*end_fn)(void);

static void coroutine_stop(void *php_context)
{
	(void) php_context;
	end_fn();
}

void rlock_swoole_minit(void (*on_end)(void))
{
	void (*add_hook)(int type, void (*fn)(void *), int push_back);

	/* PHP loads extensions RTLD_GLOBAL: Swoole's symbols are the process' once loaded */
	api.get_id = (long (*)(void)) dlsym(RTLD_DEFAULT, "swoole_coroutine_get_id");
	api.poll = (int (*)(struct pollfd *, nfds_t, int)) dlsym(RTLD_DEFAULT, "swoole_coroutine_poll");
	api.usleep = (void (*)(int)) dlsym(RTLD_DEFAULT, "swoole_coroutine_usleep");
	api.getaddrinfo = (int (*)(const char *, const char *, const struct addrinfo *, struct addrinfo **))
		dlsym(RTLD_DEFAULT, "swoole_coroutine_getaddrinfo");
	api.socket_exists = (uint8_t (*)(int)) dlsym(RTLD_DEFAULT, "swoole_coroutine_socket_exists");
	api.socket_create = (int (*)(int)) dlsym(RTLD_DEFAULT, "swoole_coroutine_socket_create");
	api.socket_wait = (int (*)(int, int, double)) dlsym(RTLD_DEFAULT, "swoole_coroutine_socket_wait_event");
	api.socket_unwrap = (int (*)(int)) dlsym(RTLD_DEFAULT, "swoole_coroutine_socket_unwrap");
	if (!api.socket_exists || !api.socket_create || !api.socket_wait || !api.socket_unwrap) {
		api.socket_create = NULL;
	}
	add_hook = (void (*)(int, void (*)(void *), int)) dlsym(RTLD_DEFAULT, "swoole_add_hook");
	rlock_swoole = api.get_id && api.poll && api.usleep && add_hook ? &api : NULL;
	if (rlock_swoole) {
		/* once for the process (Swoole's MINIT ran before: rlock.c's module dependency;
		 * Swoole frees its hooks at its MSHUTDOWN) */
		end_fn = on_end;
		add_hook(SW_HOOK_ON_CORO_STOP, coroutine_stop, 1);
	}
}

/* Hooks on or off: rlock's sockets are hiredis', not PHP streams, and wait through Swoole's
 * coroutine API either way (without the hooks a coroutine holding was the process' main flow
 * to rlock, and any other coroutine re-entered its keys). */
long rlock_swoole_coroutine(void)
{
	long cid;
	if (!rlock_swoole || (cid = rlock_swoole->get_id()) <= 0) {
		return 0;
	}
	return cid;
}

/* swoole.h's EventType: SW_EVENT_READ, SW_EVENT_WRITE */
#define SW_EVENT_READ_ (1u << 9)
#define SW_EVENT_WRITE_ (1u << 10)

/* One fd's wait for a read or a write, the coroutine resumed by the reactor's callback as
 * the fd gets ready: the fd wrapped as a coroutine socket of Swoole's at its first wait, and
 * kept so until its owner closes it (rlock_swoole_fd_closable()): a wrap per wait cost two
 * fcntl() and a socket object each time (the wrap found is ours: an fd of Swoole's table is
 * never closed without its unwrap, so an entry can only be this open fd's). Swoole makes the
 * fd non-blocking, as rlock's connections are already (conn.c). swoole_coroutine_poll()
 * resumes from a callback the reactor defers to the end of its round, after every other
 * ready fd's: a woken waiter, the next holder, started later. 1 ready (or in error: the read
 * or write that follows says); -1 not waited on this way (no coroutine), or the wait ended
 * without the fd ready: a timeout, a cancel (the caller looks again). */
static int socket_wait(struct pollfd *fd, zend_long ms)
{
	int event = fd->events == POLLIN ? SW_EVENT_READ_ : fd->events == POLLOUT ? SW_EVENT_WRITE_ : 0;
	if (!api.socket_create || event == 0 || (!api.socket_exists(fd->fd) && api.socket_create(fd->fd) != 0)) {
		return -1;
	}
	if (api.socket_wait(fd->fd, event, (double) ms / 1000) != 0) {
		return -1;
	}
	fd->revents = fd->events;
	return 1;
}

bool rlock_swoole_fd_closable(int fd)
{
	/* (Swoole unwraps inside a coroutine only: outside one, at a request's or the process'
	 * end, the entry stays, and Swoole's own close of it, when it frees its table, is the
	 * only one: a close here would leave the entry to close the fd's next owner) */
	return !api.socket_create || fd < 0 || !api.socket_exists(fd) || api.socket_unwrap(fd) == 0;
}

/* Swoole's poll() yields until an fd is ready or ms passed; it returns -1 for both a
 * timeout and a failure to watch an fd: what poll() would say is asked then, without
 * waiting, and the time left (a watch that failed) waited out the blocking way. One fd
 * waits through socket_wait() first. */
int rlock_swoole_poll(struct pollfd *fds, nfds_t n, zend_long ms)
{
	zend_long deadline = rlock_now_ms() + ms;
	int rc = -1;
	if (n == 1 && ms > 0 && (rc = socket_wait(fds, ms)) > 0) {
		return rc;
	}
	if (rc < 0 && n == 1 && ms > 0) {
		/* (a cancel, a timeout, or no wait: what is there, then the time left) */
		fds[0].revents = 0;
		if ((rc = poll(fds, 1, 0)) != 0) {
			return rc;
		}
		ms = MAX(deadline - rlock_now_ms(), 0);
	}
	rc = ms > 0 ? rlock_swoole->poll(fds, n, (int) MIN(ms, INT_MAX)) : -1;
	if (rc >= 0) {
		return rc;
	}
	for (nfds_t i = 0; i < n; i++) {
		fds[i].revents = 0;
	}
	do {
		rc = poll(fds, n, (int) MAX(MIN(deadline - rlock_now_ms(), INT_MAX), 0));
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
#else
void rlock_swoole_minit(void (*on_end)(void))
{
	(void) on_end;
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

bool rlock_swoole_fd_closable(int fd)
{
	(void) fd;
	return true;
}
#endif
