/* fuzz_format.c - fuzz target: tracefs format files through the
 * format parser (tracefs.c), then through the compile of a script that
 * reads every field the parser accepted.
 *
 * The input is parsed from memory with tp_parse_format(), as the exact
 * bytes (no NUL after them).  When it yields fields, it is also written
 * as the format of the one event fz:ev of a private tracefs tree (a
 * directory made once under $TMPDIR, removed at exit), and a script
 * reading each field as its kind allows is compiled against that tree
 * through tp_list(), tp_read_format(), sema and cg: the path a real
 * format takes.
 */
#include "fuzz.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile.h"
#include "bpf/asm.h"
#include "catalog/tracefs.h"
#include "base/util.h"

#define MAX_FIELDS 16

static FILE *devnull;
static char root[256], fmt_path[300];
static volatile size_t sink;

static void remove_tree(void)
{
	char p[300];
	static const char *const parts[] = {
		"/events/fz/ev/format", "/events/fz/ev", "/events/fz", "/events", "",
	};

	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		snprintf(p, sizeof(p), "%s%s", root, parts[i]);
		if (i == 0)
			unlink(p);
		else
			rmdir(p);
	}
}

static void setup(void)
{
	const char *tmp = getenv("TMPDIR");
	char p[300];

	if (devnull)
		return;
	devnull = fopen("/dev/null", "w");
	snprintf(root, sizeof(root), "%s/sonde-fuzz-format.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!devnull || !mkdtemp(root))
		abort();
	snprintf(p, sizeof(p), "%s/events", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/events/fz", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/events/fz/ev", root);
	mkdir(p, 0700);
	snprintf(fmt_path, sizeof(fmt_path), "%s/events/fz/ev/format", root);
	atexit(remove_tree);
}

static bool put_format(const uint8_t *data, size_t size)
{
	FILE *f = fopen(fmt_path, "wb");
	bool ok;

	if (!f)
		return false;
	ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

static bool is_ident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* "tracepoint:fz:ev { @f0 = args->NAME; ... }": each field read as its
 * kind allows (sema refuses raw arrays, so they are left out). */
static char *script_for(const struct tp_format *f)
{
	/* a field's line names it at most twice, and names are cut at 200 */
	size_t cap = 64 + (size_t)f->nfields * (2 * 200 + 64), len = 0;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	len += (size_t)snprintf(s + len, cap - len, "tracepoint:fz:ev {\n");
	for (int i = 0; i < f->nfields && i < MAX_FIELDS; i++) {
		const struct tp_field *fl = &f->fields[i];
		const char *name = fl->name;

		if (!is_ident(name) || strlen(name) > 200 || fl->kind == TPF_ARRAY)
			continue;
		if (fl->kind == TPF_DATALOC || (fl->kind == TPF_PTR && fl->is_char_ptr))
			len += (size_t)snprintf(s + len, cap - len,
						"\t@f%d = str(args->%s);\n", i, name);
		else if (fl->kind == TPF_INT)
			len += (size_t)snprintf(s + len, cap - len,
						"\t@f%d[args->%s] = sum(args->%s);\n",
						i, name, name);
		else
			len += (size_t)snprintf(s + len, cap - len,
						"\t@f%d = args->%s;\n", i, name);
	}
	snprintf(s + len, cap - len, "}\n");
	return s;
}

static void compile_text(const char *text)
{
	struct compiler c;

	compiler_init(&c, "fuzz.bt", text, strlen(text));
	c.diag.out = devnull;
	c.tracefs = root;
	c.btf_failed = true;	/* tracepoints need no kernel types */
	if (!compile(&c, COMPILE_CODE))
		for (int i = 0; i < c.nprogs; i++)
			asm_dump(devnull, &c, &c.progs[i]);
	compiler_free(&c);
}

int fuzz_format(const uint8_t *data, size_t size)
{
	struct arena a = { 0 };
	struct tp_format f;
	char *text;

	setup();
	memset(&f, 0, sizeof(f));
	if (tp_parse_format(&a, (const char *)data, size, &f) == 0) {
		for (int i = 0; i < f.nfields; i++) {
			struct type *t = tp_field_type(&a, &f.fields[i]);

			sink += (size_t)(t != NULL) + strlen(f.fields[i].ctype) +
				strlen(f.fields[i].decl);
		}
		if (f.nfields && put_format(data, size) &&
		    (text = script_for(&f))) {
			compile_text(text);
			free(text);
		}
	}
	arena_free(&a);
	return 0;
}

FUZZ_ENTRY(fuzz_format)
