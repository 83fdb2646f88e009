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
#include "out/printer.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out/fold.h"
#include "catalog/ksyms.h"
#include "catalog/srcinfo.h"
#include "out/usyms.h"

static const struct ksyms *syms(struct printer *pr)
{
	int rc;

	if (pr->ksyms_tried)
		return pr->ksyms;
	pr->ksyms_tried = true;
	pr->ksyms = xcalloc(1, sizeof(*pr->ksyms));
	rc = ksyms_load(pr->ksyms, NULL);
	if (rc) {
		fprintf(stderr, "sonde: cannot read kernel symbols from /proc/kallsyms (%s): kernel addresses print in hex\n",
			strerror(-rc));
		free(pr->ksyms);
		pr->ksyms = NULL;
	}
	return pr->ksyms;
}

/* An address no symbol holds, in hex as bpftrace 0.17 writes a pointer:
 * "0x1234", but "0" for 0. */
static void print_addr(FILE *f, uint64_t addr)
{
	if (addr)
		fprintf(f, "0x%" PRIx64, addr);
	else
		fputc('0', f);
}

static void print_sym(struct printer *pr, FILE *f, uint64_t addr, bool off)
{
	const struct ksyms *k = syms(pr);
	const struct ksym *s = k ? ksyms_find(k, addr) : NULL;

	if (!s) {
		print_addr(f, addr);
		return;
	}
	fputs(s->name, f);
	if (off)
		fprintf(f, "+%" PRIu64, addr - s->addr);
}

char *stk_dt_kaddr(struct printer *pr, uint64_t addr)
{
	const struct ksyms *k = syms(pr);
	const struct ksym *s = k ? ksyms_find(k, addr) : NULL;
	char buf[600];

	if (!s)
		snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
	else if (addr == s->addr)
		snprintf(buf, sizeof(buf), "vmlinux`%.500s", s->name);
	else
		snprintf(buf, sizeof(buf), "vmlinux`%.500s+0x%" PRIx64, s->name,
			 addr - s->addr);
	return xstrdup(buf);
}

/* A user address of process PID: "func", "func+off", with PERF
 * " (path)"; unknown: "0xADDR", with PERF " ([unknown])". */
static void print_usym(struct printer *pr, FILE *f, int pid, uint64_t addr,
		       bool off, bool perf)
{
	struct usym_frame fr;

	if (pr->usyms && us_resolve(pr->usyms, pid, addr, &fr) && fr.func) {
		fputs(fr.func, f);
		if (off)
			fprintf(f, "+%" PRIu64, fr.off);
		if (perf)
			fprintf(f, " (%s)", fr.path);
		return;
	}
	print_addr(f, addr);
	if (perf)
		fputs(" ([unknown])", f);
}

/* A user frame with config show_debug_info, as bpftrace 0.26 prints it:
 * the functions inlined at ADDR first, innermost first, "[inlined]
 * NAME@FILE:LINE" (perf mode: "ADDR NAME (inlined)"), then the function
 * with "@FILE:LINE" after its offset (perf mode: as without). */
static void debug_frames(struct printer *pr, FILE *f, int pid, uint64_t addr,
			 int indent, bool perf)
{
	struct src_frame sf[16];
	struct usym_frame fr;
	int n = 0;

	if (pr->usyms && us_resolve(pr->usyms, pid, addr, &fr) && fr.func)
		n = us_srcinfo(pr->usyms, pid, addr, sf, 16);
	for (int k = 0; k < n - 1; k++) {
		if (perf) {
			fprintf(f, "\t%" PRIx64 " %s (inlined)\n", addr,
				sf[k].name ? sf[k].name : "[unknown]");
			continue;
		}
		fprintf(f, "%*s[inlined] %s", indent, "",
			sf[k].name ? sf[k].name : "[unknown]");
		if (sf[k].file)
			fprintf(f, "@%s:%d", sf[k].file, sf[k].line);
		fputc('\n', f);
	}
	if (perf) {
		fprintf(f, "\t%" PRIx64 " ", addr);
		print_usym(pr, f, pid, addr, true, true);
		return;
	}
	fprintf(f, "%*s", indent, "");
	print_usym(pr, f, pid, addr, true, false);
	if (n > 0 && sf[n - 1].file)
		fprintf(f, "@%s:%d", sf[n - 1].file, sf[n - 1].line);
}

