/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 5fc473845ea79a0af50eecb090cf0116b99e84f8 */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_rlock_status, 0, 0, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, keys, _IS_BOOL, 0, "true")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pool, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_rlock_metrics, 0, 0, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, pool, IS_STRING, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_rlock_status_reset, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_lock, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_tryLock, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_LockInterface_unlock arginfo_class_RLock_LockInterface_tryLock

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_extend, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttlMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_restore, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, token, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_LockInterface_forceUnlock arginfo_class_RLock_LockInterface_tryLock

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_synchronized, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_LockInterface_isLocked arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_LockInterface_isAcquired arginfo_class_RLock_LockInterface_tryLock

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_ttl, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_token, 0, 0, IS_STRING, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_fencingToken, 0, 0, IS_LONG, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_key, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_LockInterface_lost arginfo_class_RLock_LockInterface_tryLock

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_LockInterface_onLost, 0, 1, IS_STATIC, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 1)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_SemaphoreInterface_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, permits, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_SemaphoreInterface_tryAcquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, permits, IS_LONG, 0, "1")
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_SemaphoreInterface_release arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_SemaphoreInterface_extend arginfo_class_RLock_LockInterface_extend

#define arginfo_class_RLock_SemaphoreInterface_held arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RLock_SemaphoreInterface_isAcquired arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_SemaphoreInterface_available arginfo_class_RLock_LockInterface_ttl

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_SemaphoreInterface_synchronized, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, fn, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, permits, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_SemaphoreInterface_onLost arginfo_class_RLock_LockInterface_onLost

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_RateLimiterInterface_tryAcquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, n, IS_LONG, 0, "1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_RateLimiterInterface_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, n, IS_LONG, 0, "1")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, waitMs, IS_LONG, 1, "null")
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_RateLimiterInterface_retryAfter arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RLock_RateLimiterInterface_remaining arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RLock_RateLimiterInterface_reset arginfo_rlock_status_reset

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_RLock_ReadWriteLockInterface_readLock, 0, 0, RLock\\LockInterface, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_ReadWriteLockInterface_writeLock arginfo_class_RLock_ReadWriteLockInterface_readLock

#define arginfo_class_RLock_ReadWriteLockInterface_onLost arginfo_class_RLock_LockInterface_onLost

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_lock arginfo_class_RLock_LockInterface_lock

#define arginfo_class_RLock_tryLock arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_unlock arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_extend arginfo_class_RLock_LockInterface_extend

#define arginfo_class_RLock_restore arginfo_class_RLock_LockInterface_restore

#define arginfo_class_RLock_forceUnlock arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_synchronized arginfo_class_RLock_LockInterface_synchronized

#define arginfo_class_RLock_isLocked arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_isAcquired arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_ttl arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RLock_token arginfo_class_RLock_LockInterface_token

#define arginfo_class_RLock_fencingToken arginfo_class_RLock_LockInterface_fencingToken

#define arginfo_class_RLock_key arginfo_class_RLock_LockInterface_key

#define arginfo_class_RLock_lost arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RLock_onLost arginfo_class_RLock_LockInterface_onLost

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLock_release, 0, 2, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, token, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_RLock_releaseAll arginfo_class_RLock_LockInterface_ttl

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_RLock_multi, 0, 1, RLock, 0)
	ZEND_ARG_TYPE_INFO(0, keys, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RSemaphore___construct, 0, 0, 2)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, permits, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_RSemaphore_acquire arginfo_class_RLock_SemaphoreInterface_acquire

#define arginfo_class_RSemaphore_tryAcquire arginfo_class_RLock_SemaphoreInterface_tryAcquire

#define arginfo_class_RSemaphore_release arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RSemaphore_extend arginfo_class_RLock_LockInterface_extend

#define arginfo_class_RSemaphore_held arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RSemaphore_isAcquired arginfo_class_RLock_LockInterface_tryLock

#define arginfo_class_RSemaphore_available arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RSemaphore_synchronized arginfo_class_RLock_SemaphoreInterface_synchronized

#define arginfo_class_RSemaphore_onLost arginfo_class_RLock_LockInterface_onLost

