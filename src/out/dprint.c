/* dprint.c - what sonde dtrace prints DTrace's way: the aggregations at
 * exit (D's variables, the maps without '@', are never printed). */
#include "out/printer.h"

void pr_dt_all_aggs(struct printer *pr)
{
	struct compiler *c = pr->c;

	for (int i = 0; i < c->nmaps; i++) {
		struct mapinfo *m = c->maps[i];

		if (m->name[0] != '@')
			continue;
		fputc('\n', pr->out);
		pr_map(pr, m, 0, 0);
	}
}