/* build_id mode, as bpftrace 0.26 prints it: the build id of the file
 * mapped at ADDR and the file offset ("0123...ef 0x1139"), or ADDR in
 * hex when there is none.  bpftrace takes them from the kernel's
 * build-id stack map (bpf_get_stack(BPF_F_USER_BUILD_ID)); sonde from
 * the mappings and files usyms keeps, which gives the same, also for
 * pages the kernel would find not in memory. */
static void print_build_id(struct printer *pr, FILE *f, int pid, uint64_t addr)
{
	const char *id;
	uint64_t off;

	if (pr->usyms && (id = us_build_id(pr->usyms, pid, addr, &off)))
		fprintf(f, "%s 0x%02" PRIx64, id, off);
	else
		fprintf(f, "%" PRIx64, addr);
}

/* D's sym(), func(), mod() and their user versions: "vmlinux`name",
 * "libc.so.6`malloc", the module alone for mod(), or the address in
 * hex where nothing holds it. */
static void dt_sym(struct printer *pr, FILE *f, const struct type *ty,
		   const void *data)
{
	uint64_t v, pid;
	struct usym_frame fr;

	memcpy(&v, data, 8);
	if (ty->kind == TY_KSYM) {
		const struct ksyms *k = syms(pr);
		const struct ksym *s = k ? ksyms_find(k, v) : NULL;

		if (!s)
			fprintf(f, "0x%" PRIx64, v);
		else if (ty->modonly)
			fputs("vmlinux", f);
		else
			fprintf(f, "vmlinux`%s", s->name);
		return;
	}
	memcpy(&pid, (const uint8_t *)data + 8, 8);
	if (pr->usyms && us_resolve(pr->usyms, (int)pid, v, &fr) && fr.path &&
	    (fr.func || ty->modonly)) {
		const char *base = strrchr(fr.path, '/');

		base = base ? base + 1 : fr.path;
		if (ty->modonly)
			fputs(base, f);
		else
			fprintf(f, "%s`%s", base, fr.func);
		return;
	}
	fprintf(f, "0x%" PRIx64, v);
}

/* The map of stack ID of DEPTH frames: the kernel's stack map, or for
 * an id with bit 31 set the walker's (bpf/cg_unwind.c). */
static int stack_fd(struct printer *pr, int depth, uint32_t id)
{
	struct compiler *c = pr->c;
	const int *fds = id & 0x80000000u ? pr->dwstack_fds : pr->stack_fds;

	for (int i = 0; fds && i < c->nstack_maps; i++)
		if (c->stack_depths[i] == depth)
			return fds[i];
	return -1;
}

/* The addresses of stack value DATA of type TY, innermost first, in a
 * malloc'd array (*N of them), and the process of a user stack in *PID;
 * NULL for no stack. */
static uint64_t *stack_ips(struct printer *pr, const struct type *ty,
			   const void *data, int *n, int *pid)
{
	uint64_t v, *ips;
	uint32_t id;
	int fd;

	memcpy(&v, data, 8);
	*pid = 0;
	*n = 0;
	if (ty->suser) {
		*pid = (int)(v >> 32);
		v &= UINT32_MAX;
	}
	if (!v || v - 1 > UINT32_MAX)
		return NULL;
	id = (uint32_t)(v - 1);
	fd = stack_fd(pr, ty->sdepth, id);
	ips = xcalloc((size_t)ty->sdepth, sizeof(*ips));
	/* The kernel zeroes the frames past the stack's end. */
	if (fd < 0 || bpf_map_lookup_elem(fd, &id, ips) != 0) {
		free(ips);
		return NULL;
	}
	while (*n < ty->sdepth && ips[*n])
		(*n)++;
	return ips;
}

