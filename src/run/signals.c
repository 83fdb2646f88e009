/* signals.c - the signals sonde answers, under the rest of run/:
 * SIGINT and SIGTERM end the run (END, the maps) and a second one
 * exits at once; SIGUSR1 runs the script's self:signal:SIGUSR1 probes
 * (and, with --dialect=0.17, prints every map, as bpftrace 0.17 did),
 * and the run goes on.  The flags the handlers set are the program's
 * only globals. */
#include "run/tracer.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal, print_request;

static void on_stop(int sig)
{
	if (stop_signal) {
		/* A second Ctrl-C: leave now.  Probes go with our fds. */
		_exit(128 + sig);
	}
	stop_signal = sig;
}

static void on_usr1(int sig)
{
	(void)sig;
	print_request = 1;
}

/* No SA_RESTART: a signal interrupts the event loop's wait (and
 * system()'s), which then looks at the flags. */
void rt_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
}

bool rt_print_requested(void)
{
	return print_request;
}

bool rt_take_print_request(void)
{
	if (!print_request)
		return false;
	print_request = 0;
	return true;
}

int rt_stop_signal(void)
{
	return stop_signal;
}

/* A child of sonde (-c's command, system()'s shell) starts with the
 * default actions and the mask sonde started with, whatever sonde's
 * handlers and mask are when it forks. */
void rt_child_signals(const sigset_t *mask)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGUSR1, SIG_DFL);
	if (mask)
		sigprocmask(SIG_SETMASK, mask, NULL);
}
