/* probe.c - the registry of probe kinds, and the expansion of an
 * attach point's text into specs: $N and $# replaced by the positional
 * parameters, the text split at ':', the type (or its short name)
 * looked up, and the kind's expand operation called with the fields.
 * BEGIN and END are bare words, in any case. */
#include "probe/kinds.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <regex.h>
#include <string.h>
#include <strings.h>

#include "catalog/info.h"
#include "lang/ast.h"
#include "lang/dprobe.h"

/* The registry: one row per kind, indexed by enum probe_kind. */
static const struct probe_ops *const kinds[PK_NKINDS] = {
	[PK_BEGIN] = &probe_begin_ops,
	[PK_END] = &probe_end_ops,
	[PK_INTERVAL] = &probe_interval_ops,
	[PK_PROFILE] = &probe_profile_ops,
	[PK_SOFTWARE] = &probe_software_ops,
	[PK_HARDWARE] = &probe_hardware_ops,
	[PK_TRACEPOINT] = &probe_tracepoint_ops,
	[PK_RAWTP] = &probe_rawtp_ops,
	[PK_WATCHPOINT] = &probe_watchpoint_ops,
	[PK_ITER] = &probe_iter_ops,
	[PK_UPROBE] = &probe_uprobe_ops,
	[PK_URETPROBE] = &probe_uretprobe_ops,
	[PK_KPROBE] = &probe_kprobe_ops,
	[PK_KRETPROBE] = &probe_kretprobe_ops,
	[PK_FENTRY] = &probe_fentry_ops,
	[PK_FEXIT] = &probe_fexit_ops,
	[PK_LSM] = &probe_lsm_ops,
	[PK_USDT] = &probe_usdt_ops,
	[PK_ASYNCWATCH] = &probe_asyncwatch_ops,
	[PK_WATCHARG] = &probe_watcharg_ops,
	[PK_WATCHSETUP] = &probe_watchsetup_ops,
	[PK_SELF] = &probe_self_ops,
	[PK_TEST] = &probe_test_ops,
	[PK_BENCH] = &probe_bench_ops,
};

const struct probe_ops *probe_kind_ops(enum probe_kind k)
{
	return k < PK_NKINDS ? kinds[k] : NULL;
}

static bool is(const char *s, size_t n, const char *name)
{
	return name && strlen(name) == n && !strncmp(s, name, n);
}

const struct probe_ops *probe_ops_named(const char *type, size_t n)
{
	for (int k = 0; k < PK_NKINDS; k++) {
		const struct probe_ops *o = kinds[k];

		/* BEGIN and END have no TYPE:... form */
		if (o->stage == STAGE_BEGIN || o->stage == STAGE_END ||
		    (o->flags & PF_MADE))
			continue;
		if (is(type, n, o->name) || is(type, n, o->alias) ||
		    is(type, n, o->alias2))
			return o;
	}
	return NULL;
}

/* Split SPEC at ':' into at most MAX fields (arena copies). */
static int split(struct compiler *c, const char *spec, char **f, int max)
{
	int n = 0;
	const char *p = spec;

	for (;;) {
		const char *q = strchr(p, ':');
		size_t len = q ? (size_t)(q - p) : strlen(p);

		if (n == max)
			return max + 1;
		f[n++] = arena_strndup(&c->arena, p, len);
		if (!q)
			return n;
		p = q + 1;
	}
}

/* Replace $N and $# in a probe's text by the positional parameters
 * (a missing one by nothing), as bpftrace does. */
