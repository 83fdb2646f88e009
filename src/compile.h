/* compile.h - the compile: a script's text to assembled programs, one
 * phase after the other (lang/ parses, sema/ checks, bpf/ generates and
 * assembles).  Each call runs the phases up to the one asked, from
 * where the previous call stopped, so that the command line can act
 * between them (start the ring buffer once the script parses, list a
 * checked script's probes, dump its tree). */
#ifndef SONDE_COMPILE_H
#define SONDE_COMPILE_H

#include "base/compiler.h"

enum compile_phase {
	COMPILE_NONE,
	COMPILE_PARSE,	/* c->ast */
	COMPILE_CHECK,	/* probes expanded, types, maps, events */
	COMPILE_CODE,	/* c->progs, assembled */
};

/* 0, or -1 after errors (reported through c->diag). */
int compile(struct compiler *c, enum compile_phase upto);

#endif
