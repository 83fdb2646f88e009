/* srcinfo.c - an address's source file and line and the functions
 * inlined there, from the file's DWARF through libdwfl (which finds a
 * separate debug file by build id or .gnu_debuglink): the debug
 * information bpftrace 0.26 prints with show_debug_info.
 *
 * dwarf_getscopes() gives the innermost scope holding the address, and
 * dwarf_getscopes_die() of an inlined instance the concrete ones
 * around it, innermost first: each DW_TAG_inlined_subroutine is one
 * inlined frame (its name through its abstract origin), up to the
 * DW_TAG_subprogram of the function itself.  The innermost frame is at the address's line; each
 * frame outside it is at the call site its inner inlined subroutine
 * records (DW_AT_call_file, DW_AT_call_line). */
#include "catalog/srcinfo.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct srcinfo {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwfl_Callbacks cb;
	char *dpath;
	Dwarf_Addr base;	/* the module's address of vaddr 0 */
};

struct srcinfo *srcinfo_open(const char *path)
{
	struct srcinfo *s = xcalloc(1, sizeof(*s));
	Dwarf_Addr bias;

	s->cb.find_elf = dwfl_build_id_find_elf;
	s->cb.find_debuginfo = dwfl_standard_find_debuginfo;
	s->cb.section_address = dwfl_offline_section_address;
	s->cb.debuginfo_path = &s->dpath;
	s->dwfl = dwfl_begin(&s->cb);
	if (!s->dwfl)
		goto fail;
	s->mod = dwfl_report_offline(s->dwfl, path, path, -1);
	if (!s->mod || dwfl_report_end(s->dwfl, NULL, NULL) != 0 ||
	    !dwfl_module_getdwarf(s->mod, &bias))
		goto fail;
	/* offline, an ET_DYN file is placed at some base: the DWARF's
	 * addresses (the file's) are the module's minus the bias */
	s->base = bias;
	return s;
fail:
	srcinfo_close(s);
	return NULL;
}

void srcinfo_close(struct srcinfo *s)
{
	if (!s)
		return;
	if (s->dwfl)
		dwfl_end(s->dwfl);
	free(s);
}

/* The name of file number IDX of unit CU's line table. */
static const char *unit_file(Dwarf_Die *cu, Dwarf_Word idx)
{
	Dwarf_Files *files;
	size_t n;

	if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

int srcinfo_at(struct srcinfo *s, uint64_t vaddr, struct src_frame *out,
	       int max)
{
	Dwarf_Addr a = vaddr + s->base, cubias;
	Dwarf_Die *cu, *scopes = NULL;
	Dwfl_Line *l;
	const char *file = NULL;
	int line = 0, n = 0, nscopes;

	if (max < 1 || !(cu = dwfl_module_addrdie(s->mod, a, &cubias)))
		return 0;
	l = dwfl_module_getsrc(s->mod, a);
	if (l)
		file = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	nscopes = dwarf_getscopes(cu, a - cubias, &scopes);
	if (nscopes > 0 && dwarf_tag(&scopes[0]) == DW_TAG_inlined_subroutine) {
		/* after an inlined instance dwarf_getscopes() goes on with
		 * its definition's scopes; the instances containing it come
		 * from the instance's own DIE */
		Dwarf_Die inst = scopes[0], *chain = NULL;
		int k = dwarf_getscopes_die(&inst, &chain);

		free(scopes);
		scopes = chain;
		nscopes = k;
	}
	for (int i = 0; i < nscopes && n < max - 1; i++) {
		Dwarf_Die *d = &scopes[i];
		Dwarf_Attribute at;
		Dwarf_Word w;

		if (dwarf_tag(d) == DW_TAG_subprogram)
			break;
		if (dwarf_tag(d) != DW_TAG_inlined_subroutine)
			continue;
		out[n].name = dwarf_diename(d);
		out[n].file = file;
		out[n].line = line;
		out[n++].inlined = 1;
		/* the frame outside it is at its call site */
		file = dwarf_formudata(dwarf_attr(d, DW_AT_call_file, &at), &w) == 0 ?
		       unit_file(cu, w) : NULL;
		line = dwarf_formudata(dwarf_attr(d, DW_AT_call_line, &at), &w) == 0 ?
		       (int)w : 0;
	}
	free(scopes);
	out[n].name = NULL;
	out[n].file = file;
	out[n].line = line;
	out[n++].inlined = 0;
	return n;
}
