/* sema_call.c - the checks of function calls: arguments, their types
 * and what each call records for user space (printf's event, the
 * compile-time constants of kaddr(), cgroupid() ...).  Part of sema
 * (sema.c); see there for the passes. */
#include "sema/sema.h"
#include "sema/sema_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "base/arch.h"
#include "catalog/elfsym.h"
#include "catalog/info.h"
#include "lang/printf.h"
#include "catalog/ksyms.h"

static const struct {
	const char *name;
	int lo, hi;
} funcs[] = {
#define X(e, name, lo, hi, fn) { name, lo, hi },
#include "sema/funcs.def"
#undef X
};

const char *func_name(int f)
{
	return (unsigned)f < F_NFUNCS ? funcs[f].name : "?";
}


/* An integer argument that must be known at compile time. */
bool sema_const_int(struct sema *s, struct node *n, int64_t *v,
		      const char *what)
{
	struct type *t = sema_expr(s, n);

	if (is_err(t))
		return false;
	if (!is_int(t) || !n->is_const) {
		ERR(s, n->loc, E_TYPE, "%s must be a constant integer", what);
		return false;
	}
	*v = n->cval;
	return true;
}

/* A map used whole, as in clear(@m) or print(@m). */
struct mapinfo *sema_map_arg(struct sema *s, struct node *a, const char *fn)
{
	if (a->kind != N_MAP || a->nargs) {
		ERR(s, a->loc, E_ARGS, "%s() takes a map without keys, like %s(@m)",
		    fn, fn);
		return NULL;
	}
	a->ty = &ty_mapref;
	return sema_map_get(s, a);
}

int sema_func_min_args(int f)
{
	return (unsigned)f < F_NFUNCS ? funcs[f].lo : -1;
}

int sema_func_max_args(int f)
{
	return (unsigned)f < F_NFUNCS ? funcs[f].hi : -1;
}

bool sema_is_agg_func(int f)
{
	return (f >= F_COUNT && f <= F_LHIST) || f == F_TSERIES ||
	       (f >= F_STDDEV && f <= F_LLQUANTIZE);	/* D's */
}

bool sema_func_d_only(int f)
{
	return f >= F_STDDEV;
}

int sema_func_lookup(const char *name)
{
	static int order[F_NFUNCS];
	static struct name_index ix = {
		funcs, sizeof(funcs[0]), F_NFUNCS, order, false
	};

	return name_index_find(&ix, name);
}

/* Every probe of the block has FLAG (PF_*); else an E_CONTEXT error
 * naming the first that does not. */
bool sema_all_probes(struct sema *s, struct node *n, unsigned flag)
{
	for (int i = 0; i < s->pi->nspecs; i++) {
		if (!probe_has(&s->pi->specs[i], flag)) {
			ERR(s, n->loc, E_CONTEXT, "'%s' is not available in %s probes",
			    n->name, s->pi->specs[i].name);
			return false;
		}
	}
	return true;
}

/* system(), signal() and override() change the system sonde observes;
 * as in bpftrace, they need --unsafe. */
static void need_unsafe(struct sema *s, struct node *n, const char *why)
{
	if (s->c->unsafe)
		return;
	if (s->c->lang_d)	/* dtrace -w (or #pragma D option destructive) */
		ERR(s, n->loc, E_UNSAFE,
		    "%s( ) %s: destructive actions are not allowed without -w",
		    n->dname ? n->dname : n->name, why);
	else
		ERR(s, n->loc, E_UNSAFE, "%s() %s: allow it with --unsafe",
		    n->name, why);
}

/* A signal's number from its name, with or without "SIG"; -1 if none. */
static int signal_number(const char *name)
{
	if (!strncmp(name, "SIG", 3))
		name += 3;
	for (int i = 1; i < NSIG; i++) {
		const char *a = sigabbrev_np(i);

		if (a && !strcmp(a, name))
			return i;
	}
	return -1;
}

/* signal(SIG): SIG is a name ("SIGUSR1", "KILL") or an integer; a
 * constant is checked here, another value by the kernel at run time. */
static struct type *call_signal(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];

	if (s->c->lang_d && a->kind == N_STR && n->dname &&
	    !strcmp(n->dname, "raise")) {	/* D: raise(int) */
		sema_expr(s, a);
		sema_d_proto_arg(s, n, 0, "int");
		return set(n, &ty_void);
	}
	if (sema_literal(s, a)) {
		int sig = signal_number(a->name);

		if (sig < 0) {
			ERR(s, a->loc, E_ARGS,
			    "%s(): unknown signal '%s' (use a name like SIGKILL, or a number)",
			    n->name, a->name);
			return set(n, &ty_void);
		}
		a->is_const = true;
		a->cval = sig;
		a->ty = &ty_u64;
	} else {
		struct type *t = sema_expr(s, a);

		if (is_err(t))
			return set(n, &ty_void);
		if (!is_int(t) && s->c->lang_d) {
			sema_d_proto_arg(s, n, 0, "int");
			return set(n, &ty_void);
		}
		if (!is_int(t)) {
			ERR(s, a->loc, E_TYPE,
			    "%s() takes a signal name or number, not %s",
			    n->name, type_name(t));
			return set(n, &ty_void);
		}
		if (a->is_const && (a->cval < 1 || a->cval >= NSIG)) {
			ERR(s, a->loc, E_ARGS, "%s(): %lld is not a signal (1..%d)",
			    n->name, (long long)a->cval, NSIG - 1);
			return set(n, &ty_void);
		}
	}
	if (!sema_all_probes(s, n, PF_TASK))
		return set(n, &ty_void);
	need_unsafe(s, n, n->builtin == F_SIGNAL_THREAD ?
		    "sends a signal to the traced thread" :
		    "sends a signal to the traced process");
	return set(n, &ty_void);
}

