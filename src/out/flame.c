/* flame.c - an interactive SVG flame graph of folded stacks.
 *
 * The document is self-contained: the frames as SVG shapes, a style
 * sheet and a short script, nothing loaded from elsewhere.  Opened in
 * a browser (directly, or through <object> or <iframe>; an <img> runs
 * no script and shows the still picture) it offers:
 *
 *   - a tooltip per frame (<title>): "name (N samples, P%)", or
 *     "name (N, P%)" for sums, P the share of its section's total;
 *   - the same text in the details line at the bottom, on hover;
 *   - click a frame to zoom: it fills the width, the frames above it
 *     (its callees) widen with it, its ancestors stay, full width and
 *     paler, everything else in its section hides; "Reset zoom" at the
 *     top left, Escape, or a click on the root frame undoes it;
 *   - "Search" at the top right asks for a regular expression, paints
 *     the matching frames magenta and shows in each section's heading
 *     what share of its total they cover; a second click clears it;
 *   - deep stacks make the page tall, so it opens scrolled to the
 *     bottom, where the roots are.
 *
 * Layout.  Each graph (one per map) is a section with a heading, the
 * sections one below the other.  Within a section the root frame
 * ("all": every stack) lies along the bottom and each frame's callees
 * sit on top of it, so stacks grow upward, as in flamegraph.pl's
 * default.  A frame's width is its share of the section's total; the
 * children of a frame are ordered by name, since a flame graph merges
 * samples and is not a timeline.  Frames narrower than MIN_W pixels
 * are left out, with all above them, which bounds the size of the file
 * (a zoom cannot bring them back).  The colour of a frame comes from a
 * hash of its name: one function has one colour everywhere, in the red
 * to yellow range of the usual "hot" flame graph palette.
 *
 * Names are drawn in a monospace font so that the cut to the frame's
 * width can be computed here (and by the script after a zoom) from the
 * number of characters.  Text is escaped for XML; bytes that are not
 * well-formed UTF-8, and control bytes, are shown as "\xNN", so that
 * the document stays well-formed whatever a process or string holds.
 */
#include "out/flame.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define WIDTH 1200.0	/* the document's width, pixels */
#define PAD 10.0	/* left and right margin */
#define TOP 34.0	/* the heading and the controls */
#define SEC_HEAD 22.0	/* a section's heading */
#define SEC_GAP 14.0	/* between sections */
#define BOTTOM 28.0	/* the details line */
#define FRAME_H 16.0	/* a row of frames; each rect is 1 less */
#define MIN_W 0.1	/* narrower frames are left out */
#define CHAR_W 7.3	/* a character of the 12px monospace font, with
			 * a little to spare (DejaVu and Liberation Mono
			 * are 7.2) */

/* A frame of the merged tree; children are linked by index. */
struct node {
	const char *name;
	uint64_t value;		/* the counts of every stack through it */
	int child, last, next;	/* first and last child, next sibling;
				 * -1: none */
};

struct tree {
	struct node *v;
	int n;
	int depth;		/* the deepest row drawn, 0 = the root */
	double scale;		/* pixels per count */
};

/* The length of the character at P if it can appear in the document
 * as it is: printable ASCII, or well-formed UTF-8 (no overlong form,
 * no surrogate) of a character XML allows; 0 otherwise. */
static int xml_char(const unsigned char *p, const unsigned char *end)
{
	unsigned cp;
	int n;

	if (p[0] < 0x80)
		return p[0] >= 0x20 && p[0] != 0x7f;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1fu;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0fu;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07u;
	else
		return 0;
	if (end - p < n)
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
		return 0;
	return n;
}

/* S as the characters a reader sees: how many. */
static size_t shown_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	size_t n = 0;

	while (p < end) {
		int k = xml_char(p, end);

		n += k ? 1 : 4;
		p += k ? k : 1;
	}
	return n;
}

/* S as XML character data, at most MAX characters as shown; a longer
 * S is cut to MAX - 2 and "..". */
static void put_text(FILE *f, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	bool cut = shown_len(s) > max;
	size_t budget = cut ? max - 2 : max;

	while (p < end) {
		int k = xml_char(p, end);
		size_t w = k ? 1 : 4;

		if (w > budget)
			break;
		budget -= w;
		if (!k)
			fprintf(f, "\\x%02x", *p);
		else if (*p == '&')
			fputs("&amp;", f);
		else if (*p == '<')
			fputs("&lt;", f);
		else if (*p == '>')
			fputs("&gt;", f);
		else if (*p == '"')
			fputs("&quot;", f);
		else if (*p == '\'')
			fputs("&apos;", f);
		else
			fwrite(p, 1, (size_t)k, f);
		p += k ? k : 1;
	}
	if (cut)
		fputs("..", f);
}

