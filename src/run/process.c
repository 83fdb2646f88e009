/* process.c - the processes sonde starts or follows: -c's command,
 * held until the probes are attached, -p's process, watched until it
 * exits, and the shell of system(). */
#include "run/tracer.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "out/json.h"

/* CMD's words as a shell splits a simple command: blanks between them,
 * '...' and "..." quoting, \ escaping; NULL-terminated. */
static char **split_words(const char *cmd)
{
	size_t n = strlen(cmd);
	char **argv = xcalloc(n / 2 + 2, sizeof(char *));
	char *buf = xmalloc(n + 1), *w = buf;
	int argc = 0;

	for (const char *p = cmd; *p;) {
		char q = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		argv[argc++] = w;
		for (; *p && (q || (*p != ' ' && *p != '\t')); p++) {
			if (!q && (*p == '\'' || *p == '"'))
				q = *p;
			else if (q && *p == q)
				q = 0;
			else if (*p == '\\' && q != '\'' && p[1])
				*w++ = *++p;
			else
				*w++ = *p;
		}
		if (q) {	/* an open quote: leave it to the shell */
			free(buf);
			free(argv);
			return NULL;
		}
		*w++ = 0;
	}
	argv[argc] = NULL;
	if (!argc)	/* argv[0], when there is one, owns the words */
		free(buf);
	return argv;
}

/* Can execvp() run NAME (a path, or a name found in $PATH)? */
static bool runnable(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	for (const char *p = path ? path : "/usr/bin:/bin"; ; ) {
		size_t n = strcspn(p, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? p : ".", name);
		if (access(buf, X_OK) == 0)
			return true;
		if (!p[n])
			return false;
		p += n + 1;
	}
}

static bool simple_command(const char *cmd)
{
	return !strpbrk(cmd, ";&|<>()`$\n*?[~{}!#=");
}