static struct type *call_override(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[0]);

	if (!is_err(t) && !is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "override() takes the integer the function returns, not %s",
		    type_name(t));
		return set(n, &ty_void);
	}
	if (!sema_all_probes(s, n, PF_OVERRIDE))
		return set(n, &ty_void);
	need_unsafe(s, n, "changes what a function returns");
	/* uprobes: the program writes the registers, which only some
	 * kernels allow; found out here, once */
	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];

		if (!probe_has(ps, PF_USER))
			continue;
		if (s->c->uprobe_write_ctx < 0)
			s->c->uprobe_write_ctx = info_uprobe_write_ctx();
		if (!s->c->uprobe_write_ctx) {
			ERR(s, n->loc, E_CONTEXT,
			    "override() in %s needs a kernel whose uprobe programs may write registers (Linux 7.0); this one cannot",
			    ps->name);
			return set(n, &ty_void);
		}
	}
	/* fentry: the program's return value is the function's, and 0
	 * lets the function run */
	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];

		if (!probe_has(ps, PF_MODRET))
			continue;
		if (n->args[0]->is_const && n->args[0]->cval == 0) {
			ERR(s, n->args[0]->loc, E_ARGS,
			    "override(0) in %s: the program's return of 0 lets the function run; override with an error (override(-EPERM)) or another nonzero value",
			    ps->name);
			return set(n, &ty_void);
		}
		/* (an lsm program's return is the hook's by nature) */
		if (!ps->modify_return && s->c->verbose &&
		    strcmp(ps->ops->name, "lsm"))
			fprintf(stderr, "sonde: %s: override() makes it a BPF_MODIFY_RETURN program\n",
				ps->name);
		ps->modify_return = true;
	}
	return set(n, &ty_void);
}

