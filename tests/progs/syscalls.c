/* syscalls.c - a trigger for the syscall and sched tracepoint tests.
 *
 * usage: syscalls [wait] ACTION...
 *   wait            block until SIGUSR1 first (see wait.h)
 *   getppid N       N getppid() system calls (also getpid, getpgrp,
 *                   getpgid: getpgid(0))
 *   pgids N         getpgid(100000000 + k) for k = 0..N-1: N distinct
 *                   values of args->pid (no such process: ESRCH)
 *   open PATH       openat(AT_FDCWD, PATH, O_RDONLY), then close it
 *   oldopen PATH    open(PATH, O_RDONLY) (the open system call, where
 *                   the architecture has one), then close it
 *   read N SIZE     N reads of SIZE bytes from /dev/zero
 *   write N SIZE    N writes of SIZE bytes to /dev/null
 *   sleep N US      N sleeps of US microseconds (N context switches)
 *   sendmsg N SIZE  N sendmsg() calls of one SIZE-byte iovec on a local
 *                   datagram socket pair (each read back with recv)
 *   fork N          N times: fork a child that exits at once, wait for it
 *   nr N            fork a child that makes system call number N with
 *                   arguments -1, 0, 0, 0, 0, 0 and exits; wait for it
 *                   (whatever the call does to the child)
 *   exec PATH ARG.. execv(PATH, {PATH, ARG...}); the rest is its argv
 *   connect ADDR PORT  a UDP socket connected to ADDR (IPv4 or IPv6
 *                   text), PORT, then closed: socket, connect, close
 *                   (a UDP connect sends nothing; no server needed)
 *   tcp PORT        a TCP connection on 127.0.0.1: listen on PORT,
 *                   connect, accept, close both ends and the listener
 * Actions run in order.  /dev/zero and /dev/null are opened before
 * "wait", so that a traced run opens only the PATHs it was given.  Each
 * action is exactly the system calls it names (no stdio, no libc
 * caching): the tests count them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wait.h"

static char buf[1 << 20];

/* connect ADDR PORT: see the top. */
static int udp_connect(const char *addr, long port)
{
	struct sockaddr_in v4 = { .sin_family = AF_INET };
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6 };
	struct sockaddr *sa = (struct sockaddr *)&v4;
	socklen_t len = sizeof(v4);
	int fd;

	v4.sin_port = htons((uint16_t)port);
	v6.sin6_port = htons((uint16_t)port);
	if (inet_pton(AF_INET6, addr, &v6.sin6_addr) == 1) {
		sa = (struct sockaddr *)&v6;
		len = sizeof(v6);
	} else if (inet_pton(AF_INET, addr, &v4.sin_addr) != 1) {
		fprintf(stderr, "%s: not an IPv4 or IPv6 address\n", addr);
		return 2;
	}
	fd = socket(sa->sa_family, SOCK_DGRAM, 0);
	if (fd < 0 || connect(fd, sa, len) < 0) {
		perror(addr);
		return 1;
	}
	close(fd);
	return 0;
}

static int tcp_loop(long port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int one = 1, l, c, a;

	sa.sin_port = htons((uint16_t)port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one,
				sizeof(one)) < 0 ||
	    bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(l, 1) < 0) {
		perror("listen");
		return 1;
	}
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (a = accept(l, NULL, NULL)) < 0) {
		perror("connect");
		return 1;
	}
	close(c);
	close(a);
	close(l);
	return 0;
}

static void need(int argc, int i, int n, const char *what)
{
	if (i + n >= argc) {
		fprintf(stderr, "%s needs %d argument%s\n", what, n,
			n == 1 ? "" : "s");
		exit(2);
	}
}

static void size_ok(long size)
{
	if (size > (long)sizeof(buf)) {
		fprintf(stderr, "size %ld is over %zu\n", size, sizeof(buf));
		exit(2);
	}
}