static void put_all(FILE *f, const char *s)
{
	put_text(f, s, (size_t)-1);
}

/* FNV-1a of the name: the same function gets the same colour in
 * every graph and every run. */
static void colour(const char *name, unsigned rgb[3])
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	rgb[0] = 205 + h % 51;
	rgb[1] = 70 + (h >> 8) % 160;
	rgb[2] = 30 + (h >> 20) % 55;
}

static int add_node(struct tree *t, const char *name)
{
	struct node *n = &t->v[t->n];

	n->name = name;
	n->value = 0;
	n->child = n->last = n->next = -1;
	return t->n++;
}

/* The stacks are sorted frame by frame (fold_merge), so the stacks
 * through one frame are consecutive and a frame's child, if it exists
 * yet, is its last one. */
static void build(struct tree *t, const struct fold *f)
{
	size_t nodes = 1;

	for (int i = 0; i < f->n; i++)
		nodes += (size_t)f->v[i].n;
	t->v = xcalloc(nodes, sizeof(*t->v));
	t->n = 0;
	add_node(t, "all");
	for (int i = 0; i < f->n; i++) {
		const struct fold_stack *s = &f->v[i];
		int cur = 0;

		t->v[0].value += s->count;
		for (int j = 0; j < s->n; j++) {
			int c = t->v[cur].last;

			if (c < 0 || strcmp(t->v[c].name, s->frames[j])) {
				c = add_node(t, s->frames[j]);
				if (t->v[cur].last < 0)
					t->v[cur].child = c;
				else
					t->v[t->v[cur].last].next = c;
				t->v[cur].last = c;
			}
			t->v[c].value += s->count;
			cur = c;
		}
	}
}

static void measure(struct tree *t, int i, int depth)
{
	if ((double)t->v[i].value * t->scale < MIN_W)
		return;
	if (depth > t->depth)
		t->depth = depth;
	for (int c = t->v[i].child; c >= 0; c = t->v[c].next)
		measure(t, c, depth + 1);
}

static void draw(FILE *f, const struct tree *t, int i, double x, int depth,
		 double bottom, const char *unit)
{
	const struct node *n = &t->v[i];
	double w = (double)n->value * t->scale;
	double y = bottom - (depth + 1) * FRAME_H;
	double cx = x;
	long fit = (long)((w - 6) / CHAR_W);
	unsigned rgb[3];

	if (w < MIN_W)
		return;
	colour(n->name, rgb);
	fputs("<g class=\"f\"><title>", f);
	put_all(f, n->name);
	fprintf(f, " (%" PRIu64 "%s%s, %.2f%%)</title>", n->value,
		unit ? " " : "", unit ? unit : "",
		100.0 * (double)n->value / (double)t->v[0].value);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"rgb(%u,%u,%u)\"/>",
		x, y, w, FRAME_H - 1, rgb[0], rgb[1], rgb[2]);
	if (fit >= 3) {
		fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + 11.5);
		put_text(f, n->name, (size_t)fit);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
	for (int c = n->child; c >= 0; c = t->v[c].next) {
		draw(f, t, c, cx, depth + 1, bottom, unit);
		cx += (double)t->v[c].value * t->scale;
	}
}

/* The script's words are in the comment at the top of this file.  It
 * reads each frame's first geometry from the document and keeps it
 * on the element (ox, ow, oy), with the name (the title up to its
 * last " ("), and recomputes the cut of the names as draw() does. */
