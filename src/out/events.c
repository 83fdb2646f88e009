/* events.c - the records BPF sends through the ring buffer, written as
 * their event says: printf's text, print()'s value or map, clear() and
 * zero(), time(), join(); as text, or as the JSON messages bpftrace
 * sends (json.c). */
#include "out/printer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "out/dtfmt.h"
#include "out/format.h"
#include "out/json.h"

static void print_time(struct printer *pr, const char *fmt, uint64_t epoch_ns)
{
	char buf[512];
	size_t n = fmt_time(buf, sizeof(buf), fmt, epoch_ns);

	if (pr->format == OUT_JSON)
		js_text(pr->out, "time", buf, n);
	else
		fwrite(buf, 1, n, pr->out);
}

static uint64_t now_epoch_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* A value as text, malloc'd (*LEN bytes): what 0.26's printf writes
 * for %s of a value that is not a string. */
static char *pr_text(struct printer *pr, const struct type *ty, const void *p,
	      size_t *len)
{
	char *buf = NULL;
	FILE *m = open_memstream(&buf, len);

	if (!m)
		return NULL;
	pr_typed(pr, m, ty, p);
	fclose(m);
	return buf;
}

/* One printf argument of type A->ty at P as a string, when it prints
 * as one (*STACK: a malloc'd text to free); false for integers. */
static bool arg_text(struct printer *pr, const struct ev_arg *a,
		     const uint8_t *p, struct fmt_arg *out, char *tbuf,
		     size_t cap, char **stack)
{
	uint64_t v;

	out->is_str = 1;
	switch (a->ty->kind) {
	case TY_STR: {
		/* 0.26: a string that fills max_strlen (its NUL the last
		 * byte) was cut short, and says so with the trailer */
		const char *tr = pr->c->trunc_trailer ? pr->c->trunc_trailer :
				 pr->c->dialect_017 ? "" : "..";
		size_t len;

		out->s = (const char *)p;
		out->slen = (size_t)a->ty->size;
		if (*tr && !pr->c->lang_d && a->ty->size >= pr->c->strlen_ &&
		    (len = strnlen((const char *)p, (size_t)a->ty->size)) + 1 ==
		    (size_t)pr->c->strlen_) {
			*stack = xmalloc(len + strlen(tr) + 1);
			memcpy(*stack, p, len);
			strcpy(*stack + len, tr);
			out->s = *stack;
			out->slen = len + strlen(tr);
		}
		return true;
	}
	case TY_TSTAMP:
		out->slen = pr_tstamp(pr, tbuf, cap, p);
		out->s = tbuf;
		return true;
	case TY_STRERROR:
		memcpy(&v, p, 8);
		out->s = pr_errname(a->ty, (int64_t)v, tbuf, cap);
		out->slen = strlen(out->s);
		return true;
	case TY_CGPATH: {
		uint64_t k;

		memcpy(&v, p, 8);
		memcpy(&k, p + 8, 8);
		out->s = cgr_path(pr, v, k);
		out->slen = strlen(out->s);
		return true;
	}
	case TY_USERNAME:
		memcpy(&v, p, 8);
		out->s = usr_name(pr, (uint32_t)v);
		out->slen = strlen(out->s);
		return true;
	case TY_INET:
	case TY_MAC:
		if (a->ty->kind == TY_INET)
			fmt_inet(tbuf, cap, p);
		else
			fmt_mac(tbuf, cap, p);
		out->s = tbuf;
		out->slen = strlen(tbuf);
		return true;
	case TY_BUF:
		memcpy(&v, p, 8);
		out->is_buf = 1;
		out->s = (const char *)p + 8;
		out->slen = v < (uint64_t)a->ty->size ? (size_t)v
			    : (size_t)a->ty->size;
		return true;
	case TY_KSTACK:
	case TY_KSYM:
	case TY_USYM:
		*stack = stk_string(pr, a->ty, p, 8, &out->slen);
		out->s = *stack;
		return true;
	default:
		out->is_str = 0;
		/* 0.26: %s of any other value prints its text, and an
		 * integer's conversions still read the number */
		if (pr->c->dialect_017 || a->ty->kind == TY_VOID)
			return false;
		if (a->ty->kind == TY_INT) {
			memcpy(&v, p, 8);
			out->s = pr_symbol(pr, a->ty, (int64_t)v);
			if (!out->s) {
				snprintf(tbuf, cap, a->ty->is_signed ? "%lld" :
					 "%llu", (long long)v);
				out->s = tbuf;
			}
			out->slen = strlen(out->s);
			return false;
		}
		*stack = pr_text(pr, a->ty, p, &out->slen);
		out->s = *stack;
		return false;
	}
}

