/* stdlib.c - sonde's standard library: the sonde-language files of
 * src/stdlib, embedded at build time (build/stdlib.inc, made by the
 * Makefile) and read before every script, as bpftrace reads its own:
 * their macros (assert, ppid, is_err, ...) need no import.  A script's
 * macro of the same name and arity replaces the library's
 * (lang/macro.c).  Their diagnostics files are named stdlib/FILE, as
 * bpftrace names its own (errorf() in them shows that place). */
#include "lang/lex_int.h"
#include "lang/parse_int.h"

#include <string.h>

static const struct {
	const char *name;
	const char *text;
} files[] = {
#include "stdlib.inc"
};

#define STDLIB_PREFIX "stdlib/"

void stdlib_push(struct lexer *lx)
{
	/* line -1: read by no one's request, so no "included here" note */
	struct loc none = { -1, 0, 0, 0, 0, 0 };

	for (int i = (int)ARRAY_SIZE(files) - 1; i >= 0; i--) {
		size_t len = strlen(files[i].text);
		const char *name = arena_printf(lx->arena, STDLIB_PREFIX "%s",
						files[i].name);
		int file = pp_add_file(lx, name, files[i].text, len, none);

		pp_push(lx, files[i].text, len, file, ".");
	}
}

bool stdlib_file(const struct diag *d, int file)
{
	return file > 0 && file < d->nfiles &&
	       !strncmp(d->files[file].name, STDLIB_PREFIX,
			strlen(STDLIB_PREFIX));
}
