/* compile.c - the phases of a compile, in order. */
#include "compile.h"

#include "bpf/cg.h"
#include "lang/parse.h"
#include "sema/sema.h"

int compile(struct compiler *c, enum compile_phase upto)
{
	if (c->phase < COMPILE_PARSE && upto >= COMPILE_PARSE) {
		c->ast = parse_program(c->src, c->srclen, &c->arena, &c->diag);
		if (!c->ast)
			return -1;
		c->phase = COMPILE_PARSE;
	}
	if (c->phase < COMPILE_CHECK && upto >= COMPILE_CHECK) {
		if (sema_check(c))
			return -1;
		c->phase = COMPILE_CHECK;
	}
	if (c->phase < COMPILE_CODE && upto >= COMPILE_CODE) {
		if (cg_program(c))
			return -1;
		c->phase = COMPILE_CODE;
	}
	return 0;
}