static const char script[] =
"(function () {\n"
"\"use strict\";\n"
"var NS = \"http://www.w3.org/2000/svg\", CHAR_W = 7.3;\n"
"var details = document.getElementById(\"details\");\n"
"var reset = document.getElementById(\"reset\");\n"
"var search = document.getElementById(\"search\");\n"
"var graphs = [].slice.call(document.querySelectorAll(\"g.graph\"));\n"
"var frames = [].slice.call(document.querySelectorAll(\"g.f\"));\n"
"frames.forEach(function (g) {\n"
"\tvar r = g.querySelector(\"rect\"), t = g.querySelector(\"title\").textContent;\n"
"\tg.ox = +r.getAttribute(\"x\");\n"
"\tg.ow = +r.getAttribute(\"width\");\n"
"\tg.oy = +r.getAttribute(\"y\");\n"
"\tg.label = t.slice(0, t.lastIndexOf(\" (\"));\n"
"});\n"
"function place(g, x, w) {\n"
"\tvar r = g.querySelector(\"rect\"), t = g.querySelector(\"text\");\n"
"\tvar n = Math.floor((w - 6) / CHAR_W), s = g.label;\n"
"\tr.setAttribute(\"x\", x.toFixed(2));\n"
"\tr.setAttribute(\"width\", w.toFixed(2));\n"
"\tif (n < 3)\n"
"\t\ts = \"\";\n"
"\telse if (s.length > n)\n"
"\t\ts = s.slice(0, n - 2) + \"..\";\n"
"\tif (!t && s) {\n"
"\t\tt = document.createElementNS(NS, \"text\");\n"
"\t\tt.setAttribute(\"y\", (g.oy + 11.5).toFixed(1));\n"
"\t\tg.appendChild(t);\n"
"\t}\n"
"\tif (t) {\n"
"\t\tt.setAttribute(\"x\", (x + 3).toFixed(2));\n"
"\t\tt.textContent = s;\n"
"\t}\n"
"}\n"
"/* Z fills its section's width; the root (its first frame) gives\n"
" * the section's left edge and width.  Callees are above (smaller y)\n"
" * and within Z's span, ancestors below and around it. */\n"
"function zoom(z) {\n"
"\tvar graph = z.parentNode, root = graph.querySelector(\"g.f\");\n"
"\tvar k = root.ow / z.ow, e = 0.01;\n"
"\tframes.forEach(function (g) {\n"
"\t\tif (g.parentNode !== graph)\n"
"\t\t\treturn;\n"
"\t\tg.classList.remove(\"hide\", \"anc\");\n"
"\t\tif (g.oy <= z.oy && g.ox >= z.ox - e && g.ox + g.ow <= z.ox + z.ow + e) {\n"
"\t\t\tplace(g, root.ox + (g.ox - z.ox) * k, g.ow * k);\n"
"\t\t} else if (g.oy > z.oy && g.ox <= z.ox + e && g.ox + g.ow >= z.ox + z.ow - e) {\n"
"\t\t\tplace(g, root.ox, root.ow);\n"
"\t\t\tg.classList.add(\"anc\");\n"
"\t\t} else {\n"
"\t\t\tg.classList.add(\"hide\");\n"
"\t\t}\n"
"\t});\n"
"\tgraph.zoomed = z !== root;\n"
"\treset.classList.toggle(\"hide\", !graphs.some(function (s) { return s.zoomed; }));\n"
"}\n"
"function unzoom() {\n"
"\tgraphs.forEach(function (s) {\n"
"\t\tvar root = s.querySelector(\"g.f\");\n"
"\t\tif (root)\n"
"\t\t\tzoom(root);\n"
"\t});\n"
"}\n"
"/* The share of each section's total the matching frames cover: the\n"
" * union of their spans (a match inside a match counts once). */\n"
"function find(re) {\n"
"\tgraphs.forEach(function (s) {\n"
"\t\tvar root = s.querySelector(\"g.f\"), m = s.querySelector(\".m\");\n"
"\t\tvar spans = [], end = -1, sum = 0;\n"
"\t\tframes.forEach(function (g) {\n"
"\t\t\tvar hit = re !== null && re.test(g.label);\n"
"\t\t\tif (g.parentNode !== s)\n"
"\t\t\t\treturn;\n"
"\t\t\tg.classList.toggle(\"match\", hit);\n"
"\t\t\tif (hit)\n"
"\t\t\t\tspans.push([g.ox, g.ox + g.ow]);\n"
"\t\t});\n"
"\t\tspans.sort(function (a, b) { return a[0] - b[0]; });\n"
"\t\tspans.forEach(function (p) {\n"
"\t\t\tif (p[1] > end) {\n"
"\t\t\t\tsum += p[1] - Math.max(p[0], end);\n"
"\t\t\t\tend = p[1];\n"
"\t\t\t}\n"
"\t\t});\n"
"\t\tif (m)\n"
"\t\t\tm.textContent = re === null || !root ? \"\" :\n"
"\t\t\t\t\" (matched \" + (100 * sum / root.ow).toFixed(2) + \"%)\";\n"
"\t});\n"
"}\n"
"function ask() {\n"
"\tvar term, re;\n"
"\tif (search.classList.contains(\"on\")) {\n"
"\t\tfind(null);\n"
"\t\tsearch.classList.remove(\"on\");\n"
"\t\tsearch.textContent = \"Search\";\n"
"\t\treturn;\n"
"\t}\n"
"\tterm = window.prompt(\"Search for frames matching (a regular expression):\", \"\");\n"
"\tif (!term)\n"
"\t\treturn;\n"
"\ttry {\n"
"\t\tre = new RegExp(term);\n"
"\t} catch (err) {\n"
"\t\twindow.alert(String(err));\n"
"\t\treturn;\n"
"\t}\n"
"\tfind(re);\n"
"\tsearch.classList.add(\"on\");\n"
"\tsearch.textContent = \"Clear search\";\n"
"}\n"
"document.addEventListener(\"mouseover\", function (ev) {\n"
"\tvar g = ev.target.closest ? ev.target.closest(\"g.f\") : null;\n"
"\tdetails.textContent = g ? g.querySelector(\"title\").textContent : \" \";\n"
"});\n"
"document.addEventListener(\"click\", function (ev) {\n"
"\tvar g = ev.target.closest ? ev.target.closest(\"g.f\") : null;\n"
"\tif (g)\n"
"\t\tzoom(g);\n"
"\telse if (ev.target === reset)\n"
"\t\tunzoom();\n"
"\telse if (ev.target === search)\n"
"\t\task();\n"
"});\n"
"document.addEventListener(\"keydown\", function (ev) {\n"
"\tif (ev.key === \"Escape\")\n"
"\t\tunzoom();\n"
"});\n"
"/* deep stacks make a tall page: start where the roots are */\n"
"window.addEventListener(\"load\", function () {\n"
"\twindow.scrollTo(0, document.documentElement.scrollHeight);\n"
"});\n"
"})();\n";