static const char *substitute(struct compiler *c, const char *text)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out;

	if (!strchr(text, '$'))
		return text;
	for (int i = 0; i < c->nparams; i++)
		cap += strlen(c->params[i]) * 2;
	cap += 32;
	out = arena_alloc(&c->arena, cap * 4);
	for (const char *p = text; *p;) {
		if (p[0] == '$' && p[1] == '#') {
			len += (size_t)sprintf(out + len, "%d", c->nparams);
			p += 2;
		} else if (p[0] == '$' && isdigit((unsigned char)p[1])) {
			long k = strtol(p + 1, (char **)&p, 10);

			if (k >= 1 && k <= c->nparams) {
				size_t l = strlen(c->params[k - 1]);

				if (k <= 64)
					c->params_used |= 1ULL << (k - 1);
				if (len + l + 1 < cap * 4) {
					memcpy(out + len, c->params[k - 1], l);
					len += l;
				}
			}
		} else {
			out[len++] = *p++;
		}
	}
	out[len] = 0;
	return out;
}

/* BEGIN or END alone, in any case. */
static const struct probe_ops *bare_word(const char *text)
{
	if (!strcasecmp(text, "BEGIN"))
		return kinds[PK_BEGIN];
	if (!strcasecmp(text, "END"))
		return kinds[PK_END];
	return NULL;
}

/* The kind X's first field names, or NULL after an error. */
static const struct probe_ops *kind_of(struct probe_exp *x, const char *text)
{
	const struct probe_ops *o;

	if (bare_word(x->f[0])) {
		probe_error(x, "%s takes nothing after it: write just %s",
			    x->f[0], x->f[0]);
		return NULL;
	}
	o = probe_ops_named(x->f[0], strlen(x->f[0]));
	if (!o) {
		if (x->nf == 1)
			probe_error(x, "unknown probe '%s' (expected BEGIN, END or TYPE:...)",
				    text);
		else
			probe_error(x, "unknown probe type '%s'", x->f[0]);
		return NULL;
	}
	/* interval alone: its own message, of a missing unit and count */
	if (x->nf == 1 && o->kind != PK_INTERVAL) {
		probe_error(x, "probe type '%s' needs a target, as in %s:NAME",
			    x->f[0], x->f[0]);
		return NULL;
	}
	return o;
}

/* --probe-filter: keep the specs whose names match, and BEGIN, END. */
static void filter(struct compiler *c, struct probe_exp *x)
{
	int k = 0;

	for (int i = 0; i < x->n; i++)
		if (x->v[i].ops->stage == STAGE_BEGIN ||
		    x->v[i].ops->stage == STAGE_END ||
		    !regexec(c->probe_filter, x->v[i].name, 0, NULL, 0))
			x->v[k++] = x->v[i];
	x->n = k;
}

/* Does a run of C's mode keep probes of kind O?  --test and --bench
 * run BEGIN, their own probes and END; a trace ignores test and bench
 * probes. */
static bool kept(const struct compiler *c, const struct probe_ops *o)
{
	if (o->stage == STAGE_BEGIN || o->stage == STAGE_END)
		return true;
	if (o->kind == PK_TEST)
		return c->run_mode == RUN_TEST;
	if (o->kind == PK_BENCH)
		return c->run_mode == RUN_BENCH;
	return c->run_mode == RUN_TRACE;
}

int probe_expand(struct compiler *c, struct node *ap,
		 struct probe_spec **out, int *n, const char **missing)
{
	struct probe_exp x;
	char *f[8];

	memset(&x, 0, sizeof(x));
	x.c = c;
	x.loc = ap->loc;
	x.text = substitute(c, ap->name);
	x.ddesc = c->lang_d ? ap->tyname : NULL;
	x.f = f;
	*out = NULL;
	*n = 0;
	x.ops = bare_word(x.text);
	if (x.ops) {
		struct probe_spec *ps = probe_add(&x);

		/* today's bpftrace calls them begin and end */
		ps->name = c->dialect_017 ? x.ops->name :
			   x.ops->stage == STAGE_BEGIN ? "begin" : "end";
	} else {
		x.nf = split(c, x.text, f, 7);
		x.ops = kind_of(&x, ap->name);
		if (!x.ops)
			return -1;
		/* test and bench probes are checked when ignored too */
		if (!kept(c, x.ops) && x.ops->stage != STAGE_TEST &&
		    x.ops->stage != STAGE_BENCH)
			return 0;
		if (x.ops->expand(&x)) {
			if (!x.missing)
				return -1;
			if (missing) {
				*missing = x.missing;
				return 1;
			}
			diag_error(&c->diag, x.loc, E_PROBE, "%s", x.missing);
			return -1;
		}
		/* whether its programs may sleep (faulting reads) is a
		 * feature of the catalogue, asked once; never in the fuzz
		 * targets' fixed catalogue */
		if ((x.ops->flags & PF_SLEEP) && c->sleepable_uprobe < 0)
			c->sleepable_uprobe = !c->tracefs &&
					      info_sleepable_uprobe();
	}
	if (!kept(c, x.ops))
		return 0;
	if (c->probe_filter)
		filter(c, &x);
	*out = x.v;
	*n = x.n;
	return 0;
}

