/* test_flame.c - unit tests for src/out/fold.c and src/out/flame.c: frame
 * names made safe for folded lines, stacks merged and ordered, the
 * lines written, and the SVG's frames (merged tree, widths, cut
 * names, tooltips, XML escaping, frames too narrow to draw).  Prints
 * one line per failed check and "N passed, N failed"; exits 1 if any
 * check failed.  tests/run/flamegraph_svg.sh checks the SVG in a
 * browser.
 */
#include "out/flame.h"
#include "out/fold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int npass, nfail;

static void ok(const char *what, int cond)
{
	if (cond) {
		npass++;
		return;
	}
	nfail++;
	printf("FAIL %s\n", what);
}

static void same(const char *what, const char *got, const char *want)
{
	if (!strcmp(got, want)) {
		npass++;
		return;
	}
	nfail++;
	printf("FAIL %s:\n  got  \"%s\"\n  want \"%s\"\n", what, got, want);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Add the stack of the ';'-separated FRAMES with count N. */
static void add(struct fold *f, const char *frames, uint64_t n)
{
	struct fold_frames ff = { NULL, 0, 0 };
	char *copy = strdup(frames), *save = NULL;

	for (char *p = strtok_r(copy, ";", &save); p; p = strtok_r(NULL, ";", &save))
		fold_push(&ff, p, strlen(p), NULL);
	fold_add(f, &ff, n);
	free(copy);
}

static char *folded(const struct fold *f, const char *root)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	fold_write(f, m, root);
	fclose(m);
	return buf;
}

static char *svg(const struct fold *f, const char *unit)
{
	struct flame_graph g = { "@map", unit, f };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	ok("flame_svg returns 0", flame_svg(m, &g, 1, "Flame <graph>") == 0);
	fclose(m);
	return buf;
}

static void test_push(void)
{
	struct fold_frames ff = { NULL, 0, 0 };
	struct fold_frames more = { NULL, 0, 0 };

	fold_push(&ff, "a;b\nc\x7f", 6, NULL);
	fold_push(&ff, "", 0, NULL);
	fold_push(&ff, "vfs_read", 3, "_[k]");
	fold_push(&ff, "x y\xff", 10, NULL);
	fold_push(&more, "z", 1, NULL);
	fold_append(&ff, &more);
	ok("five frames", ff.n == 5 && more.n == 0);
	same("';' and control bytes", ff.v[0], "a_b_c_");
	same("empty name", ff.v[1], "[empty]");
	same("N bytes and a suffix", ff.v[2], "vfs_[k]");
	same("spaces and other bytes stay", ff.v[3], "x y\xff");
	same("appended", ff.v[4], "z");
	fold_frames_free(&ff);
	fold_frames_free(&more);
}

static void test_merge(void)
{
	struct fold f = { NULL, 0, 0 };
	char *s;

	add(&f, "main;b", 1);
	add(&f, "main;a;x", 2);
	add(&f, "main;a b", 4);
	add(&f, "main;a", 8);
	add(&f, "main;b", 16);
	add(&f, "main;a;x", 32);
	fold_merge(&f);
	ok("merged to four", f.n == 4);
	ok("total", fold_total(&f) == 63);
	/* frame by frame: "a" and everything through it before "a b",
	 * though ' ' sorts before ';' in the lines */
	s = folded(&f, NULL);
	same("lines", s, "main;a 8\nmain;a;x 34\nmain;a b 4\nmain;b 17\n");
	free(s);
	s = folded(&f, "@m");
	same("lines with a root", s,
	     "@m;main;a 8\n@m;main;a;x 34\n@m;main;a b 4\n@m;main;b 17\n");
	free(s);
	fold_free(&f);
}

static void test_svg(void)
{
	struct fold f = { NULL, 0, 0 };
	char *s, *p;

	add(&f, "main;a", 1);
	add(&f, "main;a;x", 1);
	add(&f, "main;a b", 1);
	add(&f, "main;<&>\"'\xff\xc3\xa9", 1);
	add(&f, "main;\xc0\xaf\xed\xa0\x80", 2);
	add(&f, "main;b;a_function_with_a_very_long_name_indeed_yes", 2);
	add(&f, "main;tiny", 1);
	fold_merge(&f);
	/* Scale the counts so that "tiny" (1 of 888,889) is far
	 * narrower than MIN_W: 0.0013 px. */
	for (int i = 0; i < f.n; i++)
		f.v[i].count *= !strcmp(f.v[i].frames[1], "tiny") ? 1 : 111111;
	s = svg(&f, "samples");
	ok("one section, heading", strstr(s, ">@map: 888889 samples<tspan") != NULL);
	ok("title escaped", strstr(s, "<text id=\"heading\" x=\"600\" y=\"22\" text-anchor=\"middle\">Flame &lt;graph&gt;</text>") != NULL);
	ok("root frame", strstr(s, "<title>all (888889 samples, 100.00%)</title><rect x=\"10.00\" y=") != NULL);
	ok("one main", count(s, "<title>main (") == 1);
	ok("a once, with its callee x", count(s, "<title>a (222222 samples, 25.00%)") == 1 &&
	   count(s, "<title>x (") == 1);
	ok("'a b' its own frame", count(s, "<title>a b (111111 samples") == 1);
	p = strstr(s, "<title>a (222222 samples, 25.00%)</title><rect ");
	ok("width in proportion", p && strstr(p, " width=\"295.00\"") &&
	   strstr(p, " width=\"295.00\"") < strstr(p, "</g>"));
	ok("special characters escaped",
	   strstr(s, "<title>&lt;&amp;&gt;&quot;&apos;\\xffé (111111 samples") != NULL);
	ok("overlong form and surrogate shown as bytes",
	   strstr(s, "<title>\\xc0\\xaf\\xed\\xa0\\x80 (222222 samples") != NULL);
	/* 1180 / 4 = 295 px: (295 - 6) / 7.3 = 39 characters, of which
	 * 37 of the name and ".." */
	ok("a long name cut to its frame",
	   strstr(s, ">a_function_with_a_very_long_name_inde..</text>") != NULL);
	ok("its title whole",
	   strstr(s, "<title>a_function_with_a_very_long_name_indeed_yes (") != NULL);
	ok("too narrow a frame is left out", strstr(s, "tiny") == NULL);
	ok("one script, in CDATA", count(s, "<script") == 1 && count(s, "]]>") == 1 &&
	   strstr(s, "]]></script>\n</svg>\n") != NULL);
	ok("no raw '<' in a title", strstr(s, "<title>&lt;") && !strstr(s, "<title><"));
	free(s);
	fold_free(&f);

	add(&f, "main;f", 3);
	fold_merge(&f);
	s = svg(&f, NULL);
	ok("sums: total, no unit", strstr(s, ">@map: total 3<tspan") != NULL &&
	   strstr(s, "<title>f (3, 100.00%)</title>") != NULL);
	free(s);
	fold_free(&f);

	s = svg(&f, "samples");
	ok("an empty map", strstr(s, ">@map: 0 samples (nothing to draw)<tspan") != NULL &&
	   !strstr(s, "class=\"f\""));
	free(s);
}

int main(void)
{
	test_push();
	test_merge();
	test_svg();
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
