#ifndef RLOCK_SWOOLE_H
#define RLOCK_SWOOLE_H

/* Swoole's coroutines, found at run time: rlock does not link to Swoole, it looks up the C
 * functions Swoole exports (swoole_coroutine_api.h) once its extension is loaded. Inside a
 * coroutine, Swoole's hooks on or off (they replace PHP's stream transports; rlock's sockets
 * are not streams), a hold is the coroutine's (context.c) and every wait of rlock's yields
 * the coroutine (conn.c); outside one nothing changes. */

#include "php.h"
#include <poll.h>

struct addrinfo;

typedef struct {
	long (*get_id)(void);                               /* swoole_coroutine_get_id */
	int (*poll)(struct pollfd *fds, nfds_t n, int ms);  /* swoole_coroutine_poll */
	void (*usleep)(int us);                             /* swoole_coroutine_usleep */
	/* swoole_coroutine_getaddrinfo: resolves in Swoole's thread pool, yielding; may be NULL */
	int (*getaddrinfo)(const char *name, const char *service, const struct addrinfo *req, struct addrinfo **res);
	/* swoole_coroutine_socket_{exists,create,wait_event,unwrap}: one fd's wait resumed by
	 * the reactor's callback itself (swoole.c); may be NULL */
	uint8_t (*socket_exists)(int fd);
	int (*socket_create)(int fd);
	int (*socket_wait)(int fd, int event, double timeout);
	int (*socket_unwrap)(int fd);
} rlock_swoole_api;

/* Swoole's functions, or NULL without Swoole (set at MINIT: every extension is loaded). */
extern const rlock_swoole_api *rlock_swoole;

/* MINIT: on_end runs as every coroutine ends (returned, thrown, cancelled), after all of
 * the coroutine's Swoole\Coroutine::defer() callbacks, the coroutine still the running one
 * (Swoole's ON_CORO_STOP hook). */
void rlock_swoole_minit(void (*on_end)(void));

/* The running coroutine's id (> 0) when rlock runs inside one, else 0. */
long rlock_swoole_coroutine(void);

/* poll() and a sleep that yield the running coroutine (of rlock_swoole_coroutine()). */
int rlock_swoole_poll(struct pollfd *fds, nfds_t n, zend_long ms);
void rlock_swoole_sleep_us(zend_long us);

/* Whether fd's owner may close it now: its wrap as a socket of Swoole's (kept from its first
 * wait, swoole.c), if any, undone. false: Swoole's table keeps the fd, and Swoole closes it
 * (outside a coroutine Swoole keeps its entries): its owner must not. */
bool rlock_swoole_fd_closable(int fd);

/* host's address as text into buf (the running coroutine yields while it is resolved): buf,
 * or NULL when it could not be resolved that way (hiredis then resolves it, and says why it
 * cannot). */
const char *rlock_swoole_resolve(const char *host, char *buf, size_t size);

#endif
