/* cg.h - code generation: the checked script's probes to assembled BPF
 * programs (compiler.progs, bpf/prog.h).  The cg files share cg_int.h. */
#ifndef SONDE_CG_H
#define SONDE_CG_H

#include "base/compiler.h"

/* One program per attach point (or per merged set: probe_merge);
 * 0, or -1 after errors. */
int cg_program(struct compiler *c);

#endif