#define arginfo_class_RReadWriteLock___construct arginfo_class_RLock___construct

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_RReadWriteLock_readLock, 0, 0, RLock, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_RReadWriteLock_writeLock arginfo_class_RReadWriteLock_readLock

#define arginfo_class_RReadWriteLock_onLost arginfo_class_RLock_LockInterface_onLost

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_RRateLimiter___construct, 0, 0, 3)
	ZEND_ARG_TYPE_INFO(0, name, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, limit, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, periodMs, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_RRateLimiter_tryAcquire arginfo_class_RLock_RateLimiterInterface_tryAcquire

#define arginfo_class_RRateLimiter_acquire arginfo_class_RLock_RateLimiterInterface_acquire

#define arginfo_class_RRateLimiter_retryAfter arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RRateLimiter_remaining arginfo_class_RLock_LockInterface_ttl

#define arginfo_class_RRateLimiter_reset arginfo_rlock_status_reset

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RRateLimiter_all, 0, 1, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, limiters, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, n, IS_LONG, 0, "1")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_RLockLostException_getResult, 0, 0, IS_MIXED, 0)
ZEND_END_ARG_INFO()


ZEND_FUNCTION(rlock_status);
ZEND_FUNCTION(rlock_metrics);
ZEND_FUNCTION(rlock_status_reset);
ZEND_METHOD(RLock, __construct);
ZEND_METHOD(RLock, lock);
ZEND_METHOD(RLock, tryLock);
ZEND_METHOD(RLock, unlock);
ZEND_METHOD(RLock, extend);
ZEND_METHOD(RLock, restore);
ZEND_METHOD(RLock, forceUnlock);
ZEND_METHOD(RLock, synchronized);
ZEND_METHOD(RLock, isLocked);
ZEND_METHOD(RLock, isAcquired);
ZEND_METHOD(RLock, ttl);
ZEND_METHOD(RLock, token);
ZEND_METHOD(RLock, fencingToken);
ZEND_METHOD(RLock, key);
ZEND_METHOD(RLock, lost);
ZEND_METHOD(RLock, onLost);
ZEND_METHOD(RLock, release);
ZEND_METHOD(RLock, releaseAll);
ZEND_METHOD(RLock, multi);
ZEND_METHOD(RSemaphore, __construct);
ZEND_METHOD(RSemaphore, acquire);
ZEND_METHOD(RSemaphore, tryAcquire);
ZEND_METHOD(RSemaphore, release);
ZEND_METHOD(RSemaphore, extend);
ZEND_METHOD(RSemaphore, held);
ZEND_METHOD(RSemaphore, isAcquired);
ZEND_METHOD(RSemaphore, available);
ZEND_METHOD(RSemaphore, synchronized);
ZEND_METHOD(RSemaphore, onLost);
ZEND_METHOD(RReadWriteLock, __construct);
ZEND_METHOD(RReadWriteLock, readLock);
ZEND_METHOD(RReadWriteLock, writeLock);
ZEND_METHOD(RReadWriteLock, onLost);
ZEND_METHOD(RRateLimiter, __construct);
ZEND_METHOD(RRateLimiter, tryAcquire);
ZEND_METHOD(RRateLimiter, acquire);
ZEND_METHOD(RRateLimiter, retryAfter);
ZEND_METHOD(RRateLimiter, remaining);
ZEND_METHOD(RRateLimiter, reset);
ZEND_METHOD(RRateLimiter, all);
ZEND_METHOD(RLockLostException, getResult);


static const zend_function_entry ext_functions[] = {
	ZEND_FE(rlock_status, arginfo_rlock_status)
	ZEND_FE(rlock_metrics, arginfo_rlock_metrics)
	ZEND_FE(rlock_status_reset, arginfo_rlock_status_reset)
	ZEND_FE_END
};


