/* probes.h - probe specifications: parse "interval:s:1" and friends,
 * expand wildcards, and describe each attach point for cg and attach. */
#ifndef SONDE_PROBES_H
#define SONDE_PROBES_H

#include "base/compiler.h"

/* Expand one attach point node into *OUT (arena array) and *N specs.
 * Reports an E_PROBE error and returns -1 when it is malformed. */
int probes_expand(struct compiler *c, struct node *ap,
		  struct probe_spec **out, int *n);

/* Are all of AST's probes BEGIN, END, interval or iter, read from the
 * attach points' text as probes_expand() reads it?  So that the loader
 * can size the ring buffer before the script is compiled. */
bool probes_timer_only(const struct program *ast);

/* Call FN with each software and hardware probe name matching PATTERN
 * (fnmatch; NULL for all), for -l. */
void probes_list_perf(void (*fn)(void *arg, const char *line), void *arg,
		      const char *pattern);

#endif
