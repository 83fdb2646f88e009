/* import.c - import "PATH": another script's probes, macros and C
 * definitions read in place of the statement, as #include reads a
 * header, through the preprocessor's file stack (pp.c): so the lexer
 * reads the imported file next and comes back at its end, and its
 * errors show its own lines.  A path is relative to the directory of
 * the file that imports it; a directory imports its .bt and .h files
 * in name order.  Each file is read once; a file that imports one of
 * its importers is a cycle, an error. */
#include "lang/lex_int.h"
#include "lang/parse_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/* As bpftrace: nothing is imported from a directory anyone may write. */
static void check_dir(struct lexer *lx, const char *dir, struct loc at)
{
	struct stat st;

	if (!stat(dir, &st) && (st.st_mode & S_IWOTH))
		lex_fail(lx, at, E_IMPORT,
			 "import: %s is writable by everyone; sonde imports nothing from it",
			 dir);
}

static const char *dir_part(struct lexer *lx, const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return ".";
	return slash == path ? "/" : arena_strndup(lx->arena, path,
						   (size_t)(slash - path));
}

static void import_file(struct lexer *lx, const char *path, struct loc at)
{
	struct pp *pp = lx->pp;
	struct pp_file *f;

	if (ends_with(path, ".bpf.c"))
		lex_fail(lx, at, E_IMPORT,
			 "import: %s is BPF C, which sonde does not compile", path);
	if (!ends_with(path, ".bt") && !ends_with(path, ".h"))
		lex_fail(lx, at, E_IMPORT,
			 "import: %s is neither a script (.bt) nor a C header (.h)",
			 path);
	check_dir(lx, dir_part(lx, path), at);
	if (pp->nbufs >= PP_MAX_INCLUDE)
		lex_fail(lx, at, E_IMPORT, "imports nested deeper than %d files",
			 PP_MAX_INCLUDE);
	{	/* one file, however the paths to it are written */
		char *real = realpath(path, NULL);

		if (real) {
			path = arena_strdup(lx->arena, real);
			free(real);
		}
	}
	f = pp_open_file(lx, path, at);
	if (!f)
		lex_fail(lx, at, E_IMPORT, "import: cannot read %s", path);
	for (int i = 0; i <= pp->nbufs; i++) {
		int file = i < pp->nbufs ? pp->bufs[i].file : lx->file;

		if (file == f->file)
			lex_fail(lx, at, E_IMPORT,
				 "import cycle: %s imports itself, through the files that import it",
				 path);
	}
	if (f->read)
		return;		/* imported once */
	f->read = true;
	pp->included += f->len;
	if (pp->included > PP_MAX_INCLUDED)
		lex_fail(lx, at, E_IMPORT,
			 "the imported files hold more than %d bytes",
			 PP_MAX_INCLUDED);
	pp_push(lx, f->text, f->len, f->file, f->dir);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .bt and .h files of DIR, pushed last first so that they are read
 * in name order. */
static void import_dir(struct lexer *lx, const char *dir, struct loc at)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	int n = 0, cap = 0;

	if (!d)
		lex_fail(lx, at, E_IMPORT, "import: cannot read the directory %s: %s",
			 dir, strerror(errno));
	check_dir(lx, dir, at);
	while ((e = readdir(d))) {
		if (!ends_with(e->d_name, ".bt") && !ends_with(e->d_name, ".h"))
			continue;
		if (n == cap)
			names = xrealloc(names, sizeof(*names) *
					 (size_t)(cap = cap ? 2 * cap : 8));
		names[n++] = arena_strdup(lx->arena, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), by_name);
	for (int i = n - 1; i >= 0; i--)
		import_file(lx, pp_join(lx, dir, names[i]), at);
	free(names);
}

void import_path(struct lexer *lx, const char *name, struct loc at)
{
	const char *path;
	struct stat st;

	if (!*name || strlen(name) >= PATH_MAX)
		lex_fail(lx, at, E_IMPORT, "import: %s path",
			 *name ? "too long a" : "an empty");
	path = pp_join(lx, lx->pp->dir, name);
	if (lx->pp->o->root && name[0] == '/')
		lex_fail(lx, at, E_IMPORT, "import: %s: outside the allowed tree",
			 name);
	if (stat(path, &st))
		lex_fail(lx, at, E_IMPORT, "import \"%s\": %s (%s)", name,
			 strerror(errno), path);
	if (S_ISDIR(st.st_mode))
		import_dir(lx, path, at);
	else
		import_file(lx, path, at);
}
