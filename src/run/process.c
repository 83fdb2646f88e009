/* process.c - the processes sonde starts or follows: -c's command,
 * held until the probes are attached, -p's process, watched until it
 * exits, and the shell of system(). */
#include "run/tracer.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "out/json.h"

int rt_spawn(struct tracer *t, const char *cmd)
{
	int pipefd[2];
	pid_t pid;

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
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* A simple command replaces the shell, so cpid is its pid. */
		if (!strpbrk(cmd, ";&|<>()`$\n")) {
			char *ex = xmalloc(strlen(cmd) + 6);

			strcpy(ex, "exec ");
			strcat(ex, cmd);
			execl("/bin/sh", "sh", "-c", ex, (char *)NULL);
		} else {
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		}
		_exit(127);
	}
	close(pipefd[0]);
	t->child_pid = pid;
	t->child_go = pipefd[1];
	return 0;
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

/* system(): the formatted command runs by /bin/sh, its output going
 * where sonde's goes, and sonde waits for it (as bpftrace does).  In
 * JSON its output becomes a "syscall" message, as in bpftrace. */
void rt_system(struct tracer *t, const struct event_spec *e,
	       const uint8_t *rec)
{
	char *cmd = NULL, *got = NULL;
	size_t len = 0, glen = 0;
	FILE *f = open_memstream(&cmd, &len);
	int pipefd[2] = { -1, -1 };
	pid_t pid;

	if (!f)
		return;
	pr_format_record(&t->pr, f, e, rec);
	fclose(f);
	fflush(t->pr.out);
	if (t->pr.format == OUT_JSON && pipe2(pipefd, O_CLOEXEC) < 0) {
		free(cmd);
		return;
	}
	pid = fork();
	if (pid == 0) {
		int to = pipefd[1] >= 0 ? pipefd[1] : fileno(t->pr.out);

		if (to != STDOUT_FILENO)
			dup2(to, STDOUT_FILENO);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (pid < 0) {
		rt_warn(t, "system(\"%s\"): cannot fork: %s", cmd,
			strerror(errno));
	} else {
		if (pipefd[0] >= 0) {
			FILE *m = open_memstream(&got, &glen);
			char buf[4096];
			ssize_t n;

			while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0)
					break;
				if (m)
					fwrite(buf, 1, (size_t)n, m);
			}
			if (m) {
				fclose(m);
				js_text(t->pr.out, "syscall", got ? got : "", glen);
			}
			free(got);
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	free(cmd);
}
