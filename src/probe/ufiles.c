/* ufiles.c - the files a user-space spec's file field names. */
#include "probe/ufiles.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/elfsym.h"
#include "probe/probe.h"

static void add_file(struct ufiles *fs, struct arena *a, const char *path,
		     const char *shown)
{
	if (fs->n == fs->cap) {
		struct ufile *v;

		fs->cap = fs->cap ? fs->cap * 2 : 8;
		v = arena_alloc(a, sizeof(*v) * (size_t)fs->cap);
		if (fs->n)
			memcpy(v, fs->v, sizeof(*v) * (size_t)fs->n);
		fs->v = v;
	}
	fs->v[fs->n].path = arena_strdup(a, path);
	fs->v[fs->n].shown = arena_strdup(a, shown);
	fs->n++;
}

const char *ufiles_error(int rc)
{
	return rc == -ENOEXEC ? "not an ELF file" :
	       rc == -EINVAL ? "not an executable or a shared library" :
	       strerror(-rc);
}

/* With -p and an empty file field: the process's executable and the
 * libraries it has mapped, as bpftrace searches them. */
static int process_files(struct ufiles *fs, struct arena *a, const char *kind,
			 int pid, char *err, size_t errlen)
{
	char *names;

	if (pid <= 0) {
		snprintf(err, errlen, "%s: the file is missing: name one (%s:/bin/bash:...), or give -p PID to search a process's executable and libraries",
			 kind, kind);
		return -1;
	}
	names = elf_process_files(pid);
	for (const char *p = names; p && *p; p += strlen(p) + 1) {
		char *path = elf_resolve_path(p, pid);

		if (path && !elf_check(path))
			add_file(fs, a, path, p);
		free(path);
	}
	free(names);
	if (!fs->n) {
		snprintf(err, errlen, "%s: process %d has no ELF files to search (has it exited?)",
			 kind, pid);
		return -1;
	}
	fs->how = PROCESS_FILES;
	return 0;
}

int ufiles_program(struct ufiles *fs, struct arena *a, const char *prog)
{
	char *names = elf_program_files(prog);

	memset(fs, 0, sizeof(*fs));
	for (const char *p = names; p && *p; p += strlen(p) + 1)
		if (!elf_check(p))
			add_file(fs, a, p, p);
	free(names);
	fs->how = PROCESS_FILES;
	return fs->n ? 0 : -1;
}

/* Every ELF file the wildcard FIELD matches (glob(3)). */
static int wild_files(struct ufiles *fs, struct arena *a, const char *kind,
		      const char *field, char *err, size_t errlen)
{
	glob_t g;

	if (glob(field, 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *path = realpath(g.gl_pathv[i], NULL);

			if (path && !elf_check(path))
				add_file(fs, a, path, g.gl_pathv[i]);
			free(path);
		}
	}
	globfree(&g);
	if (!fs->n) {
		snprintf(err, errlen, "%s: no ELF file matches %s", kind, field);
		return -1;
	}
	fs->how = WILD_FILES;
	return 0;
}

int ufiles_find(struct ufiles *fs, struct arena *a, const char *kind,
		const char *field, int pid, char *err, size_t errlen)
{
	char *path;
	int rc;

	memset(fs, 0, sizeof(*fs));
	if (!*field || (pid > 0 && !strcmp(field, "*")))
		return process_files(fs, a, kind, pid, err, errlen);
	if (probe_wild(field))
		return wild_files(fs, a, kind, field, err, errlen);
	path = elf_resolve_path(field, pid);
	if (!path) {
		snprintf(err, errlen, "%s: %s: no such file, library or program",
			 kind, field);
		return -1;
	}
	rc = elf_check(path);
	if (rc) {
		snprintf(err, errlen, "%s: %s: %s", kind, path, ufiles_error(rc));
		free(path);
		return -1;
	}
	add_file(fs, a, path, strchr(field, '/') ? field : path);
	free(path);
	fs->how = ONE_FILE;
	return 0;
}