static struct type *call_str(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *t;
	int64_t len;
	int size = s->c->strlen_;

	if (sema_str_positional(s, n))
		return n->ty;
	if (a->kind == N_POSITIONAL) {
		/* str($1) is the parameter's text, numeric or not. */
		a->extra = (void *)1;
	}
	t = sema_expr(s, a);
	if (n->nargs == 2) {
		struct type *lt = sema_expr(s, n->args[1]);

		if (!is_err(lt) && !is_int(lt))
			ERR(s, n->args[1]->loc, E_TYPE,
			    "str() length must be an integer");
		/* str(x, n) keeps at most n characters (as bpftrace does),
		 * and never more than BPFTRACE_STRLEN - 1. */
		if (n->args[1]->is_const) {
			len = n->args[1]->cval;
			if (len < 0) {
				ERR(s, n->args[1]->loc, E_ARGS,
				    "str() length %lld is negative", (long long)len);
				len = 0;
			}
			size = len < s->c->strlen_ - 1 ? (int)len + 1 : s->c->strlen_;
		}
	}
	if (is_err(t))
		return set(n, &ty_error);
	if (s->c->lang_d && t->kind == TY_VOID && n->dname &&
	    !strcmp(n->dname, "stringof")) {
		DERR(s, a->loc, E_TYPE, "D_STRINGOF_TYPE",
		     "cannot apply stringof to a value of type void");
		return set(n, &ty_error);
	}
	if (s->c->lang_d && !is_int(t) && t->kind != TY_STR && n->dname) {
		sema_d_proto_arg(s, n, 0, "uintptr_t");
		return set(n, &ty_error);
	}
	if (t->kind == TY_STR)
		return set(n, str_type(s, size < t->size ? size : t->size));
	if (!is_int(t)) {
		ERR(s, a->loc, E_TYPE, "str() needs a string or an address, not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	return set(n, str_type(s, size));
}

/* strncmp(s1, s2, n): 0 when the strings agree in their first n bytes
 * (a string ends at its NUL), else 1, as bpftrace 0.17 returns.  n is
 * known at compile time, so cg compares whole words, unrolled. */
static struct type *call_strncmp(struct sema *s, struct node *n)
{
	bool ok = true;
	int64_t len;

	for (int i = 0; i < 2; i++) {
		struct type *t = sema_expr(s, n->args[i]);

		if (is_err(t)) {
			ok = false;
		} else if (t->kind != TY_STR) {
			ERR(s, n->args[i]->loc, E_TYPE,
			    "strncmp() compares strings, not %s", type_name(t));
			ok = false;
		}
	}
	if (!sema_const_int(s, n->args[2], &len, "strncmp() length"))
		return set(n, &ty_error);
	if (len < 0) {
		ERR(s, n->args[2]->loc, E_ARGS, "strncmp() length %lld is negative",
		    (long long)len);
		return set(n, &ty_error);
	}
	return set(n, ok ? &ty_u64 : &ty_error);
}

/* bswap(x): the bytes of x reversed, as an unsigned integer of x's
 * width (bpftrace 0.17's type; an 8-bit x comes back unchanged).  A
 * constant is swapped here. */
static struct type *call_bswap(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *t = sema_expr(s, a), *rt;
	uint64_t v;

	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		ERR(s, a->loc, E_TYPE, "bswap() needs an integer, not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	rt = ty_int(t->kind == TY_PTR ? 8 : t->size, false);
	if (a->is_const) {
		v = (uint64_t)a->cval;
		switch (rt->size) {
		case 1: v = (uint8_t)v; break;
		case 2: v = __builtin_bswap16((uint16_t)v); break;
		case 4: v = __builtin_bswap32((uint32_t)v); break;
		default: v = __builtin_bswap64(v); break;
		}
		n->is_const = 1;
		n->cval = (int64_t)v;
	}
	return set(n, rt);
}

/* The id of the cgroup v2 directory PATH, the one
 * bpf_get_current_cgroup_id() gives a task in it: kernfs's 8-byte file
 * handle (name_to_handle_at), which on a 64-bit kernel is also the
 * inode number.  0 or -errno; -EMEDIUMTYPE when PATH is not a
 * directory of a cgroup2 file system. */
static int cgroup_id(const char *path, uint64_t *id)
{
	uint64_t buf[(sizeof(struct file_handle) + 8 + 7) / 8];
	struct file_handle *fh = (struct file_handle *)buf;
	struct statfs sf;
	struct stat st;
	int mnt;

	if (stat(path, &st) || statfs(path, &sf))
		return -errno;
	if (!S_ISDIR(st.st_mode) || sf.f_type != CGROUP2_SUPER_MAGIC)
		return -EMEDIUMTYPE;
	fh->handle_bytes = 8;
	if (name_to_handle_at(AT_FDCWD, path, fh, &mnt, 0))
		return -errno;
	if (fh->handle_bytes != 8)
		return -EMEDIUMTYPE;
	memcpy(id, fh->f_handle, 8);
	return 0;
}

/* cgroupid("PATH"): a constant, resolved now as bpftrace does; the path
 * is a string literal, $N or str($N). */
static struct type *call_cgroupid(struct sema *s, struct node *n)
{
	struct node *a = n->args[0], *p = a;
	uint64_t id = 0;
	int rc;

	if (!sema_literal(s, a)) {
		ERR(s, a->loc, E_ARGS,
		    "cgroupid() takes the path of a cgroup as a string literal, as in cgroupid(\"/sys/fs/cgroup/system.slice\")");
		return set(n, &ty_error);
	}
	rc = cgroup_id(p->name, &id);
	if (rc == -EMEDIUMTYPE) {
		ERR(s, a->loc, E_ARGS,
		    "cgroupid(): %s is not a cgroup v2 directory ('findmnt -t cgroup2' shows where cgroup v2 is mounted)",
		    p->name);
		return set(n, &ty_error);
	}
	if (rc) {
		ERR(s, a->loc, E_ARGS, "cgroupid(): %s: %s", p->name,
		    strerror(-rc));
		return set(n, &ty_error);
	}
	n->is_const = 1;
	n->cval = (int64_t)id;
	return set(n, &ty_u64);
}

/* The bytes ntop() and macaddr() take: a string (a char[N] field), a
 * buffer or a byte array (pton()) of exactly SIZE bytes. */
static bool bytes_of(const struct type *t, int size)
{
	return ((t->kind == TY_STR || t->kind == TY_BUF) && t->size == size) ||
	       (t->kind == TY_ARRAY && t->size == size &&
		t->of->size == 1);
}

/* ntop([af,] addr): an IPv4 address from an integer (in network
 * order, as the kernel keeps it) or 4 bytes, an IPv6 one from 16
 * bytes.  AF, when given, decides how user space reads the 16 bytes:
 * a constant must be AF_INET (2) or AF_INET6 (10); a run-time value
 * that is neither prints as "" (as in bpftrace). */
static struct type *call_ntop(struct sema *s, struct node *n)
{
	struct node *a = n->args[n->nargs - 1];
	struct type *t;

	if (n->nargs == 2) {
		struct node *f = n->args[0];
		struct type *ft = sema_expr(s, f);

		if (!is_err(ft) && !is_int(ft))
			ERR(s, f->loc, E_TYPE,
			    "ntop()'s address family must be an integer, not %s",
			    type_name(ft));
		else if (!is_err(ft) && f->is_const && f->cval != 2 &&
			 f->cval != 10)
			ERR(s, f->loc, E_ARGS,
			    "ntop()'s address family %lld is neither AF_INET (2) nor AF_INET6 (10)",
			    (long long)f->cval);
	}
	t = sema_expr(s, a);
	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t) && !bytes_of(t, 4) && !bytes_of(t, 16)) {
		ERR(s, a->loc, E_TYPE,
		    "ntop() needs an IPv4 address (an integer or 4 bytes) or an IPv6 address (16 bytes), not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	return set(n, &ty_inet);
}

/* macaddr(x): 6 bytes, or the address of 6 bytes (as in bpftrace). */
static struct type *call_macaddr(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *t = sema_expr(s, a);

	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t) && !bytes_of(t, 6)) {
		ERR(s, a->loc, E_TYPE,
		    "macaddr() needs 6 bytes (a buffer or a char[6]) or their address, not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	return set(n, &ty_mac);
}

/* buf(x, n): n bytes of a string or from an address.  A constant n
 * sizes the buffer; one above BPFTRACE_STRLEN is cut to it with a
 * warning, as bpftrace does.  A run-time n is clamped to
 * BPFTRACE_STRLEN, the buffer's size (a negative one too: it is taken
 * as unsigned).  buf(array): the array's bytes, all of them, in the
 * order memory holds them (as bpftrace prints them); n is needed for
 * anything else. */
static struct type *call_buf(struct sema *s, struct node *n)
{
	struct node *a = n->args[0], *l;
	struct type *t = sema_expr(s, a), *lt;
	/* D's tracemem(addr, size): all SIZE bytes, as dtrace records
	 * them (up to 64 KiB here) */
	bool tracemem = s->c->lang_d && n->dname &&
			!strcmp(n->dname, "tracemem");
	int max = tracemem ? 65536 : s->c->strlen_, size = max;

	if (n->nargs < 2) {
		if (is_err(t))
			return set(n, &ty_error);
		if (t->kind == TY_ARRAY)
			return set(n, ty_buf(&s->c->arena, t->size));
		ERR(s, n->loc, E_ARGS,
		    "buf() expects a length argument for non-array type %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	l = n->args[1];
	lt = sema_expr(s, l);
	if (is_err(t) || is_err(lt))
		return set(n, &ty_error);
	if (!is_int(lt)) {
		ERR(s, l->loc, E_TYPE, "buf() length must be an integer, not %s",
		    type_name(lt));
		return set(n, &ty_error);
	}
	if (l->is_const) {
		if (l->cval < 0) {
			ERR(s, l->loc, E_ARGS, "buf() length %lld is negative",
			    (long long)l->cval);
			return set(n, &ty_error);
		}
		if (l->cval > max && s->report && tracemem)
			ERR(s, l->loc, E_LIMIT,
			    "tracemem( ) size %lld is more than sonde records (%d bytes)",
			    (long long)l->cval, max);
		else if (l->cval > max && s->report)
			diag_warn(&s->c->diag, l->loc,
				  "buf() length %lld is cut to %d bytes (BPFTRACE_STRLEN)",
				  (long long)l->cval, max);
		else if (l->cval <= max)
			size = (int)l->cval;
	} else if (tracemem && l->kind == N_TERNARY &&
		   l->c->is_const && l->c->cval >= 0 && l->c->cval <= max) {
		size = (int)l->c->cval;	/* tracemem(a, size, dsize) */
	}
	if (t->kind != TY_STR && !is_int(t)) {
		ERR(s, a->loc, E_TYPE,
		    "buf() reads a string or from an address, not %s",
		    type_name(t));
		return set(n, &ty_error);
	}
	return set(n, ty_buf(&s->c->arena, size));
}


static struct type *call_printf(struct sema *s, struct node *n)
{
	set(n, sema_check_printf(s, n, EV_PRINTF));
	/* D's firing line (lang/dlower.c marks its printf) */
	if (s->report && s->c->lang_d && n->ival == 1 && n->cval >= 0 &&
	    n->cval < s->c->nevents)
		s->c->events[n->cval].level = EV_LEVEL_DTFIRE;
	return n->ty;
}

/* errorf(fmt, ...), warnf(fmt, ...): printf to stderr after the call's
 * place, "FILE:LINE:COL-END: ERROR: " (WARNING), as bpftrace prints
 * them; warnf is silent under --no-warnings. */
static struct type *call_errorf(struct sema *s, struct node *n)
{
	struct event_spec *e;
	const char *name;
	struct loc at;

	set(n, sema_check_printf(s, n, EV_PRINTF));
	if (!s->report || n->cval < 0 || n->cval >= s->c->nevents)
		return n->ty;
	e = &s->c->events[n->cval];
	/* in a macro, the place in its body, as bpftrace shows it */
	at = n->loc.exp ? diag_exp_of(&s->c->diag, n->loc.exp)->at : n->loc;
	name = diag_source(&s->c->diag, at.file).name;
	e->level = n->builtin == F_ERRORF ? EV_LEVEL_ERROR :
		   s->c->diag.no_warnings ? EV_LEVEL_SILENT : EV_LEVEL_WARN;
	e->where = arena_printf(&s->c->arena, "%s:%d:%d-%d: %s: ",
				!strcmp(name, "-e") ? "stdin" : name,
				at.line, at.col, at.col + at.len,
				e->level == EV_LEVEL_ERROR ? "ERROR" : "WARNING");
	return n->ty;
}

static struct type *call_system(struct sema *s, struct node *n)
{
	set(n, sema_check_printf(s, n, EV_SYSTEM));
	need_unsafe(s, n, "runs a command as root");
	return n->ty;
}

static struct type *call_setopt(struct sema *s, struct node *n)
{
	for (int i = 0; i < n->nargs; i++) {
		struct type *t = sema_expr(s, n->args[i]);

		if (is_err(t))
			return set(n, &ty_void);
		if (t->kind != TY_STR) {
			sema_d_proto_arg(s, n, i, "char *");
			return set(n, &ty_void);
		}
		sema_storage(s, t);
	}
	if (s->report) {
		struct event_spec *e = sema_add_event(s, n, EV_SETOPT);

		sema_event_args(s, e, n->args, n->nargs);
	}
	return set(n, &ty_void);
}

static struct type *call_freopen(struct sema *s, struct node *n)
{
	set(n, sema_check_printf(s, n, EV_FREOPEN));
	need_unsafe(s, n, "writes to files as root");
	return n->ty;
}

/* cat(fmt, ...): the file whose name the format makes, printed by
 * user space when the event arrives (as bpftrace 0.17). */
static struct type *call_cat(struct sema *s, struct node *n)
{
	return set(n, sema_check_printf(s, n, EV_CAT));
}

/* unwatch(addr): user space removes the watchpoints FUNC+argN probes
 * set on ADDR (as bpftrace 0.17). */
static struct type *call_unwatch(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[0]);

	if (is_err(t))
		return set(n, &ty_void);
	if (!is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "unwatch() takes an address, not %s", type_name(t));
		return set(n, &ty_void);
	}
	if (s->report)
		sema_event_args(s, sema_add_event(s, n, EV_UNWATCH),
				n->args, 1);
	return set(n, &ty_void);
}

/* exit() or exit(code): sonde's exit status becomes code (its low 8
 * bits, as the shell sees it). */
static struct type *call_exit(struct sema *s, struct node *n)
{
	struct type *t = n->nargs ? sema_expr(s, n->args[0]) : NULL;

	if (t && is_err(t))
		return set(n, &ty_void);
	if (t && !is_int(t) && s->c->lang_d) {
		sema_d_proto_arg(s, n, 0, "int");
		return set(n, &ty_void);
	}
	if (t && !is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "exit() takes an integer exit code, not %s", type_name(t));
		return set(n, &ty_void);
	}
	if (s->report)
		sema_event_args(s, sema_add_event(s, n, EV_EXIT), n->args,
				n->nargs);
	return set(n, &ty_void);
}

static struct type *call_time(struct sema *s, struct node *n)
{
	struct event_spec *e;

	if (n->nargs && !sema_literal(s, n->args[0])) {
		ERR(s, n->args[0]->loc, E_FORMAT,
		    "time() takes a string literal format");
		return set(n, &ty_void);
	}
	if (s->report) {
		e = sema_add_event(s, n, EV_TIME);
		e->fmt = n->nargs ? n->args[0]->name : "%H:%M:%S\n";
		e->fmt_len = strlen(e->fmt);
	}
	return set(n, &ty_void);
}

static struct type *call_strftime(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[1]);

	if (!sema_literal(s, n->args[0])) {
		ERR(s, n->args[0]->loc, E_FORMAT,
		    "strftime() takes a string literal format");
		return set(n, &ty_error);
	}
	if (!is_err(t) && !is_int(t)) {
		ERR(s, n->args[1]->loc, E_TYPE,
		    "strftime() needs nanoseconds, not %s", type_name(t));
		return set(n, &ty_error);
	}
	/* the value carries its format's index: one map or variable may
	 * hold timestamps of several formats, as in bpftrace */
	n->ival = (uint64_t)sema_intern(s->c, &s->c->tfmts, &s->c->ntfmts,
					n->args[0]->name);
	return set(n, ty_tstamp(&s->c->arena, n->args[0]->name));
}

/* join(argv[, sep]): the strings of a NULL-terminated array of string
 * pointers, on one line */
static struct type *call_join(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[0]);

	if (is_err(t))
		return set(n, &ty_void);
	if (!is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "join() takes the address of an array of strings, not %s",
		    type_name(t));
		return set(n, &ty_void);
	}
	if (n->nargs == 2 && !sema_literal(s, n->args[1])) {
		ERR(s, n->args[1]->loc, E_ARGS,
		    "join()'s separator must be a string literal");
		return set(n, &ty_void);
	}
	if (s->report) {
		struct event_spec *e = sema_add_event(s, n, EV_JOIN);

		e->fmt = n->nargs == 2 ? n->args[1]->name : " ";
		e->fmt_len = n->nargs == 2 ? n->args[1]->len : 1;
		e->size = 16 + JOIN_MAX * ALIGN_UP(s->c->strlen_, 8);
	}
	return set(n, &ty_void);
}

