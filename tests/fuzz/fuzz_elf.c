/* fuzz_elf.c - fuzz target: ELF files through the symbol reader
 * (elfsym.c), the USDT note reader (usdt.c), the call frame
 * information compiler (cfi.c: the stack walker's rows of any file a
 * traced process maps) and the MiniDebugInfo reader (debuginfo.c).
 *
 * An input that starts with the ELF magic is a file: written to a
 * memfd (the readers take paths; /proc/self/fd/N names it), then read
 * by every path-based reader as sonde reads a uprobe's or usdt's file,
 * and loaded from memory as the vDSO is (elf_symtab_load_mem; the path
 * form would look for detached debug files beside /proc/self/fd/N,
 * which are the fuzzer's own descriptors).
 *
 * Any other input is one raw note section: its first byte says how to
 * read the rest (bit 0: 32-bit addresses, bit 1: big-endian, bit 2:
 * 8-byte alignment), and each stapsdt note's operands are decoded with
 * a made-up symbol table.
 */
#include "fuzz.h"

#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libelf.h>

#include "catalog/cfi.h"
#include "catalog/debuginfo.h"
#include "catalog/elfsym.h"
#include "catalog/usdt.h"

#define MAX_ADDRS 64

static int memfd = -1;
static char path[64];
static uint64_t addrs[MAX_ADDRS];
static int naddrs;
static volatile size_t sink;	/* keeps the reads of results */

static void note_addr(uint64_t a)
{
	if (naddrs < MAX_ADDRS)
		addrs[naddrs++] = a;
}

static void on_func(void *arg, const struct elf_func *f)
{
	(void)arg;
	sink += strlen(f->name) + f->offset;
	note_addr(f->addr);
	note_addr(f->addr + f->size);
}

static void use_args(const struct usdt_arg *a, int n)
{
	for (int i = 0; i < n; i++) {
		sink += strlen(usdt_arg_type(&a[i]));
		if (a[i].loc == USDT_BAD)
			sink += strlen(a[i].err);
	}
}

static void on_note(void *arg, const struct usdt_note *n)
{
	(void)arg;
	sink += strlen(n->provider) + strlen(n->name) + strlen(n->args);
	sink += n->pc_offset + n->sem_offset;
	use_args(n->arg, n->nargs);
	note_addr(n->pc);
}

/* A symbol table of names starting with a letter up to 'p', each at
 * an address made of its length: deterministic, and both outcomes. */
static int fake_sym(void *ctx, const char *name, uint64_t *addr)
{
	(void)ctx;
	if (*name < 'a' || *name > 'p')
		return -1;
	*addr = 0x400000 + 0x10 * strlen(name);
	return 0;
}

static void on_raw_note(void *arg, const char *provider, const char *name,
			const char *args, const uint64_t addr[3])
{
	struct usdt_arg a[USDT_MAX_ARGS];
	bool too_many;
	int n;

	(void)arg;
	sink += strlen(provider) + strlen(name);
	n = usdt_parse_args(args, addr[0], fake_sym, NULL, a, &too_many);
	use_args(a, n);
}

static bool put_file(const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (memfd < 0) {
		memfd = memfd_create("sonde-fuzz-elf", MFD_CLOEXEC);
		if (memfd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	}
	if (ftruncate(memfd, 0))
		return false;
	while (done < size) {
		ssize_t n = pwrite(memfd, data + done, size - done, (off_t)done);

		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

/* The unwind rows of the file, and the rows of the addresses seen. */
static void cfi_rows(void)
{
	struct cfi_table t;

	if (cfi_load(path, &t) != 0)
		return;
	for (int i = 0; i < naddrs; i++) {
		const struct cfi_row *r = cfi_find(&t, addrs[i]);

		if (r)
			sink += (size_t)r->cfa + (size_t)r->cfa_off;
	}
	sink += t.n;
	cfi_free(&t);
}

/* .gnu_debugdata, decompressed and opened as ELF. */
static void mini(const uint8_t *data, size_t size)
{
	char *copy = malloc(size);
	void *image;
	Elf *e, *m;

	if (!copy || elf_version(EV_CURRENT) == EV_NONE) {
		free(copy);
		return;
	}
	memcpy(copy, data, size);
	e = elf_memory(copy, size);
	if (e && (m = minidebuginfo(e, &image)) != NULL) {
		size_t n;

		if (elf_getshdrnum(m, &n) == 0)
			sink += n;
		elf_end(m);
		free(image);
	}
	if (e)
		elf_end(e);
	free(copy);
}

static void elf_file(const uint8_t *data, size_t size)
{
	struct elf_symtab st;
	uint64_t v, sz;
	bool pie;
	int nbad;

	naddrs = 0;
	if (put_file(data, size) && elf_check(path) == 0) {
		elf_functions(path, "*", on_func, NULL);
		elf_functions(path, "m[a-z]*", on_func, NULL);
		if (elf_symbol(path, "main", &v, &pie, &sz) == 0)
			note_addr(v);
		elf_symbol(path, "nosuchsymbol", &v, &pie, NULL);
		free(elf_needed(path));
		usdt_notes(path, NULL, NULL, on_note, NULL, &nbad);
		usdt_notes(path, "p*", "n*", on_note, NULL, &nbad);
		for (int i = 0; i < naddrs && i < 8; i++)
			if (elf_addr_to_offset(path, addrs[i], &v) == 0)
				sink += v;
		cfi_rows();
		mini(data, size);
	}
	if (elf_symtab_load_mem(data, size, &st) == 0) {
		for (int i = 0; i < naddrs; i++) {
			const struct elf_sym *s = elf_symtab_find(&st, addrs[i]);

			if (s)
				sink += strlen(s->name);
			if (elf_symtab_vaddr(&st, addrs[i], &v) == 0)
				sink += v;
		}
		for (size_t i = 0; i < st.n; i++) {
			const struct elf_sym *s = elf_symtab_find(&st, st.v[i].addr);

			sink += s ? strlen(s->name) : 0;
		}
		elf_symtab_free(&st);
	}
}

int fuzz_elf(const uint8_t *data, size_t size)
{
	int nbad = 0;

	if (size >= SELFMAG && !memcmp(data, ELFMAG, SELFMAG)) {
		elf_file(data, size);
		return 0;
	}
	if (size < 1)
		return 0;
	usdt_parse_section(data + 1, size - 1, data[0] & 1 ? 4 : 8,
			   data[0] & 2, data[0] & 4 ? 8 : 4, on_raw_note, NULL,
			   &nbad);
	return 0;
}

FUZZ_ENTRY(fuzz_elf)
