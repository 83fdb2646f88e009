/* list.h - sonde -l. */
#ifndef SONDE_LIST_H
#define SONDE_LIST_H

#include <stdbool.h>
#include "compiler.h"

/* Print every probe matching PATTERN (fnmatch over the full name,
 * e.g. 'tracepoint:sched:*'; NULL for all).  VERBOSE adds the fields of
 * tracepoints.  Returns 0. */
int list_probes(const char *pattern, bool verbose);
/* Print the probes the parsed script C would attach. */
void list_script(struct compiler *c);

#endif