/* uaddr("sym"): the address of a symbol of the probed file; in a PIE it
 * moves with the load address, computed from the probe's own address,
 * known at a function's entry. */
static struct type *call_uaddr(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	uint64_t size = 8;
	struct type *p;

	if (!sema_literal(s, a)) {
		ERR(s, a->loc, E_ARGS, "uaddr() takes a symbol name, as in uaddr(\"counter\")");
		return set(n, &ty_error);
	}
	s->pi->per_site = true;
	for (int i = 0; i < s->pi->nspecs; i++) {
		struct probe_spec *ps = &s->pi->specs[i];
		uint64_t v;
		bool pie;

		if (!probe_has(ps, PF_USER)) {
			ERR(s, n->loc, E_CONTEXT,
			    "uaddr() is not available in %s probes", ps->name);
			return set(n, &ty_error);
		}
		if (elf_symbol(ps->path, a->name, &v, &pie, &size)) {
			ERR(s, a->loc, E_ARGS, "uaddr(): no symbol %s in %s",
			    a->name, ps->path);
			return set(n, &ty_error);
		}
		if (pie && probe_has(ps, PF_RETVAL)) {
			ERR(s, n->loc, E_CONTEXT,
			    "uaddr() in a position-independent file (%s) works at a function's entry (uprobe, usdt), not in uretprobe",
			    ps->path);
			return set(n, &ty_error);
		}
	}
	/* a pointer to an integer of the symbol's size, as bpftrace
	 * types it: *uaddr("an_int") reads 4 bytes */
	p = arena_alloc(&s->c->arena, sizeof(*p));
	p->kind = TY_PTR;
	p->size = 8;
	p->pointee = ty_int(size == 1 || size == 2 || size == 4 ? (int)size : 8,
			    false);
	p->user = true;
	return set(n, p);
}

