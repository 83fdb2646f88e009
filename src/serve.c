/* serve.c - `sonde serve`: the root service that runs scripts for
 * users who cannot load BPF themselves (docs/sonde-serve.8).
 *
 * One process listens on a Unix socket.  Each connection is a session
 * in a child process of its own: the identity is the kernel's
 * (SO_PEERCRED), never the client's word; the child reads and checks
 * the request (proto.c), takes the client's standard input, output and
 * error (passed with the request), opens files as the user
 * (fs_as_user(): scripts, #includes, -o, uprobe targets), compiles
 * with the user's restrictions (a uid filter in every program of a
 * task's event, no kernel memory but the probe's context, the kinds of
 * probes the policy allows) and runs the script as `sonde` would.
 * When the client goes away the child kills itself: the kernel then
 * closes its programs, links and maps, whatever state it was in.  The
 * parent only accepts, counts sessions per user and writes the audit
 * log. */
#include "serve.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "dcli.h"
#include "options.h"
#include "proto.h"
#include "base/compiler.h"
#include "base/util.h"

#define MAX_GROUPS 256
#define MAX_SESSIONS 1024

/* A session the parent waits for. */
struct live {
	pid_t pid;
	uint32_t uid;
	unsigned long id;
	struct timespec start;
};

struct server {
	int lfd, sfd, audit_fd;
	const char *sock, *policy;
	struct live live[MAX_SESSIONS];
	int nlive;
	bool activated;		/* the socket is systemd's (fd 3) */
	struct serve_metrics *metrics;	/* --metrics */
	unsigned long next_id;
};

/* Send one frame; 0 or -1. */
static int send_frame(int fd, int type, const void *p, uint32_t len)
{
	uint8_t h[PROTO_HEADER];
	struct iovec iov[2] = { { h, sizeof(h) }, { (void *)p, len } };
	struct msghdr m = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };

	proto_put_header(h, type, len);
	return sendmsg(fd, &m, MSG_NOSIGNAL) == (ssize_t)(sizeof(h) + len) ?
	       0 : -1;
}

static void send_u32(int fd, int type, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 24) };

	send_frame(fd, type, b, 4);
}

static void refuse(int fd, const char *msg)
{
	send_frame(fd, PROTO_T_REFUSE, msg, (uint32_t)strlen(msg));
}

/* Read exactly LEN bytes into BUF, keeping up to 3 passed fds in FDS
 * (*NFDS); 0, or -1 at EOF or an error. */
static int read_full(int fd, void *buf, size_t len, int *fds, int *nfds)
{
	size_t done = 0;

	while (done < len) {
		union {
			struct cmsghdr h;
			char b[CMSG_SPACE(sizeof(int) * 8)];
		} ctl;
		struct iovec iov = { (char *)buf + done, len - done };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = ctl.b,
				    .msg_controllen = sizeof(ctl.b) };
		ssize_t n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			int got[8];

			if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
				continue;
			memcpy(got, CMSG_DATA(c), sizeof(int) * (size_t)(k > 8 ? 8 : k));
			for (int i = 0; i < k && i < 8; i++) {
				if (*nfds < 3)
					fds[(*nfds)++] = got[i];
				else
					close(got[i]);
			}
		}
		done += (size_t)n;
	}
	return 0;
}

/* The request, up to 'G' and its three descriptors; 0, or -1 after
 * refusing the client. */
static int read_request(int conn, struct proto_req *r, int fds[3])
{
	uint8_t h[PROTO_HEADER], *p = NULL;
	int nfds = 0;
	char err[256];

	while (!r->go) {
		uint32_t len;
		int type;

		if (read_full(conn, h, sizeof(h), fds, &nfds))
			return -1;
		if (proto_header(h, &len, &type)) {
			refuse(conn, "a frame longer than the protocol allows");
			return -1;
		}
		p = xrealloc(p, len ? len : 1);
		if (read_full(conn, p, len, fds, &nfds))
			break;
		if (proto_feed(r, type, p, len, err, sizeof(err))) {
			char msg[300];

			snprintf(msg, sizeof(msg), "a bad request: %s", err);
			refuse(conn, msg);
			break;
		}
	}
	free(p);
	if (r->go && nfds != 3)
		refuse(conn, "the request passed no standard input, output and error");
	return r->go && nfds == 3 ? 0 : -1;
}