int main(int argc, char **argv)
{
	int zero = open("/dev/zero", O_RDONLY);
	int null = open("/dev/null", O_WRONLY);
	int i = 1;

	if (zero < 0 || null < 0) {
		perror("/dev/zero or /dev/null");
		return 2;
	}
	wait_maybe(argc, argv, &i);
	while (i < argc) {
		const char *a = argv[i];
		long n, size;

		if (!strcmp(a, "getppid") || !strcmp(a, "getpid") ||
		    !strcmp(a, "getpgrp") || !strcmp(a, "getpgid")) {
			long nr = !strcmp(a, "getppid") ? SYS_getppid :
				  !strcmp(a, "getpid") ? SYS_getpid :
				  !strcmp(a, "getpgrp") ? SYS_getpgrp : SYS_getpgid;

			need(argc, i, 1, a);
			n = num_arg(argv[i + 1]);
			for (long k = 0; k < n; k++)
				syscall(nr, 0);
			i += 2;
		} else if (!strcmp(a, "pgids")) {
			need(argc, i, 1, a);
			n = num_arg(argv[i + 1]);
			for (long k = 0; k < n; k++)
				syscall(SYS_getpgid, 100000000L + k);
			i += 2;
		} else if (!strcmp(a, "open") || !strcmp(a, "oldopen")) {
			int fd;

			need(argc, i, 1, a);
			if (!strcmp(a, "oldopen")) {
#ifdef SYS_open
				fd = (int)syscall(SYS_open, argv[i + 1], O_RDONLY);
#else
				fprintf(stderr, "no open system call here\n");
				return 2;
#endif
			} else {
				fd = (int)syscall(SYS_openat, AT_FDCWD, argv[i + 1],
						  O_RDONLY);
			}
			if (fd < 0) {
				perror(argv[i + 1]);
				return 1;
			}
			close(fd);
			i += 2;
		} else if (!strcmp(a, "read") || !strcmp(a, "write")) {
			bool rd = a[0] == 'r';

			need(argc, i, 2, a);
			n = num_arg(argv[i + 1]);
			size = num_arg(argv[i + 2]);
			size_ok(size);
			for (long k = 0; k < n; k++) {
				ssize_t r = rd ? read(zero, buf, (size_t)size) :
						 write(null, buf, (size_t)size);

				if (r != size) {
					perror(a);
					return 1;
				}
			}
			i += 3;
		} else if (!strcmp(a, "sendmsg")) {
			int sv[2];

			need(argc, i, 2, a);
			n = num_arg(argv[i + 1]);
			size = num_arg(argv[i + 2]);
			size_ok(size);
			if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv)) {
				perror("socketpair");
				return 1;
			}
			for (long k = 0; k < n; k++) {
				struct iovec iov = { buf, (size_t)size };
				struct msghdr msg = { .msg_iov = &iov,
						      .msg_iovlen = 1 };

				if (sendmsg(sv[0], &msg, 0) != size ||
				    recv(sv[1], buf, sizeof(buf), 0) != size) {
					perror(a);
					return 1;
				}
			}
			close(sv[0]);
			close(sv[1]);
			i += 3;
		} else if (!strcmp(a, "sleep")) {
			need(argc, i, 2, a);
			n = num_arg(argv[i + 1]);
			size = num_arg(argv[i + 2]);
			for (long k = 0; k < n; k++) {
				struct timespec ts = {
					.tv_sec = size / 1000000,
					.tv_nsec = size % 1000000 * 1000,
				};

				while (nanosleep(&ts, &ts) && errno == EINTR)
					;
			}
			i += 3;
		} else if (!strcmp(a, "fork")) {
			need(argc, i, 1, a);
			n = num_arg(argv[i + 1]);
			for (long k = 0; k < n; k++) {
				pid_t child = fork();
				int st;

				if (child < 0) {
					perror("fork");
					return 1;
				}
				if (child == 0)
					_exit(0);
				if (waitpid(child, &st, 0) != child || st != 0) {
					perror("waitpid");
					return 1;
				}
			}
			i += 2;
		} else if (!strcmp(a, "nr")) {
			pid_t child;

			need(argc, i, 1, a);
			n = num_arg(argv[i + 1]);
			child = fork();
			if (child < 0) {
				perror("fork");
				return 1;
			}
			if (child == 0) {
				syscall(n, -1L, 0L, 0L, 0L, 0L, 0L);
				_exit(0);
			}
			waitpid(child, NULL, 0);
			i += 2;
		} else if (!strcmp(a, "connect")) {
			int rc;

			need(argc, i, 2, a);
			rc = udp_connect(argv[i + 1], num_arg(argv[i + 2]));
			if (rc)
				return rc;
			i += 3;
		} else if (!strcmp(a, "tcp")) {
			int rc;

			need(argc, i, 1, a);
			rc = tcp_loop(num_arg(argv[i + 1]));
			if (rc)
				return rc;
			i += 2;
		} else if (!strcmp(a, "exec")) {
			need(argc, i, 1, a);
			execv(argv[i + 1], argv + i + 1);
			perror(argv[i + 1]);
			return 1;
		} else {
			fprintf(stderr, "unknown action '%s'\n", a);
			return 2;
		}
	}
	return 0;
}