/* kaddr("sym"): the address of a kernel symbol, a constant, from
 * /proc/kallsyms at compile time. */
static struct type *call_kaddr(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	uint64_t v = 0;
	int rc;

	if (!sema_literal(s, a)) {
		ERR(s, a->loc, E_ARGS, "kaddr() takes a kernel symbol's name, as in kaddr(\"avenrun\")");
		return set(n, &ty_error);
	}
	rc = ksyms_addr_of(NULL, a->name, &v);
	if (rc == -ENOENT && n->dname) {	/* D's `sym */
		DERR(s, n->loc, E_UNDEF, "D_IDENT_UNDEF",
		     "failed to resolve %s: Unknown symbol name", n->dname);
		return set(n, &ty_error);
	}
	if (rc == -ENOENT) {
		ERR(s, a->loc, E_ARGS, "kaddr(): no kernel symbol '%s' in /proc/kallsyms",
		    a->name);
		return set(n, &ty_error);
	}
	if (rc) {
		ERR(s, a->loc, E_ARGS, "kaddr(): cannot read kernel addresses: %s",
		    rc == -EPERM ? "/proc/kallsyms hides them (it needs CAP_SYSLOG)"
				 : strerror(-rc));
		return set(n, &ty_error);
	}
	n->is_const = 1;
	n->cval = (int64_t)v;
	return set(n, &ty_u64);
}

