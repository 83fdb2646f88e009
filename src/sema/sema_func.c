/* sema_func.c - the checks of more function calls (funcs.def names
 * them; sema_call.c holds the first ones): the values user space
 * prints (cat, strerror, cgroup_path), pton, strcontains, kptr and
 * uptr; and the positional parameters that stand for string literals
 * (str($1), str($1 + 2)).  Part of sema (sema.c). */
#include "sema/sema.h"
#include "sema/sema_int.h"

#include <arpa/inet.h>
#include <string.h>

#include "lang/lex.h"

/* Turn N into the string literal TEXT (LEN bytes), for good: the later
 * passes see an N_STR. */
static void make_literal(struct sema *s, struct node *n, const char *text,
			 size_t len)
{
	n->kind = N_STR;
	n->name = text;
	n->len = len;
	n->nargs = 0;
	n->args = NULL;
	n->is_const = 0;
	set(n, str_type(s, (int)len + 1));
}

/* $N + K or K + $N, K a constant: the positional node and *K; NULL if
 * N is something else. */
static struct node *positional_offset(struct sema *s, struct node *n,
				      int64_t *k)
{
	struct node *p, *c;

	if (n->kind == N_POSITIONAL) {
		*k = 0;
		return n;
	}
	if (n->kind != N_BINOP || n->op != T_PLUS)
		return NULL;
	p = n->a->kind == N_POSITIONAL ? n->a : n->b;
	c = p == n->a ? n->b : n->a;
	if (p->kind != N_POSITIONAL || c->kind == N_POSITIONAL)
		return NULL;
	if (is_err(sema_expr(s, c)) || !c->is_const)
		return NULL;
	*k = c->cval;
	return p;
}

/* str($N), str($N + K) and str(K + $N), and str() of them with a
 * constant length: the text of parameter N (from its Kth character), a
 * string literal, as in bpftrace 0.17, which takes $N + K there for an
 * offset even when $N is a number.  Returns false, N untouched, when N
 * is another str() call. */
bool sema_str_positional(struct sema *s, struct node *n)
{
	struct node *p;
	int64_t k, max = -1;
	size_t len;

	if (!n->nargs || !(p = positional_offset(s, n->args[0], &k)))
		return false;
	p->extra = (void *)1;	/* its text, numeric or not */
	if (is_err(sema_expr(s, p))) {
		set(n, &ty_error);
		return true;
	}
	if (k < 0 || (uint64_t)k > p->len) {
		ERR(s, n->args[0]->loc, E_ARGS,
		    "str($%d + %lld): $%d has %zu characters", (int)p->ival,
		    (long long)k, (int)p->ival, p->len);
		set(n, &ty_error);
		return true;
	}
	if (n->nargs == 2) {
		struct type *lt = sema_expr(s, n->args[1]);

		if (!is_int(lt) || !n->args[1]->is_const || n->args[1]->cval < 0)
			return false;	/* call_str reports it */
		max = n->args[1]->cval;
	}
	len = p->len - (size_t)k;
	if (max >= 0 && (uint64_t)max < len)
		len = (size_t)max;
	make_literal(s, n, p->name + k, len);
	return true;
}

/* N where a string literal is required (a format, a symbol, a path):
 * a literal, or a positional parameter standing for one, $N or str($N)
 * (bpftrace 0.17 accepts str($N) there, but reads "str" itself as the
 * literal in printf(), time(), strftime(), system() and cat()).  N
 * becomes the literal; false if it is something else. */
bool sema_literal(struct sema *s, struct node *n)
{
	if (n->kind == N_POSITIONAL) {
		n->extra = (void *)1;
		if (is_err(sema_expr(s, n)))
			return false;
		make_literal(s, n, n->name, n->len);
	} else if (n->kind == N_CALL && !strcmp(n->name, "str") &&
		   n->nargs == 1) {
		n->builtin = F_STR;
		sema_str_positional(s, n);
	}
	return n->kind == N_STR;
}

int sema_intern(struct compiler *c, const char ***v, int *n, const char *s)
{
	const char **t;

	for (int i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return i;
	t = arena_alloc(&c->arena, sizeof(*t) * (size_t)(*n + 1));
	if (*n)
		memcpy(t, *v, sizeof(*t) * (size_t)*n);
	t[*n] = s;
	*v = t;
	return (*n)++;
}

/* strerror(errno): the number, printed as strerror(3)'s text in user
 * space ("No such file or directory"), as bpftrace 0.17 does. */
struct type *call_strerror(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[0]);

	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "%s() takes %s number, not %s", n->name,
		    n->builtin == F_STRERROR ? "an error" :
		    n->builtin == F_SIGNAL_NAME ? "a signal" : "a system call",
		    type_name(t));
		return set(n, &ty_error);
	}
	if (n->builtin != F_STRERROR) {	/* the same, named otherwise */
		struct type *named = arena_alloc(&s->c->arena, sizeof(*named));

		*named = ty_strerror;
		named->nelem = n->builtin == F_SIGNAL_NAME ? STRERROR_SIGNAL :
			       STRERROR_SYSCALL;
		return set(n, named);
	}
	return set(n, &ty_strerror);
}

