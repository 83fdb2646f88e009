/* client.c - the user's end of sonde serve (serve.h, proto.h): a
 * command line that cannot run here for want of privileges goes to the
 * service, with the working directory, the environment sonde reads and
 * this process's standard input, output and error; the service writes
 * the output there itself, so it is the same as a run as root.  Ctrl-C
 * is sent as 'I'; the service's 'X' is this process's exit status. */
#include "serve.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "proto.h"

extern char **environ;

static volatile sig_atomic_t interrupts;

static void on_interrupt(int sig)
{
	(void)sig;
	interrupts++;
}

static int send_frame(int fd, int type, const void *p, size_t len,
		      const int *fds, int nfds)
{
	uint8_t h[PROTO_HEADER];
	struct iovec iov[2] = { { h, sizeof(h) }, { (void *)p, len } };
	union {
		struct cmsghdr c;
		char b[CMSG_SPACE(sizeof(int) * 3)];
	} ctl;
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };

	if (len > PROTO_MAX_FRAME)
		return -1;
	proto_put_header(h, type, (uint32_t)len);
	if (nfds) {
		struct cmsghdr *c;

		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.b;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
	}
	return sendmsg(fd, &m, MSG_NOSIGNAL) == (ssize_t)(sizeof(h) + len) ?
	       0 : -1;
}

static int send_request(int fd, int argc, char **argv)
{
	static const int std[3] = { 0, 1, 2 };
	uint8_t v[4] = { PROTO_VERSION, 0, 0, 0 };
	char cwd[PATH_MAX];

	if (!getcwd(cwd, sizeof(cwd)))
		return -1;
	if (send_frame(fd, PROTO_T_VERSION, v, 4, NULL, 0))
		return -1;
	for (int i = 1; i < argc; i++)
		if (send_frame(fd, PROTO_T_ARG, argv[i], strlen(argv[i]), NULL, 0))
			return -1;
	if (send_frame(fd, PROTO_T_CWD, cwd, strlen(cwd), NULL, 0))
		return -1;
	for (char **e = environ; *e; e++)
		if (proto_env_allowed(*e) &&
		    send_frame(fd, PROTO_T_ENV, *e, strlen(*e), NULL, 0))
			return -1;
	return send_frame(fd, PROTO_T_GO, NULL, 0, std, 3);
}

/* Read exactly LEN bytes: 0, or -1 at EOF or an error. */
static int read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* The service's answer: 'X' (the exit status) or 'R' (a refusal). */
static int answer(int fd)
{
	uint8_t h[PROTO_HEADER];
	uint32_t len;
	int type;
	char *p;

	if (read_full(fd, h, sizeof(h)) || proto_header(h, &len, &type) ||
	    len > 4096) {
		fputs("sonde: sonde serve ended the session without an exit status\n",
		      stderr);
		return 1;
	}
	p = calloc(1, len + 1);
	if (!p || read_full(fd, p, len)) {
		free(p);
		fputs("sonde: sonde serve ended the session without an exit status\n",
		      stderr);
		return 1;
	}
	if (type == PROTO_T_EXIT && len == 4) {
		uint8_t *b = (uint8_t *)p;
		int rc = (int)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);

		free(p);
		return rc;
	}
	fprintf(stderr, "sonde: sonde serve refused: %s\n",
		type == PROTO_T_REFUSE ? p : "an answer it cannot read");
	free(p);
	return 1;
}

int client_run(const char *sock, int argc, char **argv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct sigaction sa = { .sa_handler = on_interrupt };
	int fd, sent = 0;

	if (strlen(sock) >= sizeof(a.sun_path)) {
		fprintf(stderr, "sonde: --connect: path too long: %s\n", sock);
		return 1;
	}
	strcpy(a.sun_path, sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		fprintf(stderr, "sonde: cannot reach sonde serve at %s: %s\n", sock,
			strerror(errno));
		return 1;
	}
	if (send_request(fd, argc, argv)) {
		/* refused before it read it all: the answer says why */
		if (errno == EPIPE || errno == ECONNRESET)
			return answer(fd);
		fprintf(stderr, "sonde: cannot send the request to sonde serve at %s: %s\n",
			sock, strerror(errno));
		return 1;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };

		while (sent < interrupts) {
			send_frame(fd, PROTO_T_INTR, NULL, 0, NULL, 0);
			sent++;
		}
		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p.revents)
			return answer(fd);
	}
	return 1;
}

/* May this process load BPF programs itself (root, or CAP_BPF with
 * CAP_PERFMON, or CAP_SYS_ADMIN)? */
static bool privileged(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (geteuid() == 0)
		return true;
	if (syscall(SYS_capget, &h, d))
		return false;
#define HAS(cap) (d[(cap) / 32].effective & (1u << ((cap) % 32)))
	return HAS(CAP_SYS_ADMIN) || (HAS(CAP_BPF) && HAS(CAP_PERFMON));
#undef HAS
}

bool client_wanted(int *argc, char **argv, const char **sock)
{
	static const char *const local[] = {
		"-h", "--help", "-V", "--version", "--info", "-G",
	};
	struct stat st;

	*sock = NULL;
	for (int i = 1; i < *argc; i++) {
		int take = 0;

		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--connect") && i + 1 < *argc) {
			*sock = argv[i + 1];
			take = 2;
		} else if (!strncmp(argv[i], "--connect=", 10)) {
			*sock = argv[i] + 10;
			take = 1;
		}
		if (take) {
			memmove(&argv[i], &argv[i + take],
				sizeof(char *) * (size_t)(*argc - i - take + 1));
			*argc -= take;
			i--;
		}
	}
	if (*sock)
		return true;
	if (privileged())
		return false;
	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strncmp(argv[i], "--dump", 6))
			return false;
		for (size_t k = 0; k < sizeof(local) / sizeof(local[0]); k++)
			if (!strcmp(argv[i], local[k]))
				return false;
	}
	*sock = SERVE_SOCKET;
	return stat(SERVE_SOCKET, &st) == 0 && S_ISSOCK(st.st_mode);
}

int client_run_dtrace(const char *sock, int argc, char **argv)
{
	char **v = calloc((size_t)argc + 2, sizeof(char *));
	int rc;

	if (!v)
		return 1;
	v[0] = argv[0];
	v[1] = "dtrace";
	for (int i = 1; i < argc; i++)
		v[i + 1] = argv[i];
	rc = client_run(sock, argc + 1, v);
	free(v);
	return rc;
}
