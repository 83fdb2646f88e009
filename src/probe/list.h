/* list.h - sonde -l. */
#ifndef SONDE_LIST_H
#define SONDE_LIST_H

#include <stdbool.h>
#include "base/compiler.h"

/* Print every probe matching PATTERN (fnmatch over the full name,
 * e.g. 'tracepoint:sched:*'; NULL for all).  VERBOSE adds the fields of
 * tracepoints and the arguments of usdt probes ('usdt:PATH:*', PATH
 * resolved as in scripts, through PID's maps if PID > 0).  Returns 0,
 * or 1 after printing why a usdt file cannot be listed. */
int list_probes(const char *pattern, bool verbose, int pid);
/* Print the probes the parsed script C would attach. */
void list_script(struct compiler *c);

#endif