/* path(p): the path of a struct path in the kernel, as d_path()
 * writes it ("/etc/passwd"), from a pointer to one or a struct path
 * member (args.filp->f_path).  Only programs the kernel lets call
 * bpf_d_path: fentry and fexit of the functions it lists
 * (filp_close, vfs_getattr, security_file_open, ...), and iter. */
struct type *call_path(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *t = sema_expr(s, a);
	const struct type *st;

	if (is_err(t))
		return set(n, &ty_error);
	st = t->kind == TY_PTR ? t->pointee : t;
	if (!st || st->kind != TY_STRUCT || !st->sname ||
	    strcmp(st->sname, "struct path") ||
	    (t->kind == TY_STRUCT && !(a->kind == N_FIELD &&
				       a->builtin == B_BTF_FIELD))) {
		ERR(s, a->loc, E_TYPE,
		    "path() takes a struct path of the kernel (a pointer to one, or a member: args.filp->f_path), not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	if (!sema_all_probes(s, n, PF_DPATH))
		return set(n, &ty_error);
	return set(n, str_type(s, s->c->strlen_));
}

/* skboutput(path, skb, length, offset): the first LENGTH bytes of the
 * packet of SKB, a struct sk_buff of the kernel's (bpf_skb_output takes
 * it as a BTF pointer), go to the pcap file PATH, OFFSET bytes skipped;
 * 0, or the helper's negative error.  The path is a literal: user space
 * opens each file at start, and a record names it by its index in
 * c->skb_paths (in n->cval). */
struct type *call_skboutput(struct sema *s, struct node *n)
{
	struct node **a = n->args;
	struct type *t;

	if (!sema_all_probes(s, n, PF_SKBOUT))
		return set(n, &ty_error);
	if (!sema_literal(s, a[0])) {
		ERR(s, a[0]->loc, E_ARGS,
		    "skboutput()'s path must be a string literal, as in \"out.pcap\"");
		return set(n, &ty_error);
	}
	t = sema_expr(s, a[1]);
	if (is_err(t))
		return set(n, &ty_error);
	if (t->kind != TY_PTR || !t->pointee ||
	    t->pointee->kind != TY_STRUCT || !t->pointee->sname ||
	    strcmp(t->pointee->sname, "struct sk_buff")) {
		ERR(s, a[1]->loc, E_TYPE,
		    "skboutput() takes a pointer to the kernel's struct sk_buff (as args.skb), not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	t = sema_expr(s, a[2]);
	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		ERR(s, a[2]->loc, E_TYPE,
		    "skboutput()'s length is a number of bytes, not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	t = sema_expr(s, a[3]);
	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t) || !a[3]->is_const || a[3]->cval < 0 ||
	    a[3]->cval > 65535) {
		ERR(s, a[3]->loc, E_ARGS,
		    "skboutput()'s offset must be a constant number of bytes (0..65535)");
		return set(n, &ty_error);
	}
	n->cval = sema_intern(s->c, &s->c->skb_paths, &s->c->nskb_paths,
			      a[0]->name);
	return set(n, &ty_s64);
}

/* kptr(p), uptr(p): p, an address of kernel or of user memory, which
 * str(), buf(), '*' and '->' then read whatever the probe (uprobes read
 * user memory, most others the kernel's).  The mark stays with the
 * value in a variable, and through a cast to a struct pointer. */
struct type *call_addrspace(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[0]), *u;

	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "%s() takes an address (an integer or a pointer), not %s",
		    n->name, type_name(t));
		return set(n, &ty_error);
	}
	u = arena_alloc(&s->c->arena, sizeof(*u));
	*u = *t;
	u->user = n->builtin == F_UPTR;
	u->kernel = n->builtin == F_KPTR;
	if (n->args[0]->is_const) {
		n->is_const = 1;
		n->cval = n->args[0]->cval;
	}
	return set(n, u);
}

/* strcontains(haystack, needle): 1 when string NEEDLE occurs in string
 * HAYSTACK (the empty string occurs in any), else 0, a uint64 as in
 * bpftrace 0.17.  Two literals are compared now. */
struct type *call_strcontains(struct sema *s, struct node *n)
{
	bool ok = true;

	for (int i = 0; i < 2; i++) {
		struct node *a = n->args[i];
		struct type *t = sema_expr(s, a);

		if (is_err(t)) {
			ok = false;
		} else if (t->kind != TY_STR) {
			ERR(s, a->loc, E_TYPE,
			    "strcontains() looks for a string in a string, not %s",
			    type_name(t));
			ok = false;
		}
	}
	if (!ok)
		return set(n, &ty_error);
	if (n->args[0]->kind == N_STR && n->args[1]->kind == N_STR) {
		n->is_const = 1;
		n->cval = strstr(n->args[0]->name, n->args[1]->name) != NULL;
	} else if (n->args[1]->kind == N_STR && !n->args[1]->name[0]) {
		n->is_const = 1;
		n->cval = 1;
	}
	return set(n, s->c->dialect_017 ? &ty_u64 : &ty_bool);
}

