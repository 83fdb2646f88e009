/* flame.h - interactive SVG flame graphs of folded stacks (--flamegraph). */
#ifndef SONDE_FLAME_H
#define SONDE_FLAME_H

#include <stdio.h>

#include "out/fold.h"

/* One graph: a section of the SVG. */
struct flame_graph {
	const char *title;		/* its heading: the map's name */
	const char *unit;		/* "samples" for counts; NULL: plain
					 * numbers (sums) */
	const struct fold *stacks;	/* merged (fold_merge) */
};

/* Write an SVG document holding the N graphs, one below the other,
 * under the heading TITLE.  Returns 0 or -errno (writing F failed). */
int flame_svg(FILE *f, const struct flame_graph *g, int n, const char *title);

#endif
