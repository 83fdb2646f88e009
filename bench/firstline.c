/* firstline [-t SECS] [-w MS] [-r MS] WORD CMD [ARG...]: run CMD with
 * its stdout on a pipe and print two times in milliseconds, "first
 * exit": from just before CMD is started to the first line of its
 * output holding WORD, and from the SIGINT sent -w milliseconds later
 * (default 0) to CMD's exit.  -r repeats the SIGINT every MS
 * milliseconds until CMD exits: bpftrace 0.17 now and then ignores a
 * SIGINT (here up to one in two soon after start) and runs on until
 * another signal comes; sonde takes a second SIGINT as "exit at once",
 * so it must get one only.  "-" for a time that never came: WORD never
 * printed within SECS seconds (default 120; CMD is then killed), or CMD
 * still running SECS seconds after the first SIGINT.  CMD's stderr is
 * left alone; its output goes nowhere else. */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Read what is on FD into BUF (holding *LEN bytes), waiting until
 * DEADLINE; 1 if WORD is now on a complete line (the rest dropped),
 * -1 at end of file or deadline, 0 otherwise. */
static int scan(int fd, char *buf, size_t size, size_t *len,
		const char *word, double deadline)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	double left = deadline - now_ms();
	ssize_t n;
	char *nl;

	if (left <= 0 || poll(&p, 1, (int)left + 1) <= 0)
		return -1;
	n = read(fd, buf + *len, size - 1 - *len);
	if (n <= 0)
		return -1;
	*len += (size_t)n;
	buf[*len] = 0;
	while ((nl = strchr(buf, '\n'))) {
		*nl = 0;
		if (strstr(buf, word))
			return 1;
		*len -= (size_t)(nl + 1 - buf);
		memmove(buf, nl + 1, *len + 1);
	}
	if (*len == size - 1)	/* a line longer than the buffer */
		*len = 0;
	return 0;
}

/* Read and drop CMD's output, so that it never blocks writing, until
 * it closes the pipe by exiting (0) or until time DEADLINE (-1). */
static int drain(int fd, char *buf, size_t size, double deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = deadline - now_ms();

		if (left <= 0 || poll(&p, 1, (int)left + 1) < 0)
			return -1;
		if (p.revents && read(fd, buf, size) <= 0)
			return 0;
	}
}

int main(int argc, char **argv)
{
	char buf[65536];
	size_t len = 0;
	double secs = 120, wait_ms = 0, repeat_ms = 0, t0, t1 = -1, ts = 0, t2 = -1;
	int fds[2], found = 0, status, argi = 1;
	pid_t pid;

	for (; argi + 1 < argc && argv[argi][0] == '-'; argi += 2) {
		if (!strcmp(argv[argi], "-t"))
			secs = atof(argv[argi + 1]);
		else if (!strcmp(argv[argi], "-w"))
			wait_ms = atof(argv[argi + 1]);
		else if (!strcmp(argv[argi], "-r"))
			repeat_ms = atof(argv[argi + 1]);
	}
	if (argc - argi < 2) {
		fprintf(stderr, "usage: firstline [-t SECS] [-w MS] [-r MS] WORD CMD [ARG...]\n");
		return 2;
	}
	if (pipe(fds))
		return 1;
	t0 = now_ms();
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		/* as from a terminal, even when started in the background */
		signal(SIGINT, SIG_DFL);
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[argi + 1], argv + argi + 1);
		_exit(127);
	}
	close(fds[1]);
	while (!found) {
		int r = scan(fds[0], buf, sizeof(buf), &len, argv[argi],
			     t0 + secs * 1e3);

		if (r < 0)
			break;
		found = r;
	}
	if (found) {
		t1 = now_ms();
		drain(fds[0], buf, sizeof(buf), t1 + wait_ms);
		kill(pid, SIGINT);
		ts = now_ms();
		for (double next = ts + repeat_ms;; next += repeat_ms) {
			double until = ts + secs * 1e3;

			if (repeat_ms > 0 && next < until)
				until = next;
			if (!drain(fds[0], buf, sizeof(buf), until)) {
				waitpid(pid, &status, 0);
				t2 = now_ms();
				break;
			}
			if (until >= ts + secs * 1e3)
				break;
			kill(pid, SIGINT);
		}
	}
	if (t2 < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	if (t1 < 0)
		printf("- -\n");
	else if (t2 < 0)
		printf("%.1f -\n", t1 - t0);
	else
		printf("%.1f %.1f\n", t1 - t0, t2 - ts);
	return 0;
}
