/* test_fuzz.c - replay the fuzz targets' inputs without libFuzzer: the
 * regression inputs of tests/fuzz/regress/TARGET/ (each one a past
 * finding) and the seed corpora of tests/fuzz/corpus/TARGET/, through
 * the same entry points the libFuzzer binaries call (tests/fuzz/fuzz_NAME.c,
 * built here with the normal compiler and flags, so also under
 * ASAN=1 UBSAN=1).
 *
 * Each input runs in a child process, so one crash, leak report or
 * hang names its file and the others still run.  A child fails if it
 * is killed, exits non-zero (a sanitizer report), or takes over 10 s.
 *
 * usage: test_fuzz [TARGET FILE...]   (default: every directory above;
 * run from the repository root)
 */
#include "../fuzz/fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

static const struct {
	const char *name;
	int (*fn)(const uint8_t *data, size_t size);
} targets[] = {
	{ "script", fuzz_script },
	{ "elf", fuzz_elf },
	{ "format", fuzz_format },
};

static int nrun, nfail;

/* The first lines of what the child wrote, indented. */
static void show(FILE *log)
{
	char line[512];
	int n = 0;

	rewind(log);
	while (n < 30 && fgets(line, sizeof(line), log)) {
		printf("    %s", line);
		if (!strchr(line, '\n'))
			putchar('\n');
		n++;
	}
}

static void replay(int (*fn)(const uint8_t *, size_t), const char *path)
{
	char *buf;
	size_t len;
	FILE *log;
	pid_t pid;
	int st, rc = read_file(path, &buf, &len);

	if (rc) {
		printf("FAIL %s: cannot read: %s\n", path, strerror(-rc));
		nfail++;
		return;
	}
	log = tmpfile();
	if (!log) {
		perror("test_fuzz: tmpfile");
		exit(1);
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("test_fuzz: fork");
		exit(1);
	}
	if (pid == 0) {
		dup2(fileno(log), 2);
		alarm(10);
		/* an exact copy: the targets must not read past the input */
		{
			uint8_t *data = xmalloc(len);

			memcpy(data, buf, len);
			free(buf);
			fn(data, len);
			free(data);
		}
		exit(0);	/* exit, not _exit: LeakSanitizer checks here */
	}
	free(buf);
	nrun++;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st)) {
		printf("FAIL %s: killed by signal %d%s\n", path, WTERMSIG(st),
		       WTERMSIG(st) == SIGALRM ? " (over 10 s)" : "");
		show(log);
		nfail++;
	} else if (WEXITSTATUS(st)) {
		printf("FAIL %s: exit %d\n", path, WEXITSTATUS(st));
		show(log);
		nfail++;
	}
	fclose(log);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of DIR (none if it does not exist), sorted. */
static void replay_dir(int (*fn)(const uint8_t *, size_t), const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		char path[1024];

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		replay(fn, path);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	if (argc > 2) {
		for (size_t t = 0; t < ARRAY_SIZE(targets); t++) {
			if (strcmp(argv[1], targets[t].name))
				continue;
			for (int i = 2; i < argc; i++)
				replay(targets[t].fn, argv[i]);
			printf("%d inputs, %d failed\n", nrun, nfail);
			return nfail ? 1 : 0;
		}
		fprintf(stderr, "test_fuzz: no target %s (script, elf, format)\n",
			argv[1]);
		return 2;
	}
	for (size_t t = 0; t < ARRAY_SIZE(targets); t++) {
		char dir[256];

		snprintf(dir, sizeof(dir), "tests/fuzz/regress/%s", targets[t].name);
		replay_dir(targets[t].fn, dir);
		snprintf(dir, sizeof(dir), "tests/fuzz/corpus/%s", targets[t].name);
		replay_dir(targets[t].fn, dir);
	}
	printf("%d inputs, %d failed\n", nrun, nfail);
	return nfail ? 1 : 0;
}
