/* wait.h - the start signal shared by the trigger programs.
 *
 * A trigger started with "wait" as its first argument blocks SIGUSR1 and
 * then sleeps in sigwaitinfo() until the test sends it, so that the test
 * can give the trigger's pid to the tracer, wait until the tracer's
 * probes are attached, and only then let the traced work begin: the
 * work a test counts happens entirely after attach, and the process's
 * start-up (the dynamic loader's openat and read calls) entirely before.
 * Once SIGUSR1 is blocked the trigger writes "waiting" to stderr:
 * tests/lib/trace.sh waits for that line before it sends the signal.
 */
#ifndef TESTS_PROGS_WAIT_H
#define TESTS_PROGS_WAIT_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void wait_block(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, NULL)) {
		perror("sigprocmask");
		exit(2);
	}
}

static void wait_go(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	while (sigwaitinfo(&set, NULL) != SIGUSR1)
		;
}

/* If argv[*i] is "wait", block until SIGUSR1 and step over it. */
static void wait_maybe(int argc, char **argv, int *i)
{
	if (*i < argc && !strcmp(argv[*i], "wait")) {
		wait_block();
		fputs("waiting\n", stderr);
		wait_go();
		(*i)++;
	}
}

/* A non-negative decimal argument, or exit 2. */
static __attribute__((unused)) long num_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 0) {
		fprintf(stderr, "not a count: '%s'\n", s);
		exit(2);
	}
	return v;
}

#endif