static const zend_function_entry class_RLock_LockInterface_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, lock, arginfo_class_RLock_LockInterface_lock, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, tryLock, arginfo_class_RLock_LockInterface_tryLock, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, unlock, arginfo_class_RLock_LockInterface_unlock, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, extend, arginfo_class_RLock_LockInterface_extend, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, restore, arginfo_class_RLock_LockInterface_restore, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, forceUnlock, arginfo_class_RLock_LockInterface_forceUnlock, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, synchronized, arginfo_class_RLock_LockInterface_synchronized, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, isLocked, arginfo_class_RLock_LockInterface_isLocked, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, isAcquired, arginfo_class_RLock_LockInterface_isAcquired, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, ttl, arginfo_class_RLock_LockInterface_ttl, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, token, arginfo_class_RLock_LockInterface_token, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, fencingToken, arginfo_class_RLock_LockInterface_fencingToken, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, key, arginfo_class_RLock_LockInterface_key, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, lost, arginfo_class_RLock_LockInterface_lost, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_LockInterface, onLost, arginfo_class_RLock_LockInterface_onLost, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_RLock_SemaphoreInterface_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, acquire, arginfo_class_RLock_SemaphoreInterface_acquire, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, tryAcquire, arginfo_class_RLock_SemaphoreInterface_tryAcquire, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, release, arginfo_class_RLock_SemaphoreInterface_release, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, extend, arginfo_class_RLock_SemaphoreInterface_extend, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, held, arginfo_class_RLock_SemaphoreInterface_held, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, isAcquired, arginfo_class_RLock_SemaphoreInterface_isAcquired, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, available, arginfo_class_RLock_SemaphoreInterface_available, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, synchronized, arginfo_class_RLock_SemaphoreInterface_synchronized, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_SemaphoreInterface, onLost, arginfo_class_RLock_SemaphoreInterface_onLost, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_RLock_RateLimiterInterface_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_RateLimiterInterface, tryAcquire, arginfo_class_RLock_RateLimiterInterface_tryAcquire, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_RateLimiterInterface, acquire, arginfo_class_RLock_RateLimiterInterface_acquire, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_RateLimiterInterface, retryAfter, arginfo_class_RLock_RateLimiterInterface_retryAfter, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_RateLimiterInterface, remaining, arginfo_class_RLock_RateLimiterInterface_remaining, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_RateLimiterInterface, reset, arginfo_class_RLock_RateLimiterInterface_reset, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_RLock_ReadWriteLockInterface_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_ReadWriteLockInterface, readLock, arginfo_class_RLock_ReadWriteLockInterface_readLock, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_ReadWriteLockInterface, writeLock, arginfo_class_RLock_ReadWriteLockInterface_writeLock, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(RLock_ReadWriteLockInterface, onLost, arginfo_class_RLock_ReadWriteLockInterface_onLost, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_RLock_methods[] = {
	ZEND_ME(RLock, __construct, arginfo_class_RLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, lock, arginfo_class_RLock_lock, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, tryLock, arginfo_class_RLock_tryLock, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, unlock, arginfo_class_RLock_unlock, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, extend, arginfo_class_RLock_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, restore, arginfo_class_RLock_restore, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, forceUnlock, arginfo_class_RLock_forceUnlock, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, synchronized, arginfo_class_RLock_synchronized, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, isLocked, arginfo_class_RLock_isLocked, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, isAcquired, arginfo_class_RLock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, ttl, arginfo_class_RLock_ttl, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, token, arginfo_class_RLock_token, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, fencingToken, arginfo_class_RLock_fencingToken, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, key, arginfo_class_RLock_key, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, lost, arginfo_class_RLock_lost, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, onLost, arginfo_class_RLock_onLost, ZEND_ACC_PUBLIC)
	ZEND_ME(RLock, release, arginfo_class_RLock_release, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RLock, releaseAll, arginfo_class_RLock_releaseAll, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(RLock, multi, arginfo_class_RLock_multi, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_RSemaphore_methods[] = {
	ZEND_ME(RSemaphore, __construct, arginfo_class_RSemaphore___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, acquire, arginfo_class_RSemaphore_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, tryAcquire, arginfo_class_RSemaphore_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, release, arginfo_class_RSemaphore_release, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, extend, arginfo_class_RSemaphore_extend, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, held, arginfo_class_RSemaphore_held, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, isAcquired, arginfo_class_RSemaphore_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, available, arginfo_class_RSemaphore_available, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, synchronized, arginfo_class_RSemaphore_synchronized, ZEND_ACC_PUBLIC)
	ZEND_ME(RSemaphore, onLost, arginfo_class_RSemaphore_onLost, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_RReadWriteLock_methods[] = {
	ZEND_ME(RReadWriteLock, __construct, arginfo_class_RReadWriteLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RReadWriteLock, readLock, arginfo_class_RReadWriteLock_readLock, ZEND_ACC_PUBLIC)
	ZEND_ME(RReadWriteLock, writeLock, arginfo_class_RReadWriteLock_writeLock, ZEND_ACC_PUBLIC)
	ZEND_ME(RReadWriteLock, onLost, arginfo_class_RReadWriteLock_onLost, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};


static const zend_function_entry class_RRateLimiter_methods[] = {
	ZEND_ME(RRateLimiter, __construct, arginfo_class_RRateLimiter___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(RRateLimiter, tryAcquire, arginfo_class_RRateLimiter_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_ME(RRateLimiter, acquire, arginfo_class_RRateLimiter_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(RRateLimiter, retryAfter, arginfo_class_RRateLimiter_retryAfter, ZEND_ACC_PUBLIC)
	ZEND_ME(RRateLimiter, remaining, arginfo_class_RRateLimiter_remaining, ZEND_ACC_PUBLIC)
	ZEND_ME(RRateLimiter, reset, arginfo_class_RRateLimiter_reset, ZEND_ACC_PUBLIC)
	ZEND_ME(RRateLimiter, all, arginfo_class_RRateLimiter_all, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_RLockException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RLockConnectionException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RLockTimeoutException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_RLockLostException_methods[] = {
	ZEND_ME(RLockLostException, getResult, arginfo_class_RLockLostException_getResult, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static zend_class_entry *register_class_RLock_LockInterface(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RLock", "LockInterface", class_RLock_LockInterface_methods);
	class_entry = zend_register_internal_interface(&ce);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "restore", sizeof("restore") - 1), 0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_RLock_SemaphoreInterface(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RLock", "SemaphoreInterface", class_RLock_SemaphoreInterface_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_RLock_RateLimiterInterface(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RLock", "RateLimiterInterface", class_RLock_RateLimiterInterface_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_RLock_ReadWriteLockInterface(void)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "RLock", "ReadWriteLockInterface", class_RLock_ReadWriteLockInterface_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_RLock(zend_class_entry *class_entry_RLock_LockInterface)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RLock", class_RLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_RLock_LockInterface);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "restore", sizeof("restore") - 1), 0, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "release", sizeof("release") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "release", sizeof("release") - 1), 2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "multi", sizeof("multi") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_RSemaphore(zend_class_entry *class_entry_RLock_SemaphoreInterface)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RSemaphore", class_RSemaphore_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_RLock_SemaphoreInterface);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_RReadWriteLock(zend_class_entry *class_entry_RLock_ReadWriteLockInterface)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RReadWriteLock", class_RReadWriteLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_RLock_ReadWriteLockInterface);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_RRateLimiter(zend_class_entry *class_entry_RLock_RateLimiterInterface)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RRateLimiter", class_RRateLimiter_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_RLock_RateLimiterInterface);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 3, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_RLockException(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RLockException", class_RLockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}

static zend_class_entry *register_class_RLockConnectionException(zend_class_entry *class_entry_RLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RLockConnectionException", class_RLockConnectionException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RLockException);

	return class_entry;
}

static zend_class_entry *register_class_RLockTimeoutException(zend_class_entry *class_entry_RLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RLockTimeoutException", class_RLockTimeoutException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RLockException);

	return class_entry;
}

static zend_class_entry *register_class_RLockLostException(zend_class_entry *class_entry_RLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "RLockLostException", class_RLockLostException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RLockException);

	zval property_result_default_value;
	ZVAL_NULL(&property_result_default_value);
	zend_string *property_result_name = zend_string_init("result", sizeof("result") - 1, 1);
	zend_declare_typed_property(class_entry, property_result_name, &property_result_default_value, ZEND_ACC_PRIVATE, NULL, (zend_type) ZEND_TYPE_INIT_MASK(MAY_BE_ANY));
	zend_string_release(property_result_name);

	return class_entry;
}
