/* stacks.c - kernel and user stacks and symbols as text, the way
 * bpftrace 0.17 prints them.
 *
 * A kstack value is 1 + the id bpf_get_stackid gave the stack in the
 * stack map of its depth; 0 is no stack (the probe interrupted user
 * space, or the map could not store it).  A ustack value holds the
 * process id in its high 32 bits and 1 + the id in its low 32 bits
 * (low half 0: no stack).  The text is a newline, then a line per
 * frame, innermost first:
 *
 *   mode bpftrace   INDENT spaces, "func+off" (offset in decimal)
 *   mode perf       a tab, the address in hex, a space, "func+off";
 *                   user frames add " (path of the mapped file)"
 *   mode raw        the address in hex
 *
 * An address no symbol covers prints as "0xADDR" in place of func+off
 * (perf mode, user frames: "0xADDR ([unknown])"), and no stack as
 * nothing at all (bpftrace's "@[]: 3" for samples taken in user
 * space).  ksym(addr) and usym(addr) print the symbol's name alone, or
 * 0xADDR.  User symbols come from usyms.c, C++ names demangled.
 *
 * /proc/kallsyms is read the first time a stack or symbol is printed,
 * so a script without them never pays for it; sonde's programs are
 * loaded by then and resolve too (bpf_prog_TAG_NAME).
 */
#include "tracer.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ksyms.h"
#include "usyms.h"

static const struct ksyms *syms(struct tracer *t)
{
	int rc;

	if (t->ksyms_tried)
		return t->ksyms;
	t->ksyms_tried = true;
	t->ksyms = xcalloc(1, sizeof(*t->ksyms));
	rc = ksyms_load(t->ksyms, NULL);
	if (rc) {
		fprintf(stderr, "sonde: cannot read kernel symbols from /proc/kallsyms (%s): kernel addresses print in hex\n",
			strerror(-rc));
		free(t->ksyms);
		t->ksyms = NULL;
	}
	return t->ksyms;
}

static void print_sym(struct tracer *t, FILE *f, uint64_t addr, bool off)
{
	const struct ksyms *k = syms(t);
	const struct ksym *s = k ? ksyms_find(k, addr) : NULL;

	if (!s) {
		fprintf(f, "0x%" PRIx64, addr);
		return;
	}
	fputs(s->name, f);
	if (off)
		fprintf(f, "+%" PRIu64, addr - s->addr);
}

/* A user address of process PID: "func", "func+off", with PERF
 * " (path)"; unknown: "0xADDR", with PERF " ([unknown])". */
static void print_usym(struct tracer *t, FILE *f, int pid, uint64_t addr,
		       bool off, bool perf)
{
	struct usym_frame fr;

	if (t->usyms && us_resolve(t->usyms, pid, addr, &fr) && fr.func) {
		fputs(fr.func, f);
		if (off)
			fprintf(f, "+%" PRIu64, fr.off);
		if (perf)
			fprintf(f, " (%s)", fr.path);
		return;
	}
	fprintf(f, "0x%" PRIx64, addr);
	if (perf)
		fputs(" ([unknown])", f);
}

static int stack_fd(struct tracer *t, int depth)
{
	struct compiler *c = t->c;

	for (int i = 0; t->stack_fds && i < c->nstack_maps; i++)
		if (c->stack_depths[i] == depth)
			return t->stack_fds[i];
	return -1;
}

void stk_print(struct tracer *t, FILE *f, const struct type *ty,
	       const void *data, int indent)
{
	uint64_t v, *ips;
	uint32_t id;
	int fd, pid = 0;

	memcpy(&v, data, 8);
	if (ty->kind == TY_KSYM) {
		print_sym(t, f, v, false);
		return;
	}
	if (ty->kind == TY_USYM) {
		uint64_t p;

		memcpy(&p, (const uint8_t *)data + 8, 8);
		print_usym(t, f, (int)p, v, false, false);
		return;
	}
	if (ty->suser) {
		pid = (int)(v >> 32);
		v &= UINT32_MAX;
	}
	if (!v || v - 1 > UINT32_MAX)
		return;
	id = (uint32_t)(v - 1);
	fd = stack_fd(t, ty->sdepth);
	ips = xcalloc((size_t)ty->sdepth, sizeof(*ips));
	/* The kernel zeroes the frames past the stack's end. */
	if (fd < 0 || bpf_map_lookup_elem(fd, &id, ips) != 0) {
		free(ips);
		return;
	}
	fputc('\n', f);
	for (int i = 0; i < ty->sdepth && ips[i]; i++) {
		switch (ty->smode) {
		case SM_BPFTRACE:
			fprintf(f, "%*s", indent, "");
			if (ty->suser)
				print_usym(t, f, pid, ips[i], true, false);
			else
				print_sym(t, f, ips[i], true);
			break;
		case SM_PERF:
			fprintf(f, "\t%" PRIx64 " ", ips[i]);
			if (ty->suser)
				print_usym(t, f, pid, ips[i], true, true);
			else
				print_sym(t, f, ips[i], true);
			break;
		case SM_RAW:
			fprintf(f, "%" PRIx64, ips[i]);
			break;
		}
		fputc('\n', f);
	}
	free(ips);
}

char *stk_string(struct tracer *t, const struct type *ty, const void *data,
		 int indent, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f) {
		*len = 0;
		return xstrdup("");
	}
	stk_print(t, f, ty, data, indent);
	fclose(f);
	*len = n;
	return buf;
}

void stk_free(struct tracer *t)
{
	if (t->ksyms) {
		ksyms_free(t->ksyms);
		free(t->ksyms);
	}
	t->ksyms = NULL;
	t->ksyms_tried = false;
}
