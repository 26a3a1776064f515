/* What every layer shares of the module, defined in the bottom one: the module globals
 * (RLOCK_G), this process' id, and the monotonic clock (php_rlock.h declares them). rlock.c
 * fills them in (GINIT, MINIT, the atfork handler). */

#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_rlock.h"

#include <time.h>

ZEND_DECLARE_MODULE_GLOBALS(rlock)

pid_t rlock_pid;

#if defined(ZTS) && defined(COMPILE_DL_RLOCK)
ZEND_TSRMLS_CACHE_DEFINE()
#endif

zend_long rlock_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (zend_long) ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

zend_long rlock_now_ms(void)
{
	return rlock_now_us() / 1000;
}