static struct type *call_reg(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];

	if (!sema_all_probes(s, n, PF_REGS))
		return set(n, &ty_error);
	if (!sema_literal(s, a) || pt_regs_offset(a->name) < 0) {
		ERR(s, a->loc, E_ARGS,
		    "reg() takes a register name: ip sp bp ax bx cx dx si di r8..r15 flags");
		return set(n, &ty_error);
	}
	return set(n, &ty_u64);
}

/* kstack(), ustack(), and dw_ustack(): a ustack that always walks the
 * CFI, even under config dwarf_unwind = false (bpf/cg_unwind.c);
 * bpftrace 0.26 calls it unstable and warns unless told otherwise. */
static struct type *call_stack(struct sema *s, struct node *n)
{
	if (n->builtin == F_DW_USTACK && s->report) {
		if (s->c->unstable_dw_ustack == 1) {
			ERR(s, n->loc, E_CONFIG,
			    "dw_ustack() is an unstable feature, disabled by config unstable_dw_ustack = error");
			return set(n, &ty_error);
		}
		if (!s->c->unstable_dw_ustack && !s->c->dw_ustack_warned) {
			s->c->dw_ustack_warned = true;
			diag_warn(&s->c->diag, n->loc,
				  "dw_ustack() is an unstable feature: set config = { unstable_dw_ustack = enable } to silence this warning");
		}
	}
	return sema_stack(s, n, n->builtin != F_KSTACK);
}

/* ksym(addr), usym(addr) */
static struct type *call_sym(struct sema *s, struct node *n)
{
	struct type *t = sema_expr(s, n->args[0]);

	if (is_err(t))
		return set(n, &ty_error);
	if (!is_int(t)) {
		ERR(s, n->args[0]->loc, E_TYPE,
		    "%s() needs an address (an integer), not %s",
		    n->name, type_name(t));
		return set(n, &ty_error);
	}
	/* D's mod() and umod(): the module alone */
	bool mod = s->c->lang_d && n->dname && (!strcmp(n->dname, "mod") ||
						!strcmp(n->dname, "umod"));

	if (n->builtin == F_KSYM)
		return set(n, mod ? &ty_kmod : &ty_ksym);
	s->c->uses_usyms = true;
	return set(n, mod ? &ty_umod : &ty_usym);
}

