/* probes.c - from attach-point text to probe_spec.
 *
 * Probe kinds of this file: BEGIN, END (any case of begin/end), and
 * interval:UNIT:N (units s ms us hz, also interval:Ns / interval:Nms).
 */
#include "probes.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

/* Nanoseconds per unit, or 0 for "hz" (a frequency), -1 if unknown. */
static int64_t unit_ns(const char *u)
{
	if (!strcmp(u, "s") || !strcmp(u, "sec"))
		return 1000000000LL;
	if (!strcmp(u, "ms"))
		return 1000000LL;
	if (!strcmp(u, "us"))
		return 1000LL;
	if (!strcmp(u, "ns"))
		return 1LL;
	if (!strcmp(u, "hz"))
		return 0;
	return -1;
}

static int interval(struct compiler *c, struct node *ap, char **f, int nf,
		    struct probe_spec *ps)
{
	uint64_t n;
	int64_t ns;
	const char *unit, *num;
	char buf[32];

	if (nf == 3) {
		unit = f[1];
		num = f[2];
	} else if (nf == 2) {
		/* interval:100ms */
		size_t k = strspn(f[1], "0123456789");

		if (k == 0 || k >= sizeof(buf))
			goto bad;
		memcpy(buf, f[1], k);
		buf[k] = 0;
		num = buf;
		unit = f[1] + k;
	} else {
		goto bad;
	}
	if (!*unit || !*num)
		goto bad;
	ns = unit_ns(unit);
	if (ns < 0) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "interval unit '%s' is not one of s, ms, us, ns, hz",
			   unit);
		return -1;
	}
	if (parse_u64(num, &n) || n == 0) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "interval needs a positive integer count, not '%s'", num);
		return -1;
	}
	if (ns == 0) {
		if (n > 1000000000ULL) {
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "interval frequency %llu hz is too high",
				   (unsigned long long)n);
			return -1;
		}
		ps->period_ns = 1000000000ULL / n;
	} else {
		if (n > UINT64_MAX / (uint64_t)ns) {
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "interval period overflows");
			return -1;
		}
		ps->period_ns = n * (uint64_t)ns;
	}
	ps->kind = PK_INTERVAL;
	return 0;
bad:
	diag_error(&c->diag, ap->loc, E_PROBE,
		   "interval probe needs a unit and a count: interval:s:1, interval:ms:100, interval:hz:99");
	return -1;
}

/* bpftrace's probe types and their short names: an unknown type is a
 * typo, a known one without support here is a missing feature. */
static bool known_type(const char *t)
{
	static const char *const types[] = {
		"kprobe", "k", "kretprobe", "kr", "uprobe", "u", "uretprobe",
		"ur", "tracepoint", "t", "rawtracepoint", "rt", "profile", "p",
		"interval", "i", "software", "s", "hardware", "h", "usdt", "U",
		"watchpoint", "w", "asyncwatchpoint", "aw", "kfunc", "f",
		"kretfunc", "fr", "fentry", "fexit", "iter", "it",
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(t, types[i]))
			return true;
	return false;
}

int probes_expand(struct compiler *c, struct node *ap,
		  struct probe_spec **out, int *n)
{
	struct probe_spec *ps = arena_alloc(&c->arena, sizeof(*ps));
	char *f[8];
	int nf;

	ps->loc = ap->loc;
	ps->name = ap->name;
	*out = ps;
	*n = 1;
	if (!strcasecmp(ap->name, "BEGIN")) {
		ps->kind = PK_BEGIN;
		ps->name = "BEGIN";
		return 0;
	}
	if (!strcasecmp(ap->name, "END")) {
		ps->kind = PK_END;
		ps->name = "END";
		return 0;
	}
	nf = split(c, ap->name, f, 7);
	if (!strcmp(f[0], "interval") || !strcmp(f[0], "i")) {
		if (interval(c, ap, f, nf, ps))
			return -1;
		/* `probe` shows the canonical spelling, as bpftrace does. */
		if (nf == 3)
			ps->name = arena_printf(&c->arena, "interval:%s:%s",
						f[1], f[2]);
		return 0;
	}
	if (!strcasecmp(f[0], "BEGIN") || !strcasecmp(f[0], "END")) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "%s takes nothing after it: write just %s", f[0], f[0]);
		return -1;
	}
	if (!known_type(f[0])) {
		if (nf == 1)
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "unknown probe '%s' (expected BEGIN, END or TYPE:...)",
				   ap->name);
		else
			diag_error(&c->diag, ap->loc, E_PROBE,
				   "unknown probe type '%s'", f[0]);
		return -1;
	}
	if (nf == 1) {
		diag_error(&c->diag, ap->loc, E_PROBE,
			   "probe type '%s' needs a target, as in %s:NAME",
			   f[0], f[0]);
		return -1;
	}
	diag_error(&c->diag, ap->loc, E_PROBE,
		   "probe type '%s' is not supported yet", f[0]);
	return -1;
}