int rt_spawn(struct tracer *t, const char *cmd)
{
	int pipefd[2];
	pid_t pid;

	if (simple_command(cmd)) {	/* say it now, not as its exit */
		char **argv = split_words(cmd);
		bool ok = !argv || !argv[0] || runnable(argv[0]);
		char *name = argv && argv[0] ? xstrdup(argv[0]) : NULL;

		if (argv)
			free(argv[0]);
		free(argv);
		if (!ok) {
			rt_fail(t, ENOENT, "cannot run '%s': %s", name,
				strerror(ENOENT));
			free(name);
			return -ENOENT;
		}
		free(name);
	}

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return rt_fail(t, errno, "cannot start '%s': %s", cmd,
			       strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return rt_fail(t, err, "cannot start '%s': %s", cmd, strerror(err));
	}
	if (pid == 0) {
		char go;

		close(pipefd[1]);
		/* Held here until the probes are attached; a closed pipe
		 * means sonde gave up. */
		if (read(pipefd[0], &go, 1) != 1)
			_exit(127);
		rt_child_signals(NULL);
		if (t->nofile.rlim_max)	/* the limit sonde was given */
			setrlimit(RLIMIT_NOFILE, &t->nofile);
		if (fs_become_user()) {	/* sonde serve: the user's command */
			fprintf(stderr, "sonde: cannot run '%s' as the user: %s\n",
				cmd, strerror(errno));
			_exit(127);
		}
		/* A simple command runs itself, as bpftrace runs it: no
		 * shell's execve for the probes to see, and cpid is its
		 * pid; anything a shell must read, through /bin/sh. */
		if (simple_command(cmd)) {
			char **argv = split_words(cmd);

			if (argv && argv[0]) {
				execvp(argv[0], argv);
				fprintf(stderr, "sonde: cannot run '%s': %s\n",
					argv[0], strerror(errno));
				_exit(127);
			}
		}
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(pipefd[0]);
	t->child_pid = pid;
	t->child_go = pipefd[1];
	return 0;
}

int rt_spawn_stopped(const char *cmd)
{
	int st;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char **argv = simple_command(cmd) ? split_words(cmd) : NULL;

		/* stopped at the exec: the program never runs */
		if (fs_become_user() || ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(127);
		if (argv && argv[0])
			execvp(argv[0], argv);
		else
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		rt_end_stopped(pid);
		return -1;
	}
	return pid;
}

void rt_end_stopped(int pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

void rt_release_child(struct tracer *t)
{
	if (t->child_go < 0)
		return;
	if (write(t->child_go, "g", 1) != 1)
		rt_warn(t, "cannot start the command: %s", strerror(errno));
	close(t->child_go);
	t->child_go = -1;
}

/* Alive and not a zombie (a zombie still answers kill(pid, 0)). */
static bool process_alive(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* "pid (comm) S ..." */
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

bool rt_target_gone(struct tracer *t)
{
	if (t->child_pid > 0 && !t->child_done) {
		int st;

		if (waitpid(t->child_pid, &st, WNOHANG) == t->child_pid) {
			t->child_done = true;
			t->child_status = st;
			return true;
		}
	}
	if (t->target_pid > 0)
		return !process_alive(t->target_pid);
	return false;
}

/* Wait for system()'s shell PID, reading its output from RFD (JSON,
 * else -1) into a "syscall" message, with SIGINT and SIGTERM blocked
 * but for the wait itself (ppoll with MASK: a stop signal cannot slip
 * in between the check and the wait).  Ctrl-C reaches the command
 * itself (it shares sonde's process group); a stop signal sent to
 * sonde alone is passed on to the shell, which gets a second more to
 * end (a shell waiting for its command survives SIGINT until the
 * command ends): one that does not is left running, not waited for. */
static void wait_command(struct tracer *t, pid_t pid, int rfd,
			 const sigset_t *mask)
{
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	struct timespec grace = { 1, 0 };
	bool exited = pfd < 0, passed = false;
	char *got = NULL;
	size_t glen = 0;
	FILE *m = rfd >= 0 ? open_memstream(&got, &glen) : NULL;

	/* without pidfds (before Linux 5.3) only the pipe is watched */
	while (!exited || rfd >= 0) {
		struct pollfd p[2] = { { pfd, POLLIN, 0 }, { rfd, POLLIN, 0 } };
		int n;

		if (rt_stop_signal() && !passed) {
			kill(pid, rt_stop_signal());
			passed = true;
		}
		n = ppoll(p, 2, passed ? &grace : NULL, mask);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (p[1].revents) {
			char buf[4096];
			ssize_t r = read(rfd, buf, sizeof(buf));

			if (r > 0 && m)
				fwrite(buf, 1, (size_t)r, m);
			else if (r == 0 || (r < 0 && errno != EINTR))
				rfd = -1;
		}
		if (p[0].revents)
			exited = true;
	}
	if (m) {
		fclose(m);
		js_text(t->pr.out, "syscall", got ? got : "", glen);
	}
	free(got);
	if (pfd >= 0)
		close(pfd);
	if (exited) {
		sigprocmask(SIG_SETMASK, mask, NULL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
}

void rt_freopen(struct tracer *t, const struct event_spec *e,
		const uint8_t *rec)
{
	char *path = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&path, &len), *to;

	if (!f)
		return;
	pr_format_record(&t->pr, f, e, rec);
	fclose(f);
	fflush(t->pr.out);
	if (!*path) {
		if (t->out0) {
			fclose(t->pr.out);
			t->pr.out = t->out0;
			t->out0 = NULL;
		}
	} else if (!(to = fopen(path, "ae"))) {
		rt_warn(t, "freopen(): cannot open %s: %s", path,
			strerror(errno));
	} else {
		if (t->out0)
			fclose(t->pr.out);
		else
			t->out0 = t->pr.out;
		t->pr.out = to;
	}
	free(path);
}

/* system(): the formatted command runs by /bin/sh, its output going
 * where sonde's goes, and sonde waits for it (as bpftrace does), but
 * not past a stop (wait_command).  In JSON its output becomes a
 * "syscall" message, as in bpftrace.  Once the run is stopping, the
 * commands of the records still to read are not run. */
void rt_system(struct tracer *t, const struct event_spec *e,
	       const uint8_t *rec)
{
	char *cmd = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);
	int pipefd[2] = { -1, -1 };
	sigset_t stops, old;
	pid_t pid = -1;

	if (!f)
		return;
	pr_format_record(&t->pr, f, e, rec);
	fclose(f);
	fflush(t->pr.out);
	if (t->pr.format == OUT_JSON && pipe2(pipefd, O_CLOEXEC) < 0) {
		free(cmd);
		return;
	}
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigprocmask(SIG_BLOCK, &stops, &old);
	if (!rt_stop_signal())
		pid = fork();
	if (pid == 0) {
		int to = pipefd[1] >= 0 ? pipefd[1] : fileno(t->pr.out);

		if (to != STDOUT_FILENO)
			dup2(to, STDOUT_FILENO);
		rt_child_signals(&old);
		if (fs_become_user())	/* sonde serve: never root's */
			_exit(127);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (pid < 0 && !rt_stop_signal())
		rt_warn(t, "system(\"%s\"): cannot fork: %s", cmd,
			strerror(errno));
	else if (pid > 0)
		wait_command(t, pid, pipefd[0], &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	free(cmd);
}
