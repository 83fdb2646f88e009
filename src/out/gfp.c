/* gfp.c - printf's %gr: GFP allocation flags named as the kernel names
 * them (GFP_KERNEL|__GFP_ZERO).  The names and masks are this kernel's
 * own: the print format of tracepoint kmem:mm_page_alloc holds the
 * table the kernel prints with (show_gfp_flags(): composite masks
 * first, then single flags), each mask a C constant expression, which
 * is evaluated here once, the first time a %gr is printed. */
#include "out/format.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "catalog/tracefs.h"

struct gfp_name {
	uint64_t mask;
	char *name;
};

static struct gfp_name *names;
static int nnames;
static bool loaded;

/* A cursor over a constant expression of the format's text. */
struct expr {
	const char *p;
	bool bad;
};

static void blank(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static uint64_t or_expr(struct expr *e);

/* A number (1UL, 0x400u), a parenthesised expression, a cast such as
 * "(unsigned long)" or "( gfp_t)" before one, or ~ of one. */
static uint64_t unary(struct expr *e)
{
	blank(e);
	if (*e->p == '~') {
		e->p++;
		return ~unary(e);
	}
	if (*e->p == '(') {
		const char *q = e->p + 1;
		uint64_t v;

		while (*q == ' ' || *q == '_' || isalnum((unsigned char)*q))
			q++;
		if (*q == ')' && q > e->p + 1 &&
		    !isdigit((unsigned char)e->p[1 + strspn(e->p + 1, " ")])) {
			e->p = q + 1;	/* a cast: the types are all integers */
			return unary(e);
		}
		e->p++;
		v = or_expr(e);
		blank(e);
		if (*e->p != ')')
			e->bad = true;
		else
			e->p++;
		return v;
	}
	if (isdigit((unsigned char)*e->p)) {
		char *end;
		uint64_t v = strtoull(e->p, &end, 0);

		e->p = end;
		while (*e->p == 'u' || *e->p == 'U' || *e->p == 'l' ||
		       *e->p == 'L')
			e->p++;
		return v;
	}
	e->bad = true;
	return 0;
}

static uint64_t shift_expr(struct expr *e)
{
	uint64_t v = unary(e);

	for (;;) {
		blank(e);
		if (!strncmp(e->p, "<<", 2) || !strncmp(e->p, ">>", 2)) {
			bool left = e->p[0] == '<';
			uint64_t r;

			e->p += 2;
			r = unary(e);
			v = r > 63 ? 0 : left ? v << r : v >> r;
		} else {
			return v;
		}
	}
}

static uint64_t and_expr(struct expr *e)
{
	uint64_t v = shift_expr(e);

	for (;;) {
		blank(e);
		if (*e->p != '&' || e->p[1] == '&')
			return v;
		e->p++;
		v &= shift_expr(e);
	}
}

static uint64_t or_expr(struct expr *e)
{
	uint64_t v = and_expr(e);

	for (;;) {
		blank(e);
		if (*e->p != '|' || e->p[1] == '|')
			return v;
		e->p++;
		v |= and_expr(e);
	}
}

/* The entries {MASK, "NAME"} of the __print_flags() of the gfp_flags
 * field in format text TEXT. */
static void parse_table(const char *text)
{
	const char *p = strstr(text, "__print_flags(REC->gfp_flags");
	int cap = 0;

	if (!p || !(p = strstr(p, "\"|\",")))
		return;
	p += 4;
	for (;;) {
		struct expr e;
		const char *q;
		uint64_t mask;

		while (isspace((unsigned char)*p) || *p == ',')
			p++;
		if (*p != '{')
			return;
		e.p = p + 1;
		e.bad = false;
		mask = or_expr(&e);
		blank(&e);
		if (e.bad || *e.p != ',')
			return;
		p = e.p + 1;
		while (isspace((unsigned char)*p))
			p++;
		if (*p != '"' || !(q = strchr(p + 1, '"')))
			return;
		if (nnames == cap) {
			cap = cap ? 2 * cap : 32;
			names = xrealloc(names, sizeof(*names) * (size_t)cap);
		}
		names[nnames].mask = mask;
		names[nnames].name = xmalloc((size_t)(q - p));
		memcpy(names[nnames].name, p + 1, (size_t)(q - p - 1));
		names[nnames].name[q - p - 1] = 0;
		nnames++;
		p = strchr(q, '}');
		if (!p)
			return;
		p++;
	}
}

static void load(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	char path[512], *text = NULL;
	size_t len;
	const char *dir = NULL, *why;
	bool mounted;

	loaded = true;
	for (size_t i = 0; i < ARRAY_SIZE(dirs) && !text; i++) {
		snprintf(path, sizeof(path), "%s/events/kmem/mm_page_alloc/format",
			 dirs[i]);
		if (read_file_max(path, &text, &len, 1 << 20))
			text = NULL;
	}
	if (!text && (dir = tracefs_dir(&why, &mounted))) {
		snprintf(path, sizeof(path), "%s/events/kmem/mm_page_alloc/format",
			 dir);
		if (read_file_max(path, &text, &len, 1 << 20))
			text = NULL;
	}
	if (text)
		parse_table(text);
	free(text);
}

void fmt_gfp(FILE *f, uint64_t flags)
{
	bool first = true;

	if (!loaded)
		load();
	for (int i = 0; i < nnames && flags; i++) {
		uint64_t m = names[i].mask;

		if (!m || (flags & m) != m)
			continue;
		fprintf(f, "%s%s", first ? "" : "|", names[i].name);
		first = false;
		flags &= ~m;
	}
	if (flags)
		fprintf(f, "%s%#llx", first ? "" : "|", (unsigned long long)flags);
}
