/* test_dtrace.c - unit tests for the provider parser of src/dtrace/dtrace.c:
 * the types it keeps, the parameter names it drops, and the line of
 * each error.
 *
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "dtrace/dtrace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Parse TEXT; the error text (or "") in ERR. */
static int parse(struct arena *a, const char *text, struct dt_provider **p,
		 int *n, char *err, size_t cap)
{
	FILE *f = fmemopen(err, cap, "w");
	int rc;

	memset(err, 0, cap);
	rc = dt_parse(a, "t.d", text, p, n, f);
	fclose(f);
	return rc;
}

static void good(void)
{
	static const char text[] =
		"/* comment\n   two lines */\n"
		"#pragma D attributes Evolving/Evolving/Common provider myapp provider\n"
		"provider myapp {\n"
		"\tprobe request__start(int, const char *); // id, path\n"
		"\tprobe request__done(int id, uint64_t ns, struct req *r, char **argv);\n"
		"\tprobe tick(void);\n"
		"\tprobe none();\n"
		"\tprobe quals(const uint32_t, unsigned, unsigned long long n, const char * const p);\n"
		"\tprobe mapped(int i, char *s) : (char *s, int i, int i);\n"
		"};\n"
		"provider other { probe x(struct req); }\n";
	struct arena a = { 0 };
	struct dt_provider *p;
	char err[512];
	int n, rc = parse(&a, text, &p, &n, err, sizeof(err));

	check(rc == 0 && n == 2, "two providers parse");
	if (rc || n != 2) {
		printf("    %s", err);
		arena_free(&a);
		return;
	}
	check(!strcmp(p[0].name, "myapp") && p[0].nprobes == 6, "myapp has 6 probes");
	check(p[0].probes[5].nargs == 2 && !strcmp(p[0].probes[5].types[1], "char *"),
	      "translated arguments (: (...)) read, the native ones kept");
	check(!strcmp(p[0].probes[0].name, "request__start") &&
	      p[0].probes[0].nargs == 2 &&
	      !strcmp(p[0].probes[0].types[0], "int") &&
	      !strcmp(p[0].probes[0].types[1], "const char *") &&
	      p[0].probes[0].line == 5, "request__start(int, const char *) at line 5");
	check(p[0].probes[1].nargs == 4 &&
	      !strcmp(p[0].probes[1].types[0], "int") &&
	      !strcmp(p[0].probes[1].types[1], "uint64_t") &&
	      !strcmp(p[0].probes[1].types[2], "struct req *") &&
	      !strcmp(p[0].probes[1].types[3], "char **"), "parameter names dropped");
	check(p[0].probes[2].nargs == 0 && p[0].probes[3].nargs == 0,
	      "(void) and () have no arguments");
	check(p[0].probes[4].nargs == 4 &&
	      !strcmp(p[0].probes[4].types[0], "const uint32_t") &&
	      !strcmp(p[0].probes[4].types[1], "unsigned") &&
	      !strcmp(p[0].probes[4].types[2], "unsigned long long") &&
	      !strcmp(p[0].probes[4].types[3], "const char * const"),
	      "qualifiers kept, names dropped");
	check(p[1].nprobes == 1 && !strcmp(p[1].probes[0].types[0], "struct req"),
	      "struct req kept whole");
	arena_free(&a);
}

/* TEXT must fail with an error naming line LINE and containing WHAT. */
static void bad(const char *text, int line, const char *what)
{
	struct arena a = { 0 };
	struct dt_provider *p;
	char err[512], want[64], msg[700];
	int n, rc = parse(&a, text, &p, &n, err, sizeof(err));

	if (line)
		snprintf(want, sizeof(want), "t.d:%d: error: ", line);
	else
		snprintf(want, sizeof(want), "t.d: error: ");
	snprintf(msg, sizeof(msg), "error for %s: want '%s...%s', got '%s'",
		 what, want, what, err);
	check(rc == -1 && !strncmp(err, want, strlen(want)) && strstr(err, what), msg);
	arena_free(&a);
}

static void errors(void)
{
	bad("", 0, "no provider");
	bad("provider p {\n probe a(int)\n};\n", 3, "';' expected");
	bad("provider p {\n probe a(int;\n};\n", 2, "')' expected");
	bad("provider p {\n probe a(int,);\n};\n", 2, "argument type expected");
	bad("provider p {\n probe a(char [4]);\n};\n", 2, "array");
	bad("provider p {\n probe a(int) @;\n};\n", 2, "unexpected '@'");
	bad("provider p {\n probe a(int);\n probe a(long);\n};\n", 3, "declared twice");
	bad("provider p {\n probe a(int, int, int, int, int, int, int, int, int, int, int, int, int);\n};\n",
	    2, "more than 12");
	bad("provider p {\n probe a(int);\n", 3, "'probe' or '}' expected");
	bad("probe a(int);\n", 1, "'provider' expected");
	bad("provider {\n}\n", 1, "provider name expected");
	bad("provider p { probe a(int); };\nprovider p { probe b(int); };\n", 0,
	    "provider p defined twice");
	bad("provider p {\n /* unterminated\n", 2, "'*/' expected");
	bad("provider p {\n probe a(int) : ;\n};\n", 2, "'(' expected after ':'");
	bad("provider p {\n probe a(int) : (int,);\n};\n", 2, "argument type expected");
}

static void header(void)
{
	struct arena a = { 0 };
	struct dt_provider *p;
	char err[256], *text = NULL;
	size_t len = 0;
	int n;
	FILE *f;

	parse(&a, "provider my_app { probe request__start(int, const char *); probe tick(); };",
	      &p, &n, err, sizeof(err));
	f = open_memstream(&text, &len);
	dt_write_header(f, "x.d", "GUARD_H", p, n);
	fclose(f);
	check(strstr(text, "#define MY_APP_REQUEST_START(arg0, arg1)") != NULL,
	      "macro MY_APP_REQUEST_START(arg0, arg1)");
	check(strstr(text, "#define MY_APP_REQUEST_START_ENABLED() SONDE_ENABLED(my_app, request__start)") != NULL,
	      "MY_APP_REQUEST_START_ENABLED()");
	check(strstr(text, "\"my_app\", \"request__start\"") != NULL,
	      "note name request__start, as written (SystemTap's dtrace)");
	check(strstr(text, "const char *_sonde_t1 = (arg1);") != NULL,
	      "typed local");
	check(strstr(text, "#define MY_APP_TICK() ") != NULL, "MY_APP_TICK()");
	check(strstr(text, "#ifndef SONDE_SDT_H") != NULL, "sdt.h embedded");
	check(strstr(text, "#include <stdint.h>") == NULL, "no stdint.h without _t types");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	dt_write_semaphores(f, "x.d", p, n);
	fclose(f);
	check(strstr(text, "unsigned short my_app_request__start_semaphore") != NULL &&
	      strstr(text, "unsigned short my_app_tick_semaphore") != NULL,
	      "semaphores defined");
	free(text);
	arena_free(&a);
}

int main(void)
{
	good();
	errors();
	header();
	return check_summary();
}
