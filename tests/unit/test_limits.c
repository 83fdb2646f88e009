/* test_limits.c - unit tests for what keeps any script's compile small:
 * the name table of base/arena.c (many names, found in constant time),
 * read_file_max() on a file that never ends, and the script-size error
 * of parse_program() with its location and its message cut.
 *
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "lang/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void names(void)
{
	struct arena a = { 0 };
	struct strmap m = { 0 };
	static int vals[100000];
	int found = 0, misses = 0;

	check(strmap_get(&m, "x") == NULL, "an empty table finds nothing");
	for (int i = 0; i < 100000; i++)
		strmap_put(&m, &a, arena_printf(&a, "$v%d", i), &vals[i]);
	for (int i = 0; i < 100000; i++) {
		char name[32];

		snprintf(name, sizeof(name), "$v%d", i);
		found += strmap_get(&m, name) == &vals[i];
		snprintf(name, sizeof(name), "@v%d", i);
		misses += strmap_get(&m, name) == NULL;
	}
	check(found == 100000 && m.len == 100000, "100000 names, each found");
	check(misses == 100000, "names never put are not found");
	strmap_put(&m, &a, "$v7", &vals[0]);
	check(strmap_get(&m, "$v7") == &vals[0] && m.len == 100000,
	      "putting a name again replaces its value");
	strmap_put(&m, &a, "", &vals[1]);
	check(strmap_get(&m, "") == &vals[1], "the empty name is a name");
	arena_free(&a);
}

static void endless_file(void)
{
	char *buf = NULL;
	size_t len = 0;
	int rc = read_file_max("/dev/zero", &buf, &len, 100001);

	check(rc == 0 && len == 100001 && buf && buf[len] == 0,
	      "read_file_max stops at its limit, NUL-terminated");
	free(buf);
}

/* Compile SRC of LEN bytes; the first line of the diagnostics in OUT. */
static struct program *parse(const char *src, size_t len, char *out,
			     size_t cap, struct arena *a)
{
	struct diag d;
	FILE *f = fmemopen(out, cap, "w");
	struct program *p;

	memset(out, 0, cap);
	memset(&d, 0, sizeof(d));
	d.file = "t.bt";
	d.src = src;
	d.srclen = len;
	d.out = f;
	p = parse_program(src, len, a, &d, NULL);
	fclose(f);
	return p;
}

static void script_size(void)
{
	size_t len = SCRIPT_MAX_SIZE + 1;
	char *src = malloc(len + 1);
	char out[4096];
	struct arena a = { 0 };
	size_t i;

	/* "BEGIN { }" lines: valid all through, only too long */
	for (i = 0; i < len; i++)
		src[i] = "BEGIN { }\n"[i % 10];
	src[len] = 0;
	check(parse(src, len, out, sizeof(out), &a) == NULL,
	      "a script one byte over the limit is refused");
	check(strstr(out, "t.bt:104858:7: error[E_LIMIT]: the script is longer than 1048576 bytes") == out,
	      "the error is at the first byte past the limit");
	arena_free(&a);
	check(parse(src, SCRIPT_MAX_SIZE - 6, out, sizeof(out), &a) != NULL,
	      "a script just under the limit parses");
	arena_free(&a);

	/* a probe name of 500 KB: its message is cut in the middle */
	memset(src, 'x', 500000);
	memcpy(src, "BEGIN", 5);
	memcpy(src + 500000, " { }", 5);
	check(parse(src, 500004, out, sizeof(out), &a) != NULL,
	      "a huge probe name parses (probes.c refuses it)");
	arena_free(&a);
	memcpy(src, "BEGIN { $", 9);
	memcpy(src + 500000, " }\n", 4);
	check(parse(src, 500003, out, sizeof(out), &a) == NULL &&
	      strstr(out, "error[E_LIMIT]: name longer than 255 bytes"),
	      "a huge variable name is refused");
	check(strlen(out) < 1000, "and its diagnostic stays short");
	arena_free(&a);
	free(src);
}

int main(void)
{
	names();
	endless_file();
	script_size();
	return check_summary();
}
