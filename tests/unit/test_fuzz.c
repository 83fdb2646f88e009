/* test_fuzz.c - replay the fuzz targets' inputs without libFuzzer: the
 * regression inputs of tests/fuzz/regress/TARGET/ (each one a past
 * finding) and the seed corpora of tests/fuzz/corpus/TARGET/, through
 * the same entry points the libFuzzer binaries call (tests/fuzz/fuzz_NAME.c,
 * built here with the normal compiler and flags, so also under
 * ASAN=1 UBSAN=1).
 *
 * The inputs of a directory run in a child process, each within 10 s;
 * if the child is killed or exits non-zero (a sanitizer report), each
 * input runs again in a child of its own, so that a crash, a leak or a
 * hang names its file.
 *
 * usage: test_fuzz [TARGET FILE...]   (default: every directory above;
 * run from the repository root)
 */
#include "../fuzz/fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

static const struct {
	const char *name;
	int (*fn)(const uint8_t *data, size_t size);
} targets[] = {
	{ "script", fuzz_script },
	{ "elf", fuzz_elf },
	{ "format", fuzz_format },
	{ "proto", fuzz_proto },
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

/* Feed FN an exact copy of PATH (the targets must not read past the
 * input); 0, or -1 if the file cannot be read. */
static int feed(int (*fn)(const uint8_t *, size_t), const char *path)
{
	char *buf;
	uint8_t *data;
	size_t len;

	if (read_file(path, &buf, &len))
		return -1;
	data = xmalloc(len);
	memcpy(data, buf, len);
	free(buf);
	fn(data, len);
	free(data);
	return 0;
}

/* Run PATHS through FN in one child, each within 10 s.  True if the
 * child ended well; otherwise WHY says how, and LOG holds its stderr. */
static bool batch(int (*fn)(const uint8_t *, size_t), char **paths, size_t n,
		  FILE *log, char *why, size_t cap)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("test_fuzz: fork");
		exit(1);
	}
	if (pid == 0) {
		dup2(fileno(log), 2);
		for (size_t i = 0; i < n; i++) {
			alarm(10);
			if (feed(fn, paths[i])) {
				fprintf(stderr, "cannot read %s\n", paths[i]);
				exit(1);
			}
		}
		exit(0);	/* exit, not _exit: LeakSanitizer checks here */
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st))
		snprintf(why, cap, "killed by signal %d%s", WTERMSIG(st),
			 WTERMSIG(st) == SIGALRM ? " (over 10 s)" : "");
	else if (WEXITSTATUS(st))
		snprintf(why, cap, "exit %d", WEXITSTATUS(st));
	else
		return true;
	return false;
}

/* PATHS in one child; if it fails, each alone, to name the culprits. */
static void replay(int (*fn)(const uint8_t *, size_t), char **paths, size_t n)
{
	char why[64];
	FILE *log = tmpfile();
	int found = 0;

	if (!log) {
		perror("test_fuzz: tmpfile");
		exit(1);
	}
	nrun += (int)n;
	if (batch(fn, paths, n, log, why, sizeof(why)) || n == 0) {
		fclose(log);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		FILE *one = tmpfile();

		if (!one) {
			perror("test_fuzz: tmpfile");
			exit(1);
		}
		if (!batch(fn, &paths[i], 1, one, why, sizeof(why))) {
			printf("FAIL %s: %s\n", paths[i], why);
			show(one);
			found++;
		}
		fclose(one);
	}
	if (n > 1 && !found) {
		/* only together: a leak or state one input left behind */
		printf("FAIL %s and the %zu after it, together: %s\n", paths[0],
		       n - 1, why);
		show(log);
		found++;
	}
	nfail += found;
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
		char *path = xmalloc(strlen(dir) + strlen(names[i]) + 2);

		sprintf(path, "%s/%s", dir, names[i]);
		free(names[i]);
		names[i] = path;
	}
	replay(fn, names, n);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int main(int argc, char **argv)
{
	if (argc > 2) {
		for (size_t t = 0; t < ARRAY_SIZE(targets); t++) {
			if (strcmp(argv[1], targets[t].name))
				continue;
			replay(targets[t].fn, argv + 2, (size_t)(argc - 2));
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
