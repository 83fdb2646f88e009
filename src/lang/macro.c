/* macro.c - bpftrace's macros (docs/language.md, "Macros"), expanded
 * in the syntax tree after parsing, so that sema, bpf/ and out/ see
 * only ordinary nodes.  Not the C preprocessor's #define (pp_macro.c),
 * which works on tokens.
 *
 * A call NAME(ARGS), or a bare NAME when a macro of that name takes
 * no arguments, becomes a copy of the body:
 *
 *   - a $x parameter takes a scratch variable, which the body then
 *     names (by reference: the body may assign it), or, when the body
 *     never assigns it, any expression, as a bare x does (bpftrace's
 *     own tests call add_one($x) with 1 + 1);
 *   - an @x parameter takes a map, the same way;
 *   - a bare x parameter takes any expression, copied wherever the body
 *     names x (evaluated at each use);
 *   - the variables the body assigns are its own: renamed per
 *     expansion ("$y" becomes "$y#3"), they never meet the caller's;
 *   - a map the body names that is no parameter is an error.
 *
 * Used as a statement, the copy is a block; used as a value, the body
 * must end in an expression without ';', and the copy is that
 * expression, after the body's statements when there are some (an
 * N_BLOCKEXPR).  The copy's nodes take the location of the call, so
 * that an error in a macro (the standard library's too) points where
 * the script wrote it.  Arguments are expanded first, in the caller's
 * place; then the copy, with the macro on the stack that finds
 * recursion.  The standard library's macros see their own first, a
 * script's see the script's first. */
#include "lang/parse_int.h"

#include <stdlib.h>
#include <string.h>

/* Macros inside macros, and the nodes all expansions make: a macro
 * that doubles its argument, called 40 levels deep, stops here. */
#define MACRO_MAX_DEPTH 100
#define MACRO_MAX_NODES (1 << 20)

struct mx {
	struct arena *a;
	struct diag *d;
	struct strmap user, lib;	/* "NAME/N" and "NAME" -> N_MACRO */
	const struct node *stack[MACRO_MAX_DEPTH];
	int depth;
	int serial;		/* expansions made: the renaming suffix */
	long made;
	int errors;
	bool stopped;		/* a limit was hit: expand no further */
	const struct node *all;	/* the definitions, in order */
};

/* One expansion: the macro, its arguments, where it is called. */
struct inst {
	const struct node *m;
	struct node **argv;
	struct loc call;
	int serial;
};

static void walk(struct mx *x, struct node **np);