/* has_key(@m, key), has_key(@m, (k1, k2)) or has_key(@m, k1, k2): 1
 * when the map holds the key, else 0.  The call's first argument
 * becomes @m[key], which cg looks up. */
struct type *call_has_key(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct mapinfo *m;

	bool tuple = n->nargs == 2 && n->args[1]->kind == N_TUPLE;
	/* a second pass sees the keys it moved into @m; has_key(@m[k])
	 * (bpftrace 0.22's form) has them there already */
	bool moved = a->kind == N_MAP && a->nargs &&
		     (n->nargs == 1 ||
		      a->args == (tuple ? n->args[1]->args : &n->args[1]) ||
		      a->args == n->extra);

	if (n->nargs == 1 && a->kind == N_MAP && !a->nargs) {
		ERR(s, n->loc, E_ARGS, "has_key() needs a key: has_key(@m, key)");
		return set(n, &ty_error);
	}
	if (a->kind != N_MAP || (a->nargs && !moved)) {
		ERR(s, a->loc, E_ARGS,
		    "has_key() takes a map without keys, as in has_key(@m, key)");
		for (int i = 1; i < n->nargs; i++)
			sema_expr(s, n->args[i]);
		return set(n, &ty_error);
	}
	if (n->nargs == 1) {
		;	/* has_key(@m[k]): the keys are the map's */
	} else if (tuple) {
		a->args = n->args[1]->args;
		a->nargs = n->args[1]->nargs;
	} else if (!moved || a->args != n->extra) {
		a->args = &n->args[1];
		a->nargs = n->nargs - 1;
		sema_spread_key(s, n, a);
	}
	m = sema_map_keys(s, a);
	if (a->ty && is_err(a->ty))
		return set(n, &ty_error);
	a->ty = &ty_mapref;
	if (agg_bucketed(m->agg)) {
		ERR(s, a->loc, E_TYPE,
		    "has_key() cannot look in a histogram (%s is %s)", m->name,
		    sema_agg_name(m->agg));
		return set(n, &ty_error);
	}
	return set(n, s->c->dialect_017 ? &ty_u64 : &ty_bool);
}

/* pton("ADDR"): an IPv4 address as 4 bytes, an IPv6 one as 16, in
 * network order, a uint8 array as bpftrace 0.17 types it (ntop() takes
 * it back).  Converted now; the bytes wait in the node for cg.
 * bpftrace reads an address with a '.' as IPv4, so it refuses
 * "::ffff:1.2.3.4"; sonde tries IPv4, then IPv6. */
struct type *call_pton(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	uint8_t buf[16], *bytes;
	int len = 4;

	if (!sema_literal(s, a)) {
		ERR(s, a->loc, E_ARGS,
		    "pton() takes an address as a string literal, as in pton(\"127.0.0.1\")");
		return set(n, &ty_error);
	}
	if (inet_pton(AF_INET, a->name, buf) != 1) {
		len = 16;
		if (inet_pton(AF_INET6, a->name, buf) != 1) {
			ERR(s, a->loc, E_ARGS,
			    "pton(): '%s' is neither an IPv4 nor an IPv6 address",
			    a->name);
			return set(n, &ty_error);
		}
	}
	bytes = arena_alloc(&s->c->arena, (size_t)len);
	memcpy(bytes, buf, (size_t)len);
	n->extra = bytes;
	return set(n, ty_array(&s->c->arena, &ty_u8, len));
}

/* cgroup_path(id[, filter]): cgroup ID, printed as its path in each
 * cgroup hierarchy whose name matches FILTER (a wildcard, default all):
 * "unified:/user.slice,cpu:/" as bpftrace 0.17 prints it.  The value
 * is {u64 id, u64 the filter's index in c->cgfilters}; user space
 * finds the paths (out/cgroups.c). */
struct type *call_cgroup_path(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[0]);
	const char *filter = "*";

	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "cgroup_path() takes a cgroup id (an integer, as cgroup gives), not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	if (n->nargs == 2) {
		if (!sema_literal(s, n->args[1])) {
			ERR(s, n->args[1]->loc, E_ARGS,
			    "cgroup_path()'s filter must be a string literal, as in \"unified\" or \"mem*\"");
			return set(n, &ty_error);
		}
		filter = n->args[1]->name;
	}
	n->ival = (uint64_t)sema_intern(s->c, &s->c->cgfilters,
					&s->c->ncgfilters, filter);
	return set(n, &ty_cgpath);
}
