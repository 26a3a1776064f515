/* Threads of one process serving PHP requests, as FrankenPHP runs a ZTS PHP: the embed SAPI
 * started once (php_embed_init), then THREADS pthreads, each with its own PHP context
 * (ts_resource), running REQUESTS requests one after another (php_request_startup, the
 * script, php_request_shutdown). Test tooling (scripts/test.sh --zts), never part of the
 * extension.
 *
 *   harness [-f] THREADS REQUESTS SCRIPT
 *
 * SCRIPT runs with $phase 'setup' in the main thread before the threads start, 'request'
 * in each request of each thread ($thread, $request, $threads and $requests tell which),
 * and 'check' in the main thread once every thread has ended. A request fails when it exits
 * with a status other than 0 (exit(1), an uncaught exception, a fatal error); the harness
 * exits 1 if any failed. A request that forked (pcntl_fork) ends in the child with the
 * child's exit status: the child runs no more requests.
 *
 * -f: while the threads serve, a thread of the process that never ran PHP forks too (as a
 * library's thread calling system() would): the child, which runs every pthread_atfork
 * handler, must exit 0.
 *
 * php.ini comes from PHPRC (the embed SAPI reads it as the CLI does): the extension and its
 * settings. */

#include <sapi/embed/php_embed.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int threads, requests;
static const char *script;
static pid_t harness_pid;
static int failures;  /* atomic */

/* One request of the current thread's PHP context: its exit status. */
static int run(const char *phase, int thread, int request)
{
	char code[4096];
	int status;

	snprintf(code, sizeof(code),
		"$phase = '%s'; $thread = %d; $request = %d; $threads = %d; $requests = %d; require '%s';",
		phase, thread, request, threads, requests, script);
	/* an uncaught exception is reported as the CLI reports it, exit status 255 */
	zend_first_try {
		zend_eval_string_ex(code, NULL, "harness", true);
	} zend_end_try();
	status = EG(exit_status);
	if (status != 0) {
		fprintf(stderr, "harness: %s of thread %d, request %d: exit status %d\n", phase, thread, request, status);
	}
	return status;
}

static void *serve(void *arg)
{
	int thread = (int) (intptr_t) arg;

	/* this thread's PHP context: every module's globals (GINIT) */
	(void) ts_resource(0);
	for (int r = 0; r < requests; r++) {
		if (php_request_startup() == FAILURE) {
			fprintf(stderr, "harness: thread %d: request startup failed\n", thread);
			__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
			break;
		}
		SG(headers_sent) = 1;
		SG(request_info).no_headers = 1;
		int status = run("request", thread, r);
		php_request_shutdown(NULL);
		if (getpid() != harness_pid) {
			/* a forked child: this thread is all it has; it ends here */
			fflush(stdout);
			_exit(status);
		}
		if (status != 0) {
			__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
		}
	}
	ts_free_thread();
	return NULL;
}

/* -f: a fork from a thread with no PHP context. */
static void *bare_fork(void *arg)
{
	int status;
	pid_t pid = fork();

	(void) arg;
	if (pid == 0) {
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "harness: the child of a fork from a thread with no PHP context: %s %d\n",
			pid < 0 ? "fork failed" : WIFSIGNALED(status) ? "signal" : "status",
			pid < 0 ? 0 : WIFSIGNALED(status) ? WTERMSIG(status) : status);
		__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t *tids, bare;
	int status;
	bool fork_bare = argc > 1 && strcmp(argv[1], "-f") == 0;

	argv += fork_bare;
	argc -= fork_bare;
	if (argc != 4 || (threads = atoi(argv[1])) < 1 || (requests = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: harness [-f] THREADS REQUESTS SCRIPT\n");
		return 2;
	}
	script = argv[3];
	harness_pid = getpid();
	if (php_embed_init(0, NULL) == FAILURE) {
		fprintf(stderr, "harness: php_embed_init failed\n");
		return 1;
	}
	/* the main thread keeps the request php_embed_init started: setup and check run in it */
	status = run("setup", -1, 0);
	if (status == 0) {
		tids = calloc(threads, sizeof(*tids));
		for (int t = 0; t < threads; t++) {
			if (pthread_create(&tids[t], NULL, serve, (void *) (intptr_t) t) != 0) {
				fprintf(stderr, "harness: pthread_create failed\n");
				return 1;
			}
		}
		if (fork_bare && pthread_create(&bare, NULL, bare_fork, NULL) == 0) {
			pthread_join(bare, NULL);
		}
		for (int t = 0; t < threads; t++) {
			pthread_join(tids[t], NULL);
		}
		free(tids);
		status = run("check", -1, 0);
	}
	php_embed_shutdown();
	if (status != 0 || failures > 0) {
		return 1;
	}
	printf("harness: %d threads x %d requests of %s: ok\n", threads, requests, script);
	return 0;
}
