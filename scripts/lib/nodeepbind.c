/* LD_PRELOADed with libasan for scripts/test.sh --asan: PHP loads extensions with
 * RTLD_DEEPBIND, which the sanitizer runtime refuses; this drops that flag from every
 * dlopen() of the process. Test tooling only, never part of the extension. */
#define _GNU_SOURCE
#include <dlfcn.h>

void *dlopen(const char *file, int mode)
{
	static void *(*real)(const char *, int);
	if (!real) {
		real = (void *(*)(const char *, int)) dlsym(RTLD_NEXT, "dlopen");
	}
	return real(file, mode & ~RTLD_DEEPBIND);
}