/* print(@m[, top[, div]]): the whole map, as at exit. */
static struct type *print_map(struct sema *s, struct node *n)
{
	struct mapinfo *m;
	int64_t top = 0, div = 0;
	struct event_spec *e;

	if (sema_d_printa_many(s, n))	/* printa(@a, @b, ...) */
		return sema_d_printa_join(s, n);
	m = sema_map_arg(s, n->args[0], "print");
	if (n->nargs > 1 && sema_const_int(s, n->args[1], &top, "top") && top < 0)
		ERR(s, n->args[1]->loc, E_ARGS, "top must not be negative");
	if (n->nargs > 2 && sema_const_int(s, n->args[2], &div, "div") && div < 0)
		ERR(s, n->args[2]->loc, E_ARGS, "div must not be negative");
	if (s->report && m && s->c->lang_d && n->tyname &&
	    sema_d_printa_format(s, n, m))
		return set(n, &ty_void);
	if (s->report && m) {
		e = sema_add_event(s, n, EV_PRINT_MAP);
		e->map = m;
		e->size = 24;
		if (s->c->lang_d && n->tyname) {	/* D's printa(fmt, @a) */
			e->fmt = n->tyname;
			e->fmt_len = strlen(n->tyname);
		}
	}
	return set(n, &ty_void);
}

/* print(@m) or print(value) */
static struct type *call_print(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];
	struct type *t;
	struct event_spec *e;

	if (s->c->lang_d && n->dname && !strcmp(n->dname, "printa") &&
	    sema_d_aggarg(s, n, 1 + (n->tyname != NULL)))
		return set(n, &ty_void);
	/* (D's trace(x) of a global x, a map without '@', is its value) */
	if (a->kind == N_MAP && !a->nargs && !(s->c->lang_d && a->name[0] != '@'))
		return print_map(s, n);
	if (n->nargs > 1) {
		ERR(s, n->args[1]->loc, E_ARGS,
		    "print() of a value takes one argument");
		return set(n, &ty_void);
	}
	t = sema_expr(s, a);
	if (is_err(t))
		return set(n, &ty_void);
	if (t->kind == TY_VOID || t->kind == TY_MAPREF) {
		ERR(s, a->loc, E_TYPE, "print() cannot print %s", type_name(t));
		return set(n, &ty_void);
	}
	sema_storage(s, t);
	if (s->report) {
		e = sema_add_event(s, n, EV_PRINT_VAL);
		sema_event_args(s, e, n->args, 1);
		e->vsize = t->kind == TY_INT ? t->size : 0;
		if (a->kind == N_MAP && a->map && a->map->dsize)
			e->vsize = a->map->dsize;	/* D's variable */
	}
	return set(n, &ty_void);
}

/* clear(@m), zero(@m) */
static struct type *call_clear(struct sema *s, struct node *n)
{
	struct mapinfo *m;

	if (s->c->lang_d && sema_d_aggarg(s, n, 1))
		return set(n, &ty_void);
	m = sema_map_arg(s, n->args[0], n->name);

	if (s->c->lang_d && n->nargs > 1 && n->args[1]->kind == N_MAP &&
	    n->args[1]->name[0] == '@') {	/* trunc(@a, @b) */
		DERR(s, n->args[1]->loc, E_TYPE, "D_TRUNC_SCALAR",
		     "trunc( ) argument #2 must be of scalar type");
		return set(n, &ty_void);
	}
	if (n->nargs > 1 && !is_err(sema_expr(s, n->args[1])) &&
	    !is_int(n->args[1]->ty))
		sema_d_proto_arg(s, n, 1, "int");
	if (s->report && m) {
		struct event_spec *e = sema_add_event(s, n, n->builtin == F_CLEAR ?
						      EV_CLEAR : EV_ZERO);
		e->map = m;
		/* D's trunc(@a, n): the rows that stay */
		sema_event_args(s, e, n->args + 1, n->nargs - 1);
	}
	return set(n, &ty_void);
}

/* 0.17's delete(@m[k1], @m[k2], ...): map elements, each removed. */
static struct type *delete_elements(struct sema *s, struct node *n)
{
	if (!s->c->dialect_017) {
		ERR(s, n->args[0]->loc, E_ARGS,
		    "delete() takes a map without keys, then the key: delete(%s, key) (several elements at once only with --dialect=0.17)",
		    n->args[0]->name);
		return set(n, &ty_error);
	}
	for (int i = 0; i < n->nargs; i++) {
		struct node *a = n->args[i];

		if (a->kind != N_MAP || !a->nargs) {
			ERR(s, a->loc, E_ARGS,
			    "delete() of several elements takes map elements, as in delete(@m[1], @m[2])");
			return set(n, &ty_error);
		}
		sema_map_keys(s, a);
		a->ty = &ty_mapref;
	}
	return set(n, ty_int(8, false));
}

/* delete(@m, key), delete(@m) of a map without keys, and the older
 * delete(@m[key]): 1 when the entry was there. */
static struct type *call_delete(struct sema *s, struct node *n)
{
	struct node *a = n->args[0];