void stk_print(struct printer *pr, FILE *f, const struct type *ty,
	       const void *data, int indent)
{
	uint64_t v, *ips;
	int n, pid;

	memcpy(&v, data, 8);
	if (pr->dtrace && (ty->kind == TY_KSYM || ty->kind == TY_USYM)) {
		dt_sym(pr, f, ty, data);
		return;
	}
	if (ty->kind == TY_KSYM) {
		print_sym(pr, f, v, false);
		return;
	}
	if (ty->kind == TY_USYM) {
		uint64_t p;

		memcpy(&p, (const uint8_t *)data + 8, 8);
		print_usym(pr, f, (int)p, v, false, false);
		return;
	}
	ips = stack_ips(pr, ty, data, &n, &pid);
	if (!ips)
		return;
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		switch (ty->smode) {
		case SM_BPFTRACE:
			if (ty->suser && pr->debug_info) {
				debug_frames(pr, f, pid, ips[i], indent, false);
				break;
			}
			fprintf(f, "%*s", indent, "");
			if (ty->suser)
				print_usym(pr, f, pid, ips[i], true, false);
			else
				print_sym(pr, f, ips[i], true);
			break;
		case SM_PERF:
			if (ty->suser && pr->debug_info) {
				debug_frames(pr, f, pid, ips[i], indent, true);
				break;
			}
			fprintf(f, "\t%" PRIx64 " ", ips[i]);
			if (ty->suser)
				print_usym(pr, f, pid, ips[i], true, true);
			else
				print_sym(pr, f, ips[i], true);
			break;
		case SM_RAW:
			fprintf(f, "%" PRIx64, ips[i]);
			break;
		case SM_BUILD_ID:	/* a user stack (sema) */
			print_build_id(pr, f, pid, ips[i]);
			break;
		}
		fputc('\n', f);
	}
	free(ips);
}

/* Folded frames are functions without offsets, so that the samples of
 * one function merge.  A user address in a known file that no function
 * covers is named by the file ("[libc.so.6]"), as perf does; any other
 * unknown address is "[unknown]".  Raw mode asks for addresses. */
int stk_frames(struct printer *pr, const struct type *ty, const void *data,
	       struct fold_frames *ff, const char *suffix)
{
	int n, pid;
	uint64_t *ips = stack_ips(pr, ty, data, &n, &pid);

	for (int i = n - 1; i >= 0; i--) {
		const char *name = "[unknown]";
		char buf[256];

		if (ty->smode == SM_RAW) {
			snprintf(buf, sizeof(buf), "0x%" PRIx64, ips[i]);
			name = buf;
		} else if (ty->suser) {
			struct usym_frame fr;

			if (pr->usyms && us_resolve(pr->usyms, pid, ips[i], &fr)) {
				if (fr.func) {
					name = fr.func;
				} else if (fr.path && fr.path[0] == '[') {
					name = fr.path;	/* [vdso] */
				} else if (fr.path) {
					const char *b = strrchr(fr.path, '/');

					snprintf(buf, sizeof(buf), "[%s]",
						 b ? b + 1 : fr.path);
					name = buf;
				}
			}
		} else {
			const struct ksyms *k = syms(pr);
			const struct ksym *s = k ? ksyms_find(k, ips[i]) : NULL;

			if (s)
				name = s->name;
		}
		fold_push(ff, name, strlen(name), suffix);
	}
	free(ips);
	return n;
}

char *stk_string(struct printer *pr, const struct type *ty, const void *data,
		 int indent, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	if (!f) {
		*len = 0;
		return xstrdup("");
	}
	stk_print(pr, f, ty, data, indent);
	fclose(f);
	*len = n;
	return buf;
}

void stk_free(struct printer *pr)
{
	if (pr->ksyms) {
		ksyms_free(pr->ksyms);
		free(pr->ksyms);
	}
	pr->ksyms = NULL;
	pr->ksyms_tried = false;
}