/* The client's end: Ctrl-C ('I') is sonde's SIGINT; the socket closing
 * (the client killed) ends the session at once, and the kernel frees
 * what it held. */
static volatile sig_atomic_t session_done;

/* The nanoseconds this process's BPF programs ran in the kernel (the
 * run_time_ns of their /proc/self/fdinfo, counted while the session
 * holds the kernel's statistics on). */
static uint64_t programs_ns(void)
{
	DIR *d = opendir("/proc/self/fdinfo");
	struct dirent *e;
	uint64_t total = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[300], buf[1024];
		const char *p;
		ssize_t n;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		if (strstr(buf, "prog_type:") && (p = strstr(buf, "run_time_ns:")))
			total += strtoull(p + 12, NULL, 10);
	}
	closedir(d);
	return total;
}

/* The watcher's view of the session: its user and limits. */
static const struct serve_session *watched;

/* max_kernel_cpu: over the last CPU_WINDOW seconds, did the programs
 * take more than the policy's share of one CPU?  Then say so and stop
 * the session as Ctrl-C does. */
#define CPU_WINDOW 5
static void check_cpu(uint64_t ns[CPU_WINDOW + 1], int *tick)
{
	int pct = watched ? watched->pol.max_kernel_cpu : 0, secs;
	uint64_t now = programs_ns(), used;
	char msg[200];
	int n;

	memmove(ns, ns + 1, sizeof(*ns) * CPU_WINDOW);
	ns[CPU_WINDOW] = now;
	if (!pct || ++*tick < 2)
		return;
	/* the last seconds, up to CPU_WINDOW of them */
	secs = *tick - 1 < CPU_WINDOW ? *tick - 1 : CPU_WINDOW;
	used = now - ns[CPU_WINDOW - secs];
	if (used * 100 <= (uint64_t)pct * (uint64_t)secs * 1000000000ull)
		return;
	n = snprintf(msg, sizeof(msg), "sonde: the session's programs took %llu%% of a CPU in the kernel over %d s (sonde serve's limit for user %s is %d%%)\n",
		     (unsigned long long)(used * 100 / ((uint64_t)secs * 1000000000ull)),
		     secs, watched->user, pct);
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
		n = 0;
	watched = NULL;		/* said once */
	kill(getpid(), SIGINT);
}

/* The client's end: Ctrl-C ('I') is sonde's SIGINT; the socket closing
 * (the client killed) ends the session at once, and the kernel frees
 * what it held.  Once a second, the CPU the programs took. */
static void *watch_client(void *arg)
{
	int conn = (int)(intptr_t)arg, tick = 0;
	uint64_t ns[CPU_WINDOW + 1] = { 0 };
	uint8_t h[PROTO_HEADER];

	for (;;) {
		struct pollfd p = { conn, POLLIN, 0 };
		uint32_t len;
		int type;
		ssize_t n;

		if (poll(&p, 1, 1000) == 0) {
			check_cpu(ns, &tick);
			continue;
		}
		n = recv(conn, h, sizeof(h), MSG_WAITALL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(h) || proto_header(h, &len, &type) ||
		    len || type != PROTO_T_INTR)
			break;
		kill(getpid(), SIGINT);
	}
	if (!session_done)
		kill(getpid(), SIGKILL);
	return NULL;
}

static const char *limit_msg;

static void on_alarm(int sig)
{
	(void)sig;
	if (limit_msg && write(STDERR_FILENO, limit_msg, strlen(limit_msg)) < 0)
		limit_msg = NULL;
	kill(getpid(), SIGINT);
}

/* The first -p PID of ARGV (sonde's and dtrace's -p PID, -pPID) whose
 * process the user does not own (another user's, or setuid or not
 * dumpable: /proc/PID is then root's), or 0. */
static int foreign_pid(const struct serve_session *s, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *v = !strcmp(argv[i], "-p") && i + 1 < argc ? argv[i + 1] :
				!strncmp(argv[i], "-p", 2) && argv[i][2] ? argv[i] + 2 : NULL;
		char path[64];
		struct stat st;
		long pid;

		if (!strcmp(argv[i], "--"))
			break;
		if (!v || (pid = strtol(v, NULL, 10)) <= 0 || pid > 0x3fffffff)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		if (stat(path, &st) == 0 && st.st_uid != s->uid)
			return (int)pid;
	}
	return 0;
}

