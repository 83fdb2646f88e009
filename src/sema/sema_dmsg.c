/* sema_dmsg.c - D's words for what sema finds wrong, where dtrace's
 * own messages name types and prototypes its way (tests and users grep
 * for them). */
#include "sema/sema_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lang/lex.h"

/* A type as D names it in its messages. */
const char *sema_d_type_name(const struct type *t)
{
	static const char *const s[] = { "char", "short", "", "int", "", "", "",
					 "long" };
	static const char *const u[] = { "uchar_t", "ushort_t", "", "uint_t", "",
					 "", "", "ulong_t" };

	static char buf[4][160];
	static int next;
	char *b = buf[next++ % 4];

	if (t->kind == TY_STR)
		return "string";
	if (t->kind == TY_INT && t->size >= 1 && t->size <= 8 && *s[t->size - 1])
		return t->is_signed ? s[t->size - 1] : u[t->size - 1];
	if (t->kind == TY_PTR) {	/* "int *", "struct foo *", "void *" */
		snprintf(b, sizeof(buf[0]), "%s *",
			 t->pointee ? sema_d_type_name(t->pointee) : "void");
		return b;
	}
	if (t->kind == TY_ARRAY) {	/* "int [3]" */
		snprintf(b, sizeof(buf[0]), "%s [%d]",
			 sema_d_type_name(t->of), t->nelem);
		return b;
	}
	if (t->kind == TY_STRUCT && t->sname)
		return t->sname;
	return type_name(t);
}

bool sema_d_agg_action(const char *name)
{
	return !strcmp(name, "clear") || !strcmp(name, "trunc") ||
	       !strcmp(name, "normalize") || !strcmp(name, "denormalize") ||
	       !strcmp(name, "printa");
}