struct probe_spec *probe_merge(struct compiler *c, struct probe_spec *v,
			       int n, unsigned need, const char *text,
			       int *used)
{
	bool per_site = need & MERGE_PER_SITE;
	struct probe_spec *m;
	int k = 1;

	*used = 1;
	if (n >= 2 && per_site && v[0].ops->merge && c->verbose)
		fprintf(stderr, "sonde: %s: one program per probe: the block reads each one's own arguments\n",
			text);
	if (n < 2 || per_site || !v[0].ops->merge)
		return NULL;
	/* a run of one kind, in one file for user-space kinds: a
	 * uprobe_multi link holds one file's offsets */
	while (k < n && v[k].ops == v[0].ops &&
	       (!v[0].path || (v[k].path && !strcmp(v[k].path, v[0].path))))
		k++;
	if (k < 2 || !(m = v[0].ops->merge(c, v, k, need, text)))
		return NULL;
	*used = m->nmulti ? m->nmulti : k;
	return m;
}

/* Does N call a function that sends a record each time it runs? */
static bool sends(const struct node *n)
{
	static const char *const calls[] = {
		"printf", "print", "time", "join", "system", "cat", "clear",
		"zero",
	};

	if (!n)
		return false;
	if (n->kind == N_CALL)
		for (size_t i = 0; i < ARRAY_SIZE(calls); i++)
			if (!strcmp(n->name, calls[i]))
				return true;
	if (sends(n->a) || sends(n->b) || sends(n->c))
		return true;
	for (int i = 0; i < n->nargs; i++)
		if (sends(n->args[i]))
			return true;
	return false;
}

bool probe_quiet(const struct program *ast)
{
	for (struct node *p = ast->probes; p; p = p->next) {
		if (!sends(p->a) && !sends(p->b))
			continue;
		for (int i = 0; i < p->nargs; i++) {
			const char *s = p->args[i]->name;
			const struct probe_ops *o = bare_word(s);

			if (!o)
				o = probe_ops_named(s, strcspn(s, ":"));
			if (!o || !(o->flags & PF_TIMER))
				return false;
		}
	}
	return true;
}

const char *probe_d_field(struct arena *a, const struct probe_spec *ps,
			  int field)
{
	const char *d = ps->ddesc ? ps->ddesc : "";

	/* a USDT probe's provider: its note's (prov*::: matched it) */
	if (field == 0 && !strncmp(ps->name, "usdt:", 5)) {
		const char *end = strrchr(ps->name, ':'), *p = end;

		while (p > ps->name && p[-1] != ':')
			p--;
		if (end && p > ps->name + 5)
			return arena_strndup(a, p, (size_t)(end - p));
	}
	/* a USDT probe's function, the one holding it; a pid probe's,
	 * the function's plainest name (go for _go, probe/uprobe.c) */
	if (ps->func && (field == 2 || field == 4) &&
	    (!strncmp(ps->name, "usdt:", 5) || !strncmp(ps->name, "uprobe:", 7) ||
	     !strncmp(ps->name, "uretprobe:", 10)))
		return field == 2 ? ps->func :
		       arena_printf(a, "%s:%s", ps->func,
				    d_probe_field(a, d, ps->name, 3));
	return d_probe_field(a, d, ps->name, field);
}