/* Take on the client's groups, files and environment; 0 or -1. */
static int become_client(struct serve_session *s, const struct proto_req *r,
			 const uint32_t *gids, int ngids)
{
	gid_t g[MAX_GROUPS];

	for (int i = 0; i < ngids; i++)
		g[i] = gids[i];
	if (!s->pol.unrestricted || s->uid) {
		if (setgroups((size_t)ngids, g))
			return -1;
		fs_as_user(s->uid, s->gid);
	}
	if (chdir(r->cwd))
		return -1;
	clearenv();
	setenv("PATH", "/usr/local/bin:/usr/bin:/bin", 1);
	for (int i = 0; i < r->nenv; i++)
		putenv(r->env[i]);
	return 0;
}

/* One session, in its own process; never returns. */
static void session_child(int conn, struct serve_session *s,
			  const uint32_t *gids, int ngids)
{
	struct proto_req r;
	struct options o;
	pthread_t th;
	char err[300];
	int fds[3], rc, pid;
	bool dtrace;

	proto_req_init(&r);
	alarm(10);		/* the request comes at once, or never */
	if (read_request(conn, &r, fds))
		_exit(1);
	alarm(0);
	dtrace = r.argc > 1 && !strcmp(r.argv[1], "dtrace");
	if (serve_vet_args(&s->pol, r.argc, r.argv, err, sizeof(err))) {
		refuse(conn, err);
		_exit(1);
	}
	if (become_client(s, &r, gids, ngids)) {
		snprintf(err, sizeof(err), "cannot take on the client's directory or groups: %s",
			 strerror(errno));
		refuse(conn, err);
		_exit(1);
	}
	for (int i = 0; i < 3; i++) {
		dup2(fds[i], i);
		close(fds[i]);
	}
	/* the kernel counts the programs' run time while this is open */
	if (s->pol.max_kernel_cpu && bpf_enable_stats(BPF_STATS_RUN_TIME) < 0) {
		fprintf(stderr, "sonde: sonde serve cannot measure the programs' CPU time (BPF statistics): %s\n",
			strerror(errno));
		_exit(1);
	}
	watched = s;
	if (pthread_create(&th, NULL, watch_client, (void *)(intptr_t)conn))
		_exit(1);
	if (s->pol.max_seconds) {
		static char msg[200];

		snprintf(msg, sizeof(msg), "sonde: the session reached its %ld seconds (sonde serve's limit for user %s)\n",
			 s->pol.max_seconds, s->user);
		limit_msg = msg;
		signal(SIGALRM, on_alarm);
		alarm((unsigned)s->pol.max_seconds);
	}
	optind = 1;
	if (!s->pol.unrestricted && (pid = foreign_pid(s, r.argc, r.argv))) {
		fprintf(stderr, "%s: -p %d: the process is not user %s's to trace (another user's, or setuid)\n",
			dtrace ? "dtrace" : "sonde", pid, s->user);
		rc = 1;
	} else if (dtrace) {
		rc = dcli_run(r.argc - 1, r.argv + 1, s);
	} else if ((rc = cli_parse(r.argc, r.argv, &o))) {
		options_free(&o);
		rc--;
	} else {
		o.serve = s;
		rc = session_run(&o);
	}
	fflush(stdout);
	fflush(stderr);
	session_done = 1;
	send_u32(conn, PROTO_T_EXIT, (uint32_t)rc);
	_exit(rc);
}

static int count_live(const struct server *sv, uint32_t uid)
{
	int n = 0;

	for (int i = 0; i < sv->nlive; i++)
		n += sv->live[i].uid == uid;
	return n;
}

/* Who is at the other end of CONN, and what the policy lets them do;
 * -1 if they cannot be served (said to them). */
