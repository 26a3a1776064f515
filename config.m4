dnl config.m4 for extension rlock

PHP_ARG_ENABLE([rlock],
  [whether to enable rlock support],
  [AS_HELP_STRING([--enable-rlock], [Enable rlock, a distributed lock on Redis])],
  [no])

PHP_ARG_WITH([hiredis],
  [for hiredis],
  [AS_HELP_STRING([[--with-hiredis[=DIR]]], [rlock: hiredis installation prefix (default: pkg-config)])],
  [yes],
  [no])

if test "$PHP_RLOCK" != "no"; then
  if test "$PHP_HIREDIS" = "yes" || test -z "$PHP_HIREDIS"; then
    PKG_CHECK_MODULES([HIREDIS], [hiredis >= 0.13])
    PHP_EVAL_INCLINE($HIREDIS_CFLAGS)
    PHP_EVAL_LIBLINE($HIREDIS_LIBS, RLOCK_SHARED_LIBADD)
  else
    AC_MSG_CHECKING([for hiredis in $PHP_HIREDIS])
    if test -r "$PHP_HIREDIS/include/hiredis/hiredis.h"; then
      AC_MSG_RESULT([found])
    else
      AC_MSG_RESULT([not found])
      AC_MSG_ERROR([hiredis/hiredis.h not found under $PHP_HIREDIS/include])
    fi
    PHP_ADD_INCLUDE($PHP_HIREDIS/include)
    PHP_ADD_LIBRARY_WITH_PATH(hiredis, $PHP_HIREDIS/$PHP_LIBDIR, RLOCK_SHARED_LIBADD)
  fi

  dnl TLS (rediss://): hiredis_ssl (hiredis 1.x) and the OpenSSL it is built on. Without
  dnl them rlock builds without TLS and refuses a rediss:// DSN.
  AC_MSG_CHECKING([for hiredis_ssl (TLS for rediss:// DSNs)])
  RLOCK_TLS=no
  if test "$PHP_HIREDIS" = "yes" || test -z "$PHP_HIREDIS"; then
    if $PKG_CONFIG --exists hiredis_ssl openssl; then
      RLOCK_TLS=yes
      PHP_EVAL_INCLINE(`$PKG_CONFIG --cflags hiredis_ssl openssl`)
      PHP_EVAL_LIBLINE(`$PKG_CONFIG --libs hiredis_ssl openssl`, RLOCK_SHARED_LIBADD)
    fi
  elif test -r "$PHP_HIREDIS/include/hiredis/hiredis_ssl.h"; then
    RLOCK_TLS=yes
    PHP_ADD_LIBRARY_WITH_PATH(hiredis_ssl, $PHP_HIREDIS/$PHP_LIBDIR, RLOCK_SHARED_LIBADD)
    if $PKG_CONFIG --exists openssl; then
      PHP_EVAL_INCLINE(`$PKG_CONFIG --cflags openssl`)
      PHP_EVAL_LIBLINE(`$PKG_CONFIG --libs openssl`, RLOCK_SHARED_LIBADD)
    else
      PHP_ADD_LIBRARY(ssl,, RLOCK_SHARED_LIBADD)
      PHP_ADD_LIBRARY(crypto,, RLOCK_SHARED_LIBADD)
    fi
  fi
  AC_MSG_RESULT([$RLOCK_TLS])
  if test "$RLOCK_TLS" = "yes"; then
    AC_DEFINE(RLOCK_HAVE_TLS, 1, [rediss:// DSNs: built with hiredis_ssl])
  fi

  dnl the watchdog's thread (src/state/watchdog.c)
  AC_CHECK_LIB([pthread], [pthread_create], [PHP_ADD_LIBRARY(pthread,, RLOCK_SHARED_LIBADD)])

  PHP_SUBST(RLOCK_SHARED_LIBADD)
  dnl the module entry, then src/ layer by layer, top down (docs/design.md draws them)
  PHP_NEW_EXTENSION(rlock, rlock.c \
    src/php/class_rlock.c src/php/class_rreadwritelock.c src/php/class_rsemaphore.c src/php/class_rratelimiter.c src/php/shared.c \
    src/state/registry.c src/state/context.c src/state/watchdog.c src/state/lost.c \
    src/primitives/lock.c src/primitives/redlock.c src/primitives/multi.c src/primitives/rwlock.c src/primitives/semaphore.c src/primitives/ratelimit.c src/primitives/scripts.c \
    src/transport/conn.c src/transport/route.c \
    src/runtime/swoole.c \
    src/stats/stats.c \
    src/core/options.c src/core/errors.c src/core/globals.c,
    $ext_shared,, -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1)
  dnl src/primitives/lua.h from the Lua scripts, when one changed (Makefile.frag)
  PHP_ADD_MAKEFILE_FRAGMENT
  PHP_ADD_BUILD_DIR($ext_builddir/src/php)
  PHP_ADD_BUILD_DIR($ext_builddir/src/state)
  PHP_ADD_BUILD_DIR($ext_builddir/src/primitives)
  PHP_ADD_BUILD_DIR($ext_builddir/src/transport)
  PHP_ADD_BUILD_DIR($ext_builddir/src/runtime)
  PHP_ADD_BUILD_DIR($ext_builddir/src/stats)
  PHP_ADD_BUILD_DIR($ext_builddir/src/core)
fi
