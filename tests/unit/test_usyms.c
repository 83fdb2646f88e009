/* test_usyms.c - unit tests for src/out/usyms.c and the symbol tables of
 * src/catalog/elfsym.c, on this test program's own process (no root needed):
 * its /proc/self/maps, its own functions (PIE or not) and libc's.
 *
 * Prints one line per failed check and "N passed, N failed"; exits 1 if
 * any check failed.
 */
#include "catalog/elfsym.h"
#include "out/usyms.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "check.h"

__attribute__((noinline)) int usyms_marker_fn(int x);
__attribute__((noinline)) int usyms_marker_fn(int x)
{
	return x * 7 + (int)getpid();
}

__attribute__((noinline)) static int static_marker(int x)
{
	return x * 11 + usyms_marker_fn(x);
}

static void resolve(struct usyms *u, uint64_t addr, const char *want,
		    uint64_t off, const char *path_end)
{
	struct usym_frame f;
	bool ok = us_resolve(u, (int)getpid(), addr, &f);
	size_t pl = f.path ? strlen(f.path) : 0, el = strlen(path_end);

	if (ok && f.func && strstr(f.func, want) && f.off == off && pl >= el &&
	    !strcmp(f.path + pl - el, path_end)) {
		npass++;
		return;
	}
	nfail++;
	printf("FAIL resolve(0x%llx): want %s+%llu in *%s, got %s %s+%llu in %s\n",
	       (unsigned long long)addr, want, (unsigned long long)off,
	       path_end, ok ? "mapped" : "unmapped", f.func ? f.func : "(none)",
	       (unsigned long long)f.off, f.path ? f.path : "(none)");
}

int main(int argc, char **argv)
{
	struct usyms *u = us_new(false, -1);
	struct usym_frame f;
	struct elf_symtab st;
	const struct elf_sym *s;
	uint64_t v;
	int (*volatile fn)(int) = static_marker;

	(void)argc;
	check(fn(1) != 0, "static_marker runs");
	check(us_snapshot(u, (int)getpid()) == 0, "us_snapshot(self)");
	resolve(u, (uint64_t)(uintptr_t)usyms_marker_fn, "usyms_marker_fn", 0,
		"/test_usyms");
	resolve(u, (uint64_t)(uintptr_t)usyms_marker_fn + 3, "usyms_marker_fn",
		3, "/test_usyms");
	resolve(u, (uint64_t)(uintptr_t)static_marker + 1, "static_marker", 1,
		"/test_usyms");
	/* libc: __getpid or getpid (aliases), through the shared object */
	resolve(u, (uint64_t)(uintptr_t)getpid, "getpid", 0, ".so.6");
	resolve(u, (uint64_t)(uintptr_t)getppid + 2, "getppid", 2, ".so.6");
	check(!us_resolve(u, (int)getpid(), 16, &f) && !f.func && !f.path,
	      "an unmapped address resolves to nothing");
	/* vDSO: its image in memory, at the same offsets in every process */
	if (getauxval(AT_SYSINFO_EHDR)) {
		bool ok = us_resolve(u, (int)getpid(),
				     (uint64_t)getauxval(AT_SYSINFO_EHDR), &f);

		check(ok && f.path && !strcmp(f.path, "[vdso]"),
		      "the vDSO is a mapping");
	}
	/* A process that does not exist: nothing, no crash. */
	check(!us_resolve(u, 0x3ffffff0, 0x401000, &f), "no such process");
	us_note(u, 0x3ffffff0);
	us_free(u);

	/* elf_symtab directly: this program's own file */
	check(elf_symtab_load(argv[0], &st) == 0, "elf_symtab_load(self)");
	check(st.n > 0 && st.nseg > 0, "symbols and segments");
	for (size_t i = 1; i < st.n; i++)
		if (st.v[i - 1].addr >= st.v[i].addr) {
			check(0, "sorted, one symbol per address");
			break;
		}
	s = NULL;
	for (size_t i = 0; i < st.n; i++)
		if (!strcmp(st.v[i].name, "usyms_marker_fn"))
			s = &st.v[i];
	check(s != NULL, "usyms_marker_fn in the table");
	if (s) {
		check(elf_symtab_find(&st, s->addr + 1) == s, "find inside");
		check(elf_symtab_find(&st, s->addr + s->size) != s,
		      "find past the end");
	}
	check(elf_symtab_vaddr(&st, 1ULL << 60, &v) != 0,
	      "an offset past the file has no address");
	elf_symtab_free(&st);
	check(elf_symtab_load("/nonexistent/x", &st) < 0, "missing file");
	check(elf_symtab_load("/proc/self/status", &st) < 0, "not ELF");

	return check_summary();
}
