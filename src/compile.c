/* compile.c - the phases of a compile, in order. */
#include "compile.h"

#include "config.h"

#include "bpf/cg.h"
#include "catalog/btf.h"
#include "catalog/kconst.h"
#include "lang/dparse.h"
#include "lang/parse.h"
#include "sema/sema.h"

static bool constant(void *arg, const char *name, int64_t *value)
{
	(void)arg;
	return kconst_lookup(name, value);
}

static bool enumerator(void *arg, const char *name, int64_t *value)
{
	return btf_enum_value(arg, name, value);
}

/* The script through the preprocessor and the parser.  Predefined:
 * __linux__, the architecture's macro, __SONDE__, and, as bpftrace
 * does, BPFTRACE_HAVE_BTF when the kernel has BTF. */
static struct program *parse(struct compiler *c)
{
	const char *predef[4];
	struct pp_opts o = {
		.dir = c->srcdir,
		.incdirs = c->incdirs, .nincdirs = c->nincdirs,
		.includes = c->includes, .nincludes = c->nincludes,
		.defines = c->pp_defines,
		.predef = predef,
		.root = c->include_root,
		.verbose = c->verbose,
		.stdlib = true,
		.constant = constant,
		.enumerator = enumerator,
		.arg = c,
	};
	const char **kdirs = NULL;

	predef[o.npredef++] = "__linux__";
	predef[o.npredef++] = "__SONDE__";
#if defined(__x86_64__)
	predef[o.npredef++] = "__x86_64__";
#elif defined(__aarch64__)
	predef[o.npredef++] = "__aarch64__";
#endif
	if (btf_available(c))
		predef[o.npredef++] = "BPFTRACE_HAVE_BTF";
	if (!c->include_root)
		o.nkdirs = kconst_kernel_dirs(c, c->kernel_src, &kdirs);
	o.kdirs = kdirs;
	if (c->lang_d) {
		struct program *prog;

		o.stdlib = false;
		o.dzdefs = c->dt_zdefs;
		prog = d_parse_program(c->src, c->srclen, &c->arena, &c->diag, &o);
		return prog && !d_lower(c, prog) ? prog : NULL;
	}
	return parse_program(c->src, c->srclen, &c->arena, &c->diag, &o);
}

/* D: a macro argument the script never references is an error, as
 * dtrace makes it (a mistyped command line, not silently ignored). */
static int d_unused_args(struct compiler *c)
{
	for (int k = 1; k <= c->nparams && k <= 64; k++) {
		struct loc at = { 0 };	/* line 0: dtrace names none */

		if (c->params_used & (1ULL << (k - 1)))
			continue;
		diag_error_d(&c->diag, at, E_POSITIONAL, "D_MACRO_UNUSED",
			     "extraneous argument '%s' ($%d) is not referenced",
			     c->params[k - 1], k);
		return -1;
	}
	return 0;
}

int compile(struct compiler *c, enum compile_phase upto)
{
	if (c->phase < COMPILE_PARSE && upto >= COMPILE_PARSE) {
		c->ast = parse(c);
		if (!c->ast || config_apply(c, c->ast->config) ||
		    macro_expand(c->ast, &c->arena, &c->diag))
			return -1;
		c->phase = COMPILE_PARSE;
	}
	if (c->phase < COMPILE_CHECK && upto >= COMPILE_CHECK) {
		if (sema_check(c) ||
		    (c->lang_d && !c->dt_argref && d_unused_args(c)))
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
