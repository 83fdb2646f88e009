/* dprobe.h - D's probe descriptions and sonde's attach points
 * (dprobe.c). */
#ifndef SONDE_DPROBE_H
#define SONDE_DPROBE_H

#include <stdio.h>
#include "base/arena.h"

/* The most attach points one description becomes (syscall::X: is the
 * entry and the return). */
#define D_SPECS_MAX 16

/* DESC ("syscall::openat:entry", "tick-1s", "pid$target::malloc:entry")
 * as sonde's attach points, into OUT[*N] (arena strings), each with the
 * description of its own in DDESC[*N] (DESC, or the one probe of a
 * provider's DESC matched: proc:::exec-success); 0, or -1 with *WHY
 * saying why it means nothing on Linux, and *DTAG dtrace's tag when
 * that is an error of its own (D_PROC_NAME), not a description that
 * matches no probe. */
int d_probe_specs(struct arena *a, const char *desc, const char **out,
		  const char **ddesc, int *n, const char **why,
		  const char **dtag);

/* D's FIELD (0 provider, 1 module, 2 function, 3 name) of the probe
 * sonde named SPEC, which the description DESC expanded to. */
const char *d_probe_field(struct arena *a, const char *desc,
			  const char *spec, int field);
/* dtrace -lv's lines after a probe's: its stability attributes and
 * the types of its args[]. */
void d_probe_describe(FILE *fp, const char *prov, const char *name);

#endif
