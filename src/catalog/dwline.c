/* dwline.c - source lines to addresses, from a program's DWARF line
 * table (libdwfl, the module dwarf.c opens), for uprobes on a source
 * location: uprobe:/bin/prog@file.c:LINE[:COL], as a debugger sets a
 * breakpoint there. */
#include "catalog/dwarf.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_addr(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Is line DL (of unit CU) in FILE: the same absolute path, or a name
 * whose last components are FILE's? */
static bool same_file(Dwarf_Line *dl, Dwarf_Die *cu, const char *file)
{
	const char *src = dwarf_linesrc(dl, NULL, NULL), *dir = NULL;
	Dwarf_Attribute at;
	char full[4096];
	size_t fl = strlen(file), sl;

	if (!src)
		return false;
	if (src[0] != '/' && cu &&
	    dwarf_attr(cu, DW_AT_comp_dir, &at))
		dir = dwarf_formstring(&at);
	while (!strncmp(src, "./", 2))
		src += 2;
	snprintf(full, sizeof(full), "%s%s%s", dir ? dir : "", dir ? "/" : "",
		 src);
	if (file[0] == '/')
		return !strcmp(full, file);
	sl = strlen(full);
	return sl >= fl && !strcmp(full + sl - fl, file) &&
	       (sl == fl || full[sl - fl - 1] == '/');
}

int dwarf_line_addrs(struct compiler *c, const char *path, const char *file,
		     int line, int col, uint64_t **addrs)
{
	Dwfl_Module *mod;
	Dwfl_Line **lines = NULL;
	size_t nlines = 0;
	const char *base;
	uint64_t *v;
	int err, n = 0;

	*addrs = NULL;
	mod = dwarf_module(c, path, &err);
	if (!mod)
		return err;
	if (line <= 0 || col < 0)
		return 0;
	/* libdwfl finds the lines of files of FILE's base name (and of
	 * the nearest line after LINE when none has that number); which
	 * of them are FILE's is same_file()'s question */
	base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	if (dwfl_module_getsrc_file(mod, base, line, col, &lines, &nlines))
		return 0;
	v = arena_alloc(&c->arena, sizeof(*v) * (nlines ? nlines : 1));
	for (size_t i = 0; i < nlines; i++) {
		Dwarf_Addr bias, addr;
		Dwarf_Line *dl = dwfl_dwarf_line(lines[i], &bias);
		bool stmt = false;
		int ln = 0, cl = 0;

		if (!dl || dwarf_lineno(dl, &ln) || ln != line ||
		    dwarf_linebeginstatement(dl, &stmt) || !stmt ||
		    dwarf_lineaddr(dl, &addr))
			continue;
		if (col && (dwarf_linecol(dl, &cl) || cl != col))
			continue;
		if (!same_file(dl, dwfl_linecu(lines[i]), file))
			continue;
		v[n++] = addr;
	}
	free(lines);
	qsort(v, (size_t)n, sizeof(*v), by_addr);
	*addrs = v;
	return n;
}