/* D's %S: the string with C escapes for what does not print. */
static char *escaped(const struct fmt_arg *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	size_t n = a->s ? strnlen(a->s, a->slen) : 0;
	static const char from[] = "\\\"\a\b\f\n\r\t\v", to[] = "\\\"abfnrtv";

	if (!m)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)a->s[i];
		const char *e = strchr(from, c);

		if (c && e)
			fprintf(m, "\\%c", to[e - from]);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(m, "\\%03o", c);
		else
			putc(c, m);
	}
	fclose(m);
	return buf;
}

/* D: the text that %a, %A, %S and %Y print, put into their arguments
 * (OWNED keeps what to free). */
static void dt_texts(struct printer *pr, const struct event_spec *e,
		     struct fmt_arg *args, int n, char **owned)
{
	struct fmt_piece pc[64];
	const char *tag;
	char msg[160];
	size_t eoff;
	int np = fmt_parse_d(e->fmt, e->fmt_len, pc, 64, 1, &eoff, msg,
			     sizeof(msg), &tag);
	int a = 0;

	for (int k = 0; k < np && k < 64; k++) {
		char *t = NULL;

		if (pc[k].want == FMT_WANT_NONE)
			continue;
		a += !!(pc[k].dyn & FMT_DYN_WIDTH) + !!(pc[k].dyn & FMT_DYN_PREC);
		if (a >= n)
			break;
		if (pc[k].conv == 'a' || pc[k].conv == 'A') {
			t = stk_dt_kaddr(pr, args[a].i);
		} else if (pc[k].conv == 'S') {
			t = escaped(&args[a]);
		} else if (pc[k].conv == 'Y' || pc[k].conv == 'T') {
			char buf[64];

			t = xstrdup(dtf_walltime(buf, sizeof(buf), args[a].i,
						 pc[k].conv));
		}
		if (t) {
			free(owned[a]);
			owned[a] = t;
			args[a].s = t;
			args[a].slen = strlen(t);
			args[a].is_str = 1;
		}
		a++;
	}
}

void pr_format_record(struct printer *pr, FILE *f, const struct event_spec *e,
		      const uint8_t *rec)
{
	struct fmt_arg args[64] = { { 0 } };
	char tbuf[64][128];	/* strftime, ntop, macaddr text */
	char *stacks[64] = { NULL };
	int n = e->nargs < 64 ? e->nargs : 64;

	for (int i = 0; i < n; i++) {
		const struct ev_arg *a = &e->args[i];
		const uint8_t *p = rec + a->off;

		memset(&args[i], 0, sizeof(args[i]));
		if (!arg_text(pr, a, p, &args[i], tbuf[i], sizeof(tbuf[i]),
			      &stacks[i])) {
			memcpy(&args[i].i, p, 8);
			args[i].is_signed = a->ty->is_signed;
			args[i].size = a->isize;
		}
	}
	if (pr->c->lang_d) {
		dt_texts(pr, e, args, n, stacks);
		dtf_printf(f, e->fmt, e->fmt_len, args, n);
	} else {
		fmt_print(f, e->fmt, e->fmt_len, args, n);
	}
	for (int i = 0; i < n; i++)
		free(stacks[i]);
}

/* An event's record, for the writers js_capture calls. */
struct ev_out {
	struct printer *pr;
	const struct event_spec *e;
	const uint8_t *rec;
};

static void write_printf(void *arg, FILE *f)
{
	struct ev_out *o = arg;

	pr_format_record(o->pr, f, o->e, o->rec);
}

/* join(): the strings of the record, separated; NL ends the line. */
static void write_join(struct ev_out *o, FILE *f, bool nl)
{
	size_t ssize = (size_t)ALIGN_UP(o->pr->c->strlen_, 8);
	uint64_t n;

	memcpy(&n, o->rec + 8, 8);
	for (uint64_t i = 0; i < n && i < JOIN_MAX; i++) {
		const char *str = (const char *)o->rec + 16 + i * ssize;

		if (i)
			fwrite(o->e->fmt, 1, o->e->fmt_len, f);
		fprintf(f, "%.*s", (int)ssize, str);
	}
	if (nl)
		fputc('\n', f);
}

static void write_join_json(void *arg, FILE *f)
{
	write_join(arg, f, false);
}