static const char style[] =
"text { font-family: monospace; font-size: 12px; fill: #000; }\n"
"#heading { font-size: 16px; }\n"
".sec { font-size: 13px; font-weight: bold; }\n"
"#reset, #search { fill: #0645ad; cursor: pointer; }\n"
"g.f { cursor: pointer; }\n"
"g.f text { pointer-events: none; }\n"
"g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
".anc rect { opacity: 0.55; }\n"
".match rect { fill: rgb(230,0,230); }\n"
".hide { display: none; }\n";

int flame_svg(FILE *f, const struct flame_graph *g, int n, const char *title)
{
	struct tree *trees = xcalloc((size_t)(n ? n : 1), sizeof(*trees));
	double height = TOP + BOTTOM, y;
	int rc = 0;

	for (int i = 0; i < n; i++) {
		struct tree *t = &trees[i];
		uint64_t total = fold_total(g[i].stacks);

		build(t, g[i].stacks);
		t->scale = total ? (WIDTH - 2 * PAD) / (double)total : 0;
		t->depth = -1;
		if (total)
			measure(t, 0, 0);
		height += SEC_HEAD + (t->depth + 1) * FRAME_H + SEC_GAP;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
		WIDTH, height, WIDTH, height);
	fprintf(f, "<style>\n%s</style>\n", style);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fbf8f0\"/>\n",
		WIDTH, height);
	fprintf(f, "<text id=\"heading\" x=\"%.0f\" y=\"22\" text-anchor=\"middle\">",
		WIDTH / 2);
	put_all(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<text id=\"reset\" class=\"hide\" x=\"%.0f\" y=\"22\">Reset zoom</text>\n",
		PAD);
	fprintf(f, "<text id=\"search\" x=\"%.0f\" y=\"22\" text-anchor=\"end\">Search</text>\n",
		WIDTH - PAD);
	y = TOP;
	for (int i = 0; i < n; i++) {
		struct tree *t = &trees[i];
		uint64_t total = t->v[0].value;
		double bottom = y + SEC_HEAD + (t->depth + 1) * FRAME_H;

		fputs("<g class=\"graph\">\n", f);
		fprintf(f, "<text class=\"sec\" x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">",
			WIDTH / 2, y + 15);
		put_all(f, g[i].title);
		if (g[i].unit)
			fprintf(f, ": %" PRIu64 " ", total);
		else
			fprintf(f, ": total %" PRIu64, total);
		put_all(f, g[i].unit ? g[i].unit : "");
		fputs(total ? "" : " (nothing to draw)", f);
		fputs("<tspan class=\"m\"></tspan></text>\n", f);
		if (total)
			draw(f, t, 0, PAD, 0, bottom, g[i].unit);
		fputs("</g>\n", f);
		y = bottom + SEC_GAP;
	}
	fprintf(f, "<text id=\"details\" x=\"%.0f\" y=\"%.0f\"> </text>\n", PAD,
		height - 10);
	fprintf(f, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n",
		script);
	fputs("</svg>\n", f);
	for (int i = 0; i < n; i++)
		free(trees[i].v);
	free(trees);
	if (fflush(f) == EOF || ferror(f))
		rc = errno ? -errno : -EIO;
	return rc;
}
