/* dtrace.h - sonde dtrace: provider definitions (.d files) to a header
 * of typed probe macros (-h) and an object of semaphores (-G). */
#ifndef SONDE_DTRACE_H
#define SONDE_DTRACE_H

#include <stdio.h>

#include "base/util.h"

#define DT_MAX_ARGS 12

struct dt_probe {
	const char *name;	/* as declared: request__start */
	int nargs;
	const char *types[DT_MAX_ARGS];	/* C types: "const char *" */
	int line;
};

struct dt_provider {
	const char *name;
	struct dt_probe *probes;
	int nprobes;
};

/* Parse the text of a provider definition ("provider p { probe
 * n(int, char *); };", comments and # lines skipped) into *OUT and *N
 * (arena arrays).  On error returns -1 after printing FILE:LINE: why
 * to ERR. */
int dt_parse(struct arena *a, const char *file, const char *text,
	     struct dt_provider **out, int *n, FILE *err);

/* Write the header for PROVS to F; GUARD names its include guard. */
void dt_write_header(FILE *f, const char *dfile, const char *guard,
		     const struct dt_provider *provs, int n);

/* Write C defining the semaphores of PROVS to F. */
void dt_write_semaphores(FILE *f, const char *dfile,
			 const struct dt_provider *provs, int n);

/* dtobj.c: the N objects at PATHS, built with DTrace's <sys/sdt.h> or
 * its dtrace -h headers (calls to __dtrace_PROV___NAME()), rewritten in
 * place: probe calls become NOPs with .note.stapsdt notes; is-enabled
 * calls stay, to the functions dt_write_semaphores() defines.  0, or -1
 * after printing why to ERR. */
int dt_rewrite_objects(char *const *paths, int n, const struct dt_provider *provs,
		       int nprovs, FILE *err);

/* `sonde dtrace ARGS`: ARGV[0] is "dtrace".  Returns the exit status. */
int dtrace_main(int argc, char **argv);

#endif