bool sema_d_aggarg(struct sema *s, struct node *n, int argno)
{
	struct node *a = n->args[0];
	const char *name = n->dname ? n->dname : n->name, *what;
	char tag[32];

	if (a->kind == N_MAP && a->name[0] == '@' && !a->nargs)
		return false;
	if (a->kind == N_CALL && sema_is_agg_func(sema_func_lookup(a->name)))
		what = "void";	/* an aggregating function has no value */
	else if (a->kind == N_MAP && a->name[0] == '@')
		what = "aggregation element";
	else if (is_err(sema_expr(s, a)))
		return true;
	else
		what = sema_d_type_name(a->ty);
	/* denormalize() shares normalize()'s tag */
	snprintf(tag, sizeof(tag), "D_%s_AGGARG",
		 !strcmp(name, "denormalize") ? "normalize" : name);
	for (char *c = tag; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	DERR(s, a->loc, E_ARGS, tag,
	     "%s( ) argument #%d is incompatible with prototype:\n"
	     "\tprototype: aggregation\n\t argument: %s", name, argno, what);
	return true;
}

/* D's prototypes where they differ from bpftrace's (exit takes its
 * status), and D's message for a wrong count: "exit( ) prototype
 * mismatch: 0 args passed, 1 expected".  True after reporting. */
bool sema_d_arity(struct sema *s, struct node *n, int f)
{
	int lo = sema_func_min_args(f), hi = sema_func_max_args(f);
	const char *name = n->dname ? n->dname : n->name;
	char tag[32] = "D_PROTO_LEN";

	if (f == F_EXIT)
		lo = hi = 1;
	if (!strcmp(name, "printa"))	/* printa([fmt, ]@a, @b, ...) */
		hi = 1 << 20;
	if (!strcmp(name, "trunc"))	/* trunc(@a[, n]) */
		hi = 2;
	/* strtok(s, delim) (sema_dstr.c adds a third argument of its
	 * own once checked) */
	if (!strcmp(name, "strtok") && n->nargs < 2)
		lo = hi = 2;
	if (n->nargs >= lo && n->nargs <= hi)
		return false;
	/* (dtrace 1's D_CLEAR_PROTO, D_NORMALIZE_PROTO, ... for the
	 * actions on a whole aggregation are D_PROTO_LEN in dtrace-utils
	 * 2, whose tests sonde follows) */
	DERR(s, n->loc, E_ARGS, tag, "%s( ) prototype mismatch: %d arg%s passed, %s%d expected",
	    name, n->nargs, n->nargs == 1 ? "" : "s",
	    lo == hi ? "" : n->nargs < lo ? "at least " : "at most ",
	    n->nargs < lo ? lo : hi);
	return true;
}

bool sema_d_op_error(struct sema *s, struct node *n, int op, int unary,
		     const struct type *a, const struct type *b)
{
	const char *o = op == T_LAND ? "&&" : op == T_LOR ? "||" :
			op == -1 ? "?:" : tok_spelling(op);
	const char *ops = unary ? "an operand" : "operands";

	if (!s->c->lang_d)
		return false;
	switch (op) {
	case T_AMP: case T_PIPE: case T_CARET: case T_SHL: case T_SHR:
	case T_TILDE:
		DERR(s, n->loc, E_TYPE, "D_OP_INT",
		     "operator %s requires %s of integral type", o, ops);
		break;
	case T_PLUS: case T_MINUS: case T_STAR: case T_SLASH: case T_PERCENT:
		DERR(s, n->loc, E_TYPE, "D_OP_ARITH",
		     "operator %s requires %s of arithmetic type", o, ops);
		break;
	case T_LAND: case T_LOR: case T_BANG:
		DERR(s, n->loc, E_TYPE, "D_OP_SCALAR",
		     "operator %s requires %s of scalar type", o, ops);
		break;
	case T_INC: case T_DEC:
		DERR(s, n->loc, E_TYPE, "D_OP_SCALAR",
		     "operator %s requires operand of scalar type", o);
		break;
	case -1:
		DERR(s, n->loc, E_TYPE, "D_OP_SCALAR",
		     "operator ?: expression must be of scalar type");
		break;
	default:
		DERR(s, n->loc, E_TYPE, "D_OP_INCOMPAT",
		     "operands have incompatible types: \"%s\" %s \"%s\"",
		     sema_d_type_name(a), o, b ? sema_d_type_name(b) : "");
	}
	return true;
}

bool sema_d_type_words(struct sema *s, struct node *n, const char *name)
{
	static const char *const words[] = {
		"char", "short", "int", "long", "signed", "unsigned", "float",
		"double", "void",
	};
	int cnt[ARRAY_SIZE(words)] = { 0 };
	char buf[128], *save = NULL;
	int total = 0;

	if (!s->c->lang_d || strlen(name) >= sizeof(buf))
		return false;
	strcpy(buf, name);
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		size_t i = 0;

		while (i < ARRAY_SIZE(words) && strcmp(w, words[i]))
			i++;
		if (i == ARRAY_SIZE(words))
			return false;	/* a typedef or struct name: not ours */
		cnt[i]++;
		total++;
	}
	if (total < 2)
		return false;
	/* 0 char 1 short 2 int 3 long 4 signed 5 unsigned 6 float
	 * 7 double 8 void */
	if (cnt[0] && (cnt[1] || cnt[3])) {
		DERR(s, n->loc, E_TYPE, "D_DECL_CHARATTR",
		     "invalid type declaration: short and long may not be used with char type");
		return true;
	}
	if (cnt[1] && cnt[3]) {
		DERR(s, n->loc, E_TYPE, "D_UNKNOWN",
		     "failed to resolve type short long : Unknown type name");
		return true;
	}
	if (cnt[0] > 1 || cnt[1] > 1 || cnt[2] > 1 || (cnt[0] && cnt[2]) ||
	    cnt[3] > 2 || cnt[4] + cnt[5] > 1 ||
	    cnt[6] + cnt[7] + cnt[8] > 1 ||
	    (cnt[6] + cnt[7] + cnt[8] && total > 1 + (cnt[7] && cnt[3] == 1)) ||
	    (cnt[0] + cnt[1] + cnt[2] > 0 && cnt[6] + cnt[7] + cnt[8])) {
		DERR(s, n->loc, E_TYPE, "D_DECL_COMBO", "invalid type combination");
		return true;
	}
	return false;
}