static int identify(struct server *sv, int conn, struct serve_session *s,
		    uint32_t *gids, int *ngids)
{
	struct ucred cr;
	socklen_t len = sizeof(cr);
	struct passwd *pw;
	gid_t g[MAX_GROUPS];
	int n = MAX_GROUPS;
	static char name[64];

	if (getsockopt(conn, SOL_SOCKET, SO_PEERCRED, &cr, &len))
		return -1;
	memset(s, 0, sizeof(*s));
	s->uid = cr.uid;
	s->gid = cr.gid;
	s->client_pid = cr.pid;
	pw = getpwuid(cr.uid);
	if (pw)
		snprintf(name, sizeof(name), "%s", pw->pw_name);
	else
		snprintf(name, sizeof(name), "%u", cr.uid);
	s->user = name;
	if (!pw || getgrouplist(pw->pw_name, cr.gid, g, &n) < 0) {
		g[0] = cr.gid;
		n = 1;
	}
	for (int i = 0; i < n; i++)
		gids[i] = g[i];
	*ngids = n;
	serve_policy_default(&s->pol, cr.uid == 0);
	if (serve_policy_read(sv->policy, s->uid, s->user, gids, n, &s->pol)) {
		refuse(conn, "the service's policy file is broken; ask the administrator");
		return -1;
	}
	if (count_live(sv, s->uid) >= s->pol.max_sessions ||
	    sv->nlive >= MAX_SESSIONS) {
		char msg[200];

		snprintf(msg, sizeof(msg), "user %s has %d sessions already (sonde serve's limit)",
			 s->user, count_live(sv, s->uid));
		refuse(conn, msg);
		serve_audit(sv->audit_fd, "uid=%u user=%s refused: %s", s->uid, s->user, msg);
		return -1;
	}
	s->audit_fd = sv->audit_fd;
	s->id = ++sv->next_id;
	return 0;
}

static void take_connection(struct server *sv, sigset_t *old)
{
	struct serve_session s;
	uint32_t gids[MAX_GROUPS];
	int ngids, conn = accept4(sv->lfd, NULL, NULL, SOCK_CLOEXEC);
	pid_t pid;

	if (conn < 0)
		return;
	if (identify(sv, conn, &s, gids, &ngids)) {
		close(conn);
		return;
	}
	pid = fork();
	if (pid == 0) {
		int keep[2] = { conn, sv->audit_fd };

		serve_close_fds(keep, 2);
		closelog();
		signal(SIGCHLD, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		sigprocmask(SIG_SETMASK, old, NULL);
		session_child(conn, &s, gids, ngids);
	}
	close(conn);
	if (pid < 0) {
		serve_audit(sv->audit_fd, "uid=%u user=%s refused: cannot fork: %s",
			    s.uid, s.user, strerror(errno));
		return;
	}
	sv->live[sv->nlive].pid = pid;
	sv->live[sv->nlive].uid = s.uid;
	sv->live[sv->nlive].id = s.id;
	clock_gettime(CLOCK_MONOTONIC, &sv->live[sv->nlive].start);
	sv->nlive++;
	serve_audit(sv->audit_fd, "session=%lu uid=%u user=%s client_pid=%d start",
		    s.id, s.uid, s.user, s.client_pid);
}

/* The sessions that ended (all of them, waiting, with BLOCK). */
static void reap(struct server *sv, bool block)
{
	int st;
	pid_t pid;

	while ((pid = waitpid(-1, &st, block ? 0 : WNOHANG)) > 0) {
		if (serve_metrics_reaped(sv->metrics, pid, st))
			continue;
		for (int i = 0; i < sv->nlive; i++) {
			struct live *l = &sv->live[i];
			struct timespec now;
			char how[64];

			if (l->pid != pid)
				continue;
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (WIFEXITED(st))
				snprintf(how, sizeof(how), "exit=%d", WEXITSTATUS(st));
			else
				snprintf(how, sizeof(how), "signal=%d%s", WTERMSIG(st),
					 WTERMSIG(st) == SIGKILL ? " (client gone)" : "");
			serve_audit(sv->audit_fd, "session=%lu uid=%u end %s seconds=%ld",
				    l->id, l->uid, how,
				    (long)(now.tv_sec - l->start.tv_sec));
			*l = sv->live[--sv->nlive];
			break;
		}
	}
}

static int listen_on(struct server *sv)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;

	if (strlen(sv->sock) >= sizeof(a.sun_path)) {
		fprintf(stderr, "sonde serve: socket path too long: %s\n", sv->sock);
		return -1;
	}
	strcpy(a.sun_path, sv->sock);
	if (lstat(sv->sock, &st) == 0 && S_ISSOCK(st.st_mode))
		unlink(sv->sock);
	sv->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sv->lfd < 0 || bind(sv->lfd, (struct sockaddr *)&a, sizeof(a)) ||
	    chmod(sv->sock, 0666) || listen(sv->lfd, 128)) {
		fprintf(stderr, "sonde serve: cannot listen on %s: %s\n", sv->sock,
			strerror(errno));
		return -1;
	}
	return 0;
}

