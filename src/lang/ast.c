/* ast.c - node names, the --dump=ast printer, copies of trees and D's
 * declarations looked up. */
#include "lang/ast.h"
#include "lang/lex.h"
#include "base/types.h"

#include <string.h>

static const char *const kind_names[] = {
#define X(k, d) d,
#include "lang/ast.def"
#undef X
};

const char *node_kind_name(enum node_kind k)
{
	return (unsigned)k < N_NKINDS ? kind_names[k] : "?";
}

static void dump_str(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 32 || c >= 127)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void dump(FILE *f, const struct node *n, int ind)
{
	if (!n)
		return;
	fprintf(f, "%*s", ind * 2, "");
	switch (n->kind) {
	case N_INT:
		fprintf(f, "int %llu", (unsigned long long)n->ival);
		break;
	case N_STR:
		fputs("string ", f);
		dump_str(f, n->name, n->len);
		break;
	case N_VAR: case N_MAP: case N_BUILTIN: case N_CALL: case N_ATTACH:
		fprintf(f, "%s %s", node_kind_name(n->kind), n->name);
		break;
	case N_POSITIONAL:
		fprintf(f, "$%llu", (unsigned long long)n->ival);
		break;
	case N_BINOP: case N_UNOP: case N_ASSIGN:
		fprintf(f, "%s %s", node_kind_name(n->kind), tok_spelling(n->op));
		break;
	case N_INCDEC:
		fprintf(f, "%s %s", n->prefix ? "pre" : "post",
			tok_spelling(n->op));
		break;
	case N_FIELD:
		fprintf(f, "field %s%s", tok_spelling(n->op), n->name);
		break;
	case N_CAST: case N_SIZEOF:
		fprintf(f, "%s %s", node_kind_name(n->kind),
			n->tyname ? n->tyname : "");
		for (int i = 0; i < n->tyname_ptr; i++)
			fputc('*', f);
		if (n->tydim)
			fprintf(f, n->tydim > 0 ? "[%d]" : "[]", n->tydim);
		break;
	case N_UNROLL:
		fputs("unroll", f);
		break;
	case N_LET:
		fputs("let", f);
		if (n->tyname)
			fprintf(f, " %s", n->tyname);
		for (int i = 0; i < n->tyname_ptr; i++)
			fputc('*', f);
		if (n->ival)
			fprintf(f, "[%llu]", (unsigned long long)n->ival);
		break;
	case N_OFFSETOF:
		fprintf(f, "offsetof %s%s%s", n->tyname ? n->tyname : "",
			n->tyname ? ", " : "", n->name);
		break;
	case N_TUPLE:
		fputs(n->fnames ? "record" : "tuple", f);
		for (int i = 0; n->fnames && i < n->nargs; i++)
			fprintf(f, "%s%s", i ? ", " : " ", n->fnames[i]);
		break;
	default:
		fputs(node_kind_name(n->kind), f);
	}
	if (n->kind == N_BUILTIN && n->is_const)	/* a named constant */
		fprintf(f, " = %lld", (long long)n->cval);
	if (n->ty)
		fprintf(f, " :: %s", type_name(n->ty));
	fputc('\n', f);
	if (n->kind == N_PROBE) {
		for (int i = 0; i < n->nargs; i++)
			dump(f, n->args[i], ind + 1);
		if (n->a) {
			fprintf(f, "%*spredicate\n", (ind + 1) * 2, "");
			dump(f, n->a, ind + 2);
		}
		dump(f, n->b, ind + 1);
		return;
	}
	dump(f, n->a, ind + 1);
	dump(f, n->b, ind + 1);
	dump(f, n->c, ind + 1);
	for (int i = 0; i < n->nargs; i++)
		dump(f, n->args[i], ind + 1);
}

struct node *ast_dvar(const struct program *p, const char *name)
{
	for (struct node *v = p->dvars; v; v = v->next)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}

struct node *ast_clone(struct arena *a, const struct node *n, long *made)
{
	struct node *c;

	if (!n)
		return NULL;
	c = arena_alloc(a, sizeof(*c));
	*c = *n;
	(*made)++;
	c->a = ast_clone(a, n->a, made);
	c->b = ast_clone(a, n->b, made);
	c->c = ast_clone(a, n->c, made);
	if (n->nargs) {
		c->args = arena_alloc(a, sizeof(*c->args) * (size_t)n->nargs);
		for (int i = 0; i < n->nargs; i++)
			c->args[i] = ast_clone(a, n->args[i], made);
	}
	return c;
}

void ast_dump(FILE *f, const struct program *p)
{
	fputs("Program\n", f);
	for (const struct map_decl *d = p->mapdecls; d; d = d->next)
		fprintf(f, " let %s = %s(%llu)\n", d->name, d->kind,
			(unsigned long long)d->size);
	for (const struct node *n = p->probes; n; n = n->next)
		dump(f, n, 1);
}