/* cat(): at most BPFTRACE_CAT_BYTES_MAX bytes of the file whose name
 * the record's format makes, as they are (bpftrace 0.17 adds no
 * newline); in JSON a "cat" message, an empty one when the file cannot
 * be read, as bpftrace writes it. */
static void print_cat(struct printer *pr, const struct event_spec *e,
		      const uint8_t *rec)
{
	char *name = NULL, *text = NULL;
	size_t nlen = 0, tlen = 0, left = (size_t)pr->c->cat_bytes_max;
	FILE *m = open_memstream(&name, &nlen), *f, *out;
	char buf[4096];

	if (!m)
		return;
	pr_format_record(pr, m, e, rec);
	fclose(m);
	out = pr->format == OUT_JSON ? open_memstream(&text, &tlen) : pr->out;
	f = fopen(name, "re");
	if (!f)
		fprintf(stderr, "sonde: cat(): cannot open %s: %s\n", name,
			strerror(errno));
	while (f && left) {
		size_t n = fread(buf, 1, left < sizeof(buf) ? left : sizeof(buf), f);

		if (!n) {
			if (ferror(f))
				fprintf(stderr, "sonde: cat(): cannot read %s: %s\n",
					name, strerror(errno));
			break;
		}
		if (out)
			fwrite(buf, 1, n, out);
		left -= n;
	}
	if (f)
		fclose(f);
	if (pr->format == OUT_JSON && out) {
		fclose(out);
		js_text(pr->out, "cat", text ? text : "", tlen);
		free(text);
	}
	free(name);
}

void pr_event(struct printer *pr, const struct event_spec *e,
	      const uint8_t *rec)
{
	struct ev_out o = { pr, e, rec };
	uint64_t top, div;

	switch (e->kind) {
	case EV_PRINTF:
		if (e->level == EV_LEVEL_DTFIRE) {
			if (!pr->dt_header) {
				if (pr->dt_testing)
					fprintf(pr->out, "%32s\n", "FUNCTION:NAME");
				else
					fprintf(pr->out, "%3s %6s %32s\n", "CPU", "ID",
						"FUNCTION:NAME");
				pr->dt_header = true;
			}
			pr_format_record(pr, pr->out, e, rec);
		} else if (e->level != EV_LEVEL_PRINT) {
			if (e->level != EV_LEVEL_SILENT) {
				fflush(pr->out);
				fputs(e->where, stderr);
				pr_format_record(pr, stderr, e, rec);
				fputc('\n', stderr);
			}
		} else if (pr->format == OUT_JSON)
			js_capture(pr->out, "printf", write_printf, &o);
		else
			pr_format_record(pr, pr->out, e, rec);
		break;
	case EV_PRINT_VAL:
		if (pr->dtrace)		/* D's trace() */
			pr_dt_trace(pr, e->args[0].ty, e->vsize,
				    rec + e->args[0].off);
		else
			pr_value(pr, e->args[0].ty, rec + e->args[0].off);
		break;
	case EV_PRINT_MAP:
		memcpy(&top, rec + 8, 8);
		memcpy(&div, rec + 16, 8);
		if (pr->dtrace && e->nmaps > 1)
			pr_dt_printa_join(pr, e->maps, e->nmaps, e->fmt);
		else if (pr->dtrace && e->map->agg != AGG_NONE)
			pr_dt_printa(pr, e->map, e->fmt);
		else
			pr_map(pr, e->map, top, div);
		break;
	case EV_CLEAR:
		if (e->nargs) {		/* D's trunc(@a, n) */
			int64_t n;

			memcpy(&n, rec + e->args[0].off, 8);
			pr_dt_trunc(pr, e->map, n);
		} else {
			pr_clear(pr, e->map);
		}
		break;
	case EV_NORMALIZE:
		if (e->nargs)
			memcpy(&top, rec + e->args[0].off, 8);
		else
			top = 1;
		pr_dt_normalize(pr, e->map, top);
		break;
	case EV_ZERO:
		pr_zero(pr, e->map);
		break;
	case EV_TIME:
		print_time(pr, e->fmt, now_epoch_ns());
		break;
	case EV_JOIN:
		if (pr->format == OUT_JSON)
			js_capture(pr->out, "join", write_join_json, &o);
		else
			write_join(&o, pr->out, true);
		break;
	case EV_CAT:
		print_cat(pr, e, rec);
		break;
	case EV_SETOPT:
		pr_dt_setopt(pr, e, rec);
		break;
	case EV_SYSTEM:
	case EV_FREOPEN:
	case EV_EXIT:
	case EV_UNWATCH:
		break;	/* run/'s */
	}
}