/* Did systemd pass one listening socket (sd_listen_fds(3)'s rules)? */
static bool socket_activated(void)
{
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");

	return pid && fds && strtol(pid, NULL, 10) == (long)getpid() &&
	       !strcmp(fds, "1");
}

static void serve_usage(FILE *f)
{
	fputs("usage: sonde serve [--socket PATH] [--policy FILE] [--audit-file FILE]\n"
	      "                   [--metrics [HOST:]PORT [--metrics-dir DIR]]\n"
	      "Run scripts for users who cannot load BPF (see sonde-serve(8)).\n"
	      "  --socket PATH      listen on PATH (default " SERVE_SOCKET ")\n"
	      "  --policy FILE      what each user may do (default " SERVE_POLICY ")\n"
	      "  --audit-file FILE  also append the audit log to FILE (it goes to syslog)\n"
	      "  --metrics [HOST:]PORT  run the scripts of the metrics directory and serve\n"
	      "                     their maps for Prometheus at /metrics\n"
	      "  --metrics-dir DIR  the metrics directory (default " SERVE_METRICS_DIR ")\n",
	      f);
}

int serve_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "policy", required_argument, NULL, 'p' },
		{ "audit-file", required_argument, NULL, 'a' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "metrics-dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct server sv;
	const char *audit = NULL, *metrics = NULL, *mdir = SERVE_METRICS_DIR;
	sigset_t mask, old;
	int opt;

	sv.sock = SERVE_SOCKET;
	sv.policy = SERVE_POLICY;
	sv.audit_fd = -1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (opt) {
		case 's': sv.sock = optarg; break;
		case 'p': sv.policy = optarg; break;
		case 'a': audit = optarg; break;
		case 'm': metrics = optarg; break;
		case 'd': mdir = optarg; break;
		case 'h': serve_usage(stdout); return 0;
		default: serve_usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		serve_usage(stderr);
		return 2;
	}
	if (geteuid() != 0) {
		fputs("sonde serve: the service runs as root (it loads BPF for its users)\n", stderr);
		return 1;
	}
	openlog("sonde-serve", LOG_PID, LOG_AUTHPRIV);
	if (audit && (sv.audit_fd = open(audit, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
					 0600)) < 0) {
		fprintf(stderr, "sonde serve: cannot open %s: %s\n", audit, strerror(errno));
		return 1;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, &old);
	signal(SIGPIPE, SIG_IGN);
	sv.sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sv.sfd < 0)
		return 1;
	if (socket_activated()) {	/* systemd's sonde.socket */
		sv.lfd = 3;
		sv.activated = true;
		fcntl(sv.lfd, F_SETFD, FD_CLOEXEC);
	} else if (listen_on(&sv)) {
		return 1;
	}
	serve_audit(sv.audit_fd, "listening on %s",
		    sv.activated ? "the socket systemd passed" : sv.sock);
	if (metrics) {
		if (serve_metrics_start(&sv.metrics, metrics, mdir, sv.audit_fd,
					&old)) {
			reap(&sv, true);	/* scripts it started */
			serve_metrics_free(sv.metrics);
			if (!sv.activated)
				unlink(sv.sock);
			return 1;
		}
	}
	for (;;) {
		struct pollfd p[2] = { { sv.lfd, POLLIN, 0 }, { sv.sfd, POLLIN, 0 } };
		struct signalfd_siginfo si;

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents & POLLIN)
			take_connection(&sv, &old);
		if (!(p[1].revents & POLLIN) ||
		    read(sv.sfd, &si, sizeof(si)) != (ssize_t)sizeof(si))
			continue;
		if (si.ssi_signo == SIGCHLD) {
			reap(&sv, false);
			continue;
		}
		break;		/* SIGTERM, SIGINT */
	}
	for (int i = 0; i < sv.nlive; i++)
		kill(sv.live[i].pid, SIGKILL);
	serve_metrics_stop(sv.metrics);	/* its scripts END and exit */
	reap(&sv, true);
	serve_metrics_free(sv.metrics);
	sv.metrics = NULL;
	if (!sv.activated)
		unlink(sv.sock);
	serve_audit(sv.audit_fd, "stopped");
	return 0;
}