static void error(struct mx *x, struct loc loc, enum diag_tag tag,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void error(struct mx *x, struct loc loc, enum diag_tag tag,
		  const char *fmt, ...)
{
	va_list ap;

	x->errors++;
	va_start(ap, fmt);
	diag_verror(x->d, loc, tag, fmt, ap);
	va_end(ap);
}

static struct node *new_node(struct mx *x, enum node_kind k, struct loc loc)
{
	struct node *n = arena_alloc(x->a, sizeof(*n));

	n->kind = k;
	n->loc = loc;
	x->made++;
	return n;
}

static bool in_lib(const struct mx *x)
{
	return x->depth > 0 && x->stack[x->depth - 1]->prefix;
}

/* The macro NAME of NARGS arguments (-1: any, the first defined) the
 * current place sees: the library's first inside the library. */
static const struct node *lookup(struct mx *x, const char *name, int nargs)
{
	const char *key = nargs < 0 ? name :
			  arena_printf(x->a, "%s/%d", name, nargs);
	struct strmap *first = in_lib(x) ? &x->lib : &x->user;
	struct strmap *second = in_lib(x) ? &x->user : &x->lib;
	const struct node *m = strmap_get(first, key);

	return m ? m : strmap_get(second, key);
}

static void define(struct mx *x, struct node *m)
{
	struct strmap *t = m->prefix ? &x->lib : &x->user;
	const char *key = arena_printf(x->a, "%s/%d", m->name, m->nargs);
	const struct node *old = strmap_get(t, key);

	if (old) {
		error(x, m->loc, E_MACRO,
		      "macro %s with %d parameter%s is defined twice (first at %d:%d)",
		      m->name, m->nargs, m->nargs == 1 ? "" : "s",
		      old->loc.line, old->loc.col);
		return;
	}
	strmap_put(t, x->a, key, m);
	if (!strmap_get(t, m->name))
		strmap_put(t, x->a, m->name, m);
}

static int param_index(const struct inst *in, enum node_kind k,
		       const char *name)
{
	for (int i = 0; i < in->m->nargs; i++)
		if (in->m->args[i]->kind == k &&
		    !strcmp(in->m->args[i]->name, name))
			return i;
	return -1;
}

/* Where in macro IN->m a copied node comes from: AT, and, when the
 * call was itself in a macro, that expansion. */
static int expansion(struct mx *x, const struct inst *in, struct loc at)
{
	struct diag *d = x->d;
	struct diag_exp *e = arena_alloc(x->a, sizeof(*e));

	e->at = at;
	e->macro = in->m->name;
	e->up = in->call.exp;
	/* the table doubles when its length is a power of two */
	if (!(d->nexps & (d->nexps - 1))) {
		const struct diag_exp **v = arena_alloc(x->a, sizeof(*v) *
			(size_t)(d->nexps ? 2 * d->nexps : 1));

		if (d->nexps)
			memcpy(v, d->exps, sizeof(*v) * (size_t)d->nexps);
		d->exps = v;
	}
	d->exps[d->nexps++] = e;
	return d->nexps;
}

/* A plain deep copy of an argument, its locations kept. */
static struct node *clone(struct mx *x, const struct node *n)
{
	return ast_clone(x->a, n, &x->made);
}

/* The body's node N for expansion IN: parameters replaced by the
 * arguments, the body's own variables renamed, every location the
 * call's. */
static struct node *inst_copy(struct mx *x, const struct inst *in,
			      const struct node *n)
{
	struct node *c;
	int i;

	if (!n)
		return NULL;
	if (x->made > MACRO_MAX_NODES) {
		if (!x->stopped)
			error(x, in->call, E_LIMIT,
			      "macro expansions make more than %d nodes",
			      MACRO_MAX_NODES);
		x->stopped = true;
		return new_node(x, N_INT, in->call);
	}
	if (n->kind == N_BUILTIN &&
	    (i = param_index(in, N_BUILTIN, n->name)) >= 0)
		return clone(x, in->argv[i]);
	c = new_node(x, n->kind, in->call);
	*c = *n;
	c->loc = in->call;
	c->loc.exp = expansion(x, in, n->loc);
	if (n->kind == N_VAR) {
		i = param_index(in, N_VAR, n->name);
		if (i >= 0 && in->argv[i]->kind != N_VAR)
			return clone(x, in->argv[i]);
		c->name = i >= 0 ? in->argv[i]->name :
			  arena_printf(x->a, "%s#%d", n->name, in->serial);
	} else if (n->kind == N_MAP) {
		i = param_index(in, N_MAP, n->name);
		if (i >= 0) {
			c->name = in->argv[i]->name;
		} else {
			error(x, in->call, E_MACRO,
			      "macro %s uses the map %s, which is not its parameter: pass maps as @parameters",
			      in->m->name, n->name);
			diag_note(x->d, n->loc, "the map in the macro's body");
		}
	}
	c->a = inst_copy(x, in, n->a);
	c->b = inst_copy(x, in, n->b);
	c->c = inst_copy(x, in, n->c);
	if (n->nargs) {
		c->args = arena_alloc(x->a, sizeof(*c->args) * (size_t)n->nargs);
		for (i = 0; i < n->nargs; i++)
			c->args[i] = inst_copy(x, in, n->args[i]);
	}
	return c;
}

static const char *what_arg(const struct node *a)
{
	return a->kind == N_VAR ? "a scratch variable" :
	       a->kind == N_MAP ? "a map" : "an expression";
}

/* Does N (a macro's body) assign, declare, increment or loop over
 * the variable NAME? */
static bool writes_var(const struct node *n, const char *name)
{
	if (!n)
		return false;
	if ((n->kind == N_ASSIGN || n->kind == N_INCDEC || n->kind == N_LET ||
	     n->kind == N_FOR) && n->a && n->a->kind == N_VAR &&
	    !strcmp(n->a->name, name))
		return true;
	if (writes_var(n->a, name) || writes_var(n->b, name) ||
	    writes_var(n->c, name))
		return true;
	for (int i = 0; i < n->nargs; i++)
		if (writes_var(n->args[i], name))
			return true;
	return false;
}

/* The arguments fit the parameters' kinds? */
static bool check_args(struct mx *x, const struct node *m, struct node *call)
{
	bool ok = true;

	for (int i = 0; i < m->nargs; i++) {
		const struct node *p = m->args[i], *a = call->args[i];

		if (p->kind == N_VAR && a->kind != N_VAR &&
		    writes_var(m->b, p->name)) {
			error(x, a->loc, E_MACRO,
			      "macro %s assigns its parameter %s: pass a scratch variable, not %s",
			      m->name, p->name, what_arg(a));
			ok = false;
		} else if (p->kind == N_MAP && (a->kind != N_MAP || a->nargs)) {
			error(x, a->loc, E_MACRO,
			      "macro %s takes %s for %s, not %s",
			      m->name, what_arg(p), p->name, what_arg(a));
			ok = false;
		}
	}
	return ok;
}

/* Is N a call of a macro the current place sees?  *M: the macro; an
 * error (the wrong number of arguments) leaves *M NULL and says so. */
static bool is_call(struct mx *x, struct node *n, const struct node **m)
{
	int nargs = n->kind == N_CALL ? n->nargs : 0;
	const struct node *any;

	*m = NULL;
	if ((n->kind != N_CALL && n->kind != N_BUILTIN) ||
	    !(any = lookup(x, n->name, -1)))
		return false;
	*m = lookup(x, n->name, nargs);
	if (!*m) {
		char takes[128];
		size_t len = 0;
		int last = -1, count = 0;

		/* "1", "0 or 1", "0, 1 or 2": every arity of the name */
		takes[0] = 0;
		for (const struct node *d = x->all; d; d = d->next) {
			if (strcmp(d->name, n->name) || d->nargs == last)
				continue;
			count++;
			last = d->nargs;
		}
		last = -1;
		for (const struct node *d = x->all; d && len < 100; d = d->next) {
			if (strcmp(d->name, n->name) || d->nargs == last)
				continue;
			last = d->nargs;
			len += (size_t)snprintf(takes + len, sizeof(takes) - len,
						"%s%d", !len ? "" : --count == 1 ?
						" or " : ", ", d->nargs);
		}
		error(x, n->loc, E_MACRO,
		      n->kind == N_CALL ?
		      "macro %s takes %s argument%s, not %d" :
		      "macro %s takes %s argument%s: call it with them",
		      n->name, takes, !strcmp(takes, "1") ? "" : "s", nargs);
	}
	(void)any;
	return true;
}

static bool recursive(struct mx *x, const struct node *m, struct loc at)
{
	char chain[512];
	size_t len = 0;
	int i;

	for (i = 0; i < x->depth && x->stack[i] != m; i++)
		;
	if (i == x->depth && x->depth < MACRO_MAX_DEPTH)
		return false;
	if (i == x->depth) {
		error(x, at, E_LIMIT, "macros nested deeper than %d",
		      MACRO_MAX_DEPTH);
		return true;
	}
	/* names are at most LEX_MAX_NAME bytes: the last is cut, no more */
	for (; i < x->depth && len < sizeof(chain) - 80; i++) {
		len += (size_t)snprintf(chain + len, sizeof(chain) - len,
					"%s > ", x->stack[i]->name);
		if (len >= sizeof(chain))
			len = sizeof(chain) - 1;
	}
	snprintf(chain + len, sizeof(chain) - len, "%s", m->name);
	error(x, at, E_MACRO, "recursive macro call: %s", chain);
	return true;
}

/* A statement that only names a value does nothing: dropped where a
 * macro's value is not used. */
static bool inert(const struct node *e)
{
	return e->kind == N_VAR || e->kind == N_INT || e->kind == N_STR ||
	       (e->kind == N_MAP && !e->nargs);
}

/* The expansion of CALL (N_CALL or bare N_BUILTIN) of macro M: a block
 * for a statement (STMT), else a value. */
static struct node *expand(struct mx *x, const struct node *m,
			   struct node *call, bool stmt)
{
	const struct node *body = m->b;
	struct node *last = body->nargs ? body->args[body->nargs - 1] : NULL;
	bool has_value = body->ival && last && last->kind == N_EXPRSTMT;
	struct inst in = { m, call->args, call->loc, 0 };
	struct node *r;
	int n = body->nargs;

	for (int i = 0; call->kind == N_CALL && i < call->nargs; i++)
		walk(x, &call->args[i]);
	if (!check_args(x, m, call) || recursive(x, m, call->loc) ||
	    x->stopped)
		return NULL;
	if (!stmt && !has_value) {
		error(x, call->loc, E_MACRO,
		      "macro %s gives no value: its body ends with a statement (leave out the last ';' to make it the value)",
		      m->name);
		return NULL;
	}
	in.serial = ++x->serial;
	if (stmt) {
		r = new_node(x, N_BLOCK, call->loc);
		if (has_value && inert(last->a))
			n--;
	} else if (n == 1) {
		r = NULL;
	} else {
		r = new_node(x, N_BLOCKEXPR, call->loc);
	}
	if (r) {
		r->args = arena_alloc(x->a, sizeof(*r->args) * (size_t)(n ? n : 1));
		r->nargs = n;
		for (int i = 0; i < n; i++)
			r->args[i] = inst_copy(x, &in, body->args[i]);
		if (!stmt)	/* the value, not its statement */
			r->args[n - 1] = r->args[n - 1]->a;
	} else {
		r = inst_copy(x, &in, last->a);
	}
	x->stack[x->depth++] = m;
	walk(x, &r);
	x->depth--;
	return r;
}

/* Statement *SP: a macro called as a statement becomes a block. */
static void walk_stmt(struct mx *x, struct node **sp)
{
	struct node *n = *sp, *r;
	const struct node *m;

	if (n->kind == N_EXPRSTMT && is_call(x, n->a, &m)) {
		r = m ? expand(x, m, n->a, true) : NULL;
		if (r)
			*sp = r;
		return;
	}
	walk(x, sp);
}

static void walk(struct mx *x, struct node **np)
{
	struct node *n = *np, *r;
	const struct node *m;

	if (!n || x->stopped)
		return;
	/* __builtin_comm is comm, and so on: the builtin itself, which
	 * bpftrace's library macros wrap (has_cpid's is sonde's own) */
	if ((n->kind == N_BUILTIN || n->kind == N_CALL) &&
	    !strncmp(n->name, "__builtin_", 10) && n->name[10] &&
	    strcmp(n->name, "__builtin_has_cpid"))
		n->name += 10;	/* never a macro */
	else if (is_call(x, n, &m)) {
		r = m ? expand(x, m, n, false) : NULL;
		*np = r ? r : new_node(x, N_INT, n->loc);
		return;
	}
	walk(x, &n->a);
	walk(x, &n->b);
	walk(x, &n->c);
	for (int i = 0; i < n->nargs; i++) {
		if (n->kind == N_BLOCK ||
		    (n->kind == N_BLOCKEXPR && i < n->nargs - 1))
			walk_stmt(x, &n->args[i]);
		else
			walk(x, &n->args[i]);
	}
}

int macro_expand(struct program *prog, struct arena *a, struct diag *d)
{
	struct mx *x;
	int errors;

	x = xmalloc(sizeof(*x));
	memset(x, 0, sizeof(*x));
	x->a = a;
	x->d = d;
	x->all = prog->macros;
	for (struct node *m = prog->macros; m; m = m->next)
		define(x, m);
	for (struct node *p = prog->probes; p && !x->errors; p = p->next) {
		walk(x, &p->a);
		walk(x, &p->b);
	}
	errors = x->errors;
	free(x);
	return errors ? -1 : 0;
}