	if (a->kind != N_MAP) {
		ERR(s, a->loc, E_ARGS, "delete() takes a map, as in delete(@m, key)");
		return set(n, &ty_error);
	}
	if (n->nargs > 2 || (n->nargs == 2 && a->nargs))
		return delete_elements(s, n);
	if (n->nargs == 2) {
		if (n->args[1]->kind == N_TUPLE) {
			/* delete(@m, (k1, k2)) names a key of two fields */
			a->args = n->args[1]->args;
			a->nargs = n->args[1]->nargs;
		} else {
			a->args = &n->args[1];
			a->nargs = 1;
			/* a tuple value names the keys of a map of several */
			sema_spread_key(s, n, a);
		}
		n->nargs = 1;
	}
	sema_map_keys(s, a);
	a->ty = &ty_mapref;
	if (s->c->lang_d && a->map)	/* D's x[k] = 0, self->x = 0 */
		a->map->d_freed = true;
	if (a->map && a->map->decl_type == BPF_MAP_TYPE_PERCPU_ARRAY)
		ERR(s, a->loc, E_MAP,
		    "%s is a percpuarray, whose entry cannot be deleted: clear() or zero() it",
		    a->map->name);
	return set(n, ty_int(8, false));
}

/* Aggregations: their arguments here, the rest where they are assigned
 * (sema.c). */
static struct type *call_agg(struct sema *s, struct node *n)
{
	for (int i = 0; i < n->nargs; i++)
		sema_expr(s, n->args[i]);
	return set(n, &ty_void);
}

/* Each function's checker, from funcs.def. */
static struct type *(*const checks[F_NFUNCS])(struct sema *, struct node *) = {
#define X(e, name, lo, hi, fn) [e] = call_##fn,
#include "sema/funcs.def"
#undef X
};

/* A call of a name no function has: its arguments checked all the same. */
static struct type *unknown(struct sema *s, struct node *n)
{
	struct loc l = n->loc;

	if (s->c->lang_d && sema_d_missing(s, n))
		return set(n, &ty_error);
	for (int i = 0; i < n->nargs; i++)
		sema_expr(s, n->args[i]);
	l.len = (int)strlen(n->name);
	if (s->c->lang_d)
		DERR(s, l, E_FUNC, "D_FUNC_UNDEF",
		     "failed to resolve %s: Unknown function name", n->name);
	else
		ERR(s, l, E_FUNC, "unknown function '%s'", n->name);
	return set(n, &ty_error);
}

/* NAME's function as S's language has it: DTrace's string subroutines
 * (F_STRJOIN on) are D's only, so a bpftrace script keeps those names
 * free (index, basename ... are common words). */
int sema_func_find(const struct sema *s, const char *name)
{
	int f = sema_func_lookup(name);

	return f >= F_STRJOIN && !s->c->lang_d ? -1 : f;
}

struct type *sema_call(struct sema *s, struct node *n, bool assigned)
{
	int f = sema_func_find(s, n->name);

	if (f >= 0 && sema_func_d_only(f) && !s->c->lang_d)
		f = -1;		/* D's own: unknown to bpftrace */
	if (f < 0 && sema_is_builtin(n->name))
		return sema_call_builtin(s, n);
	if (f < 0)
		return unknown(s, n);
	/* sonde serve, a user without kernel rights: no kernel addresses */
	if (s->c->restricted && (f == F_KSTACK || f == F_KSYM || f == F_KADDR ||
				 f == F_KPTR || f == F_PERCPU_KADDR)) {
		ERR(s, n->loc, E_POLICY,
		    "%s() reads the kernel's memory or addresses: sonde serve does not give them to this user",
		    n->name);
		return set(n, &ty_error);
	}
	n->builtin = f;
	if (s->c->lang_d && sema_d_arity(s, n, f))
		return set(n, &ty_error);
	if ((n->nargs < funcs[f].lo || n->nargs > funcs[f].hi) &&
	    !sema_d_printa_many(s, n) &&	/* printa(@a, @b, ...) */
	    !(s->c->lang_d && n->dname && !strcmp(n->dname, "trunc"))) {
		if (funcs[f].lo == funcs[f].hi)
			ERR(s, n->loc, E_ARGS, "%s() takes %d argument%s, %d given",
			    n->name, funcs[f].lo, funcs[f].lo == 1 ? "" : "s",
			    n->nargs);
		else
			ERR(s, n->loc, E_ARGS,
			    "%s() takes %d to %d arguments, %d given", n->name,
			    funcs[f].lo, funcs[f].hi, n->nargs);
		return set(n, &ty_error);
	}
	if (sema_is_agg_func(f) && !assigned && s->c->lang_d) {
		DERR(s, n->loc, E_TYPE, "D_CG_EXPR",
		     "%s( ) is an aggregating function: assign it to an aggregation, as in @x = %s(...)",
		     n->name, n->name);
		return set(n, &ty_error);
	}
	if (sema_is_agg_func(f) && !assigned) {
		ERR(s, n->loc, E_TYPE,
		    "%s() must be assigned to a map, as in @x = %s(...)",
		    n->name, n->name);
		for (int i = 0; i < n->nargs; i++)
			sema_expr(s, n->args[i]);
		return set(n, &ty_error);
	}
	return checks[f](s, n);
}
