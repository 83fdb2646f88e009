/* dtobj.c - dtrace -G over objects built for DTrace's probes.
 *
 * Solaris', illumos' and Oracle Linux's <sys/sdt.h> (DTRACE_PROBE(p, n,
 * args...)), and the headers their `dtrace -h` writes, place a probe
 * as a call to an undefined function __dtrace_PROV___NAME(args), and
 * ask "is it traced?" with a call to __dtraceenabled_PROV___NAME();
 * their `dtrace -G` rewrites the objects.  So does sonde's, into what
 * its own <sonde/sdt.h> would have made:
 *
 *   - each probe call becomes a NOP of the call's size, with a
 *     .note.stapsdt note (SystemTap's format, version 3: the NOP's
 *     address, the probe's semaphore, provider, name and its arguments
 *     where the calling convention left them: 8@%rdi 8@%rsi ... then
 *     8@0(%rsp) ... on x86-64, 8@x0 ... on arm64), its addresses as
 *     relocations against the function holding it and the semaphore;
 *     the call's relocation becomes R_*_NONE and the function's
 *     symbol weak, so that nothing is left to resolve;
 *   - each is-enabled call stays, to a function the -G object defines
 *     (dtrace.c), which returns whether the probe's semaphore is set:
 *     the kernel counts a traced probe's semaphore up.
 *
 * Objects without such calls (built with sonde's or SystemTap's
 * headers) are left as they are.  A call to a probe the provider
 * definition does not declare is an error, as in DTrace.
 */
#include "dtrace/dtrace.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef R_X86_64_PLT32
#define R_X86_64_PLT32 4
#endif
#ifndef R_AARCH64_CALL26
#define R_AARCH64_CALL26 283
#define R_AARCH64_JUMP26 282
#define R_AARCH64_ABS64 257
#define R_AARCH64_NONE 0
#endif

/* One probe site found in an object. */
struct site {
	size_t sec;		/* the section holding the call */
	uint64_t off;		/* where the NOP starts in it */
	const struct dt_provider *pv;
	const struct dt_probe *p;
	const char *name;	/* the name in the symbol (request__start) */
};

/* An object being rewritten. */
struct obj {
	const char *path;
	Elf *e;
	GElf_Ehdr eh;
	Elf_Scn *symscn;
	Elf_Data *syms, *strs;
	size_t strndx;
	struct site *sites;
	int nsites, cap;
	void **owned;		/* buffers handed to libelf, freed after elf_end() */
	int nowned;
	FILE *err;
};

/* BUF, handed to libelf as a section's data: libelf never frees what
 * it did not allocate, so O frees it once the object is written. */
static void *own(struct obj *o, void *buf)
{
	o->owned = xrealloc(o->owned, (size_t)(o->nowned + 1) * sizeof(*o->owned));
	o->owned[o->nowned++] = buf;
	return buf;
}

static int __attribute__((format(printf, 2, 3)))
fail(struct obj *o, const char *fmt, ...)
{
	va_list ap;

	fprintf(o->err, "sonde dtrace: %s: ", o->path);
	va_start(ap, fmt);
	vfprintf(o->err, fmt, ap);
	va_end(ap);
	fputc('\n', o->err);
	return -1;
}

/* The probe a symbol names: __dtrace_PROV___NAME (ENABLED false) or
 * __dtraceenabled_PROV___NAME (true); 0 when it names none, -1 when
 * the provider definition lacks it (said). */
static int probe_of(struct obj *o, const char *sym, const struct dt_provider *provs,
		    int nprovs, struct site *s, bool *enabled)
{
	const char *rest, *sep;

	if (!strncmp(sym, "__dtraceenabled_", 16)) {
		rest = sym + 16;
		*enabled = true;
	} else if (!strncmp(sym, "__dtrace_", 9)) {
		rest = sym + 9;
		*enabled = false;
	} else {
		return 0;
	}
	sep = strstr(rest, "___");
	if (!sep)
		return 0;
	for (int i = 0; i < nprovs; i++) {
		if (strlen(provs[i].name) != (size_t)(sep - rest) ||
		    strncmp(provs[i].name, rest, (size_t)(sep - rest)))
			continue;
		for (int k = 0; k < provs[i].nprobes; k++)
			if (!strcmp(provs[i].probes[k].name, sep + 3)) {
				s->pv = &provs[i];
				s->p = &provs[i].probes[k];
				s->name = provs[i].probes[k].name;
				return 1;
			}
		return fail(o, "calls probe %s, which provider %s does not declare",
			    sep + 3, provs[i].name);
	}
	return fail(o, "calls %s, whose provider the definition does not declare",
		    sym);
}

static void add_site(struct obj *o, const struct site *s)
{
	if (o->nsites == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 16;
		o->sites = xrealloc(o->sites, sizeof(*o->sites) * (size_t)o->cap);
	}
	o->sites[o->nsites++] = *s;
}

/* The call at offset OFF of DATA (a relocation of TYPE there) made a
 * NOP, and a tail call (a jump to the probe function) a return, as
 * Solaris' dtrace makes them; the probe's place, where that starts, in
 * *AT.  -1 when it is neither. */
static int nop_call(struct obj *o, Elf_Data *data, uint64_t off, unsigned type,
		    uint64_t *at)
{
	unsigned char *b = data->d_buf;

	if (o->eh.e_machine == EM_X86_64) {
		static const unsigned char nop5[] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
		static const unsigned char ret[] = { 0xc3, 0x0f, 0x1f, 0x40, 0x00 };

		if ((type != R_X86_64_PLT32 && type != R_X86_64_PC32) || off < 1 ||
		    off + 4 > data->d_size || (b[off - 1] != 0xe8 && b[off - 1] != 0xe9))
			return -1;
		memcpy(b + off - 1, b[off - 1] == 0xe8 ? nop5 : ret, 5);
		*at = off - 1;
		return 0;
	}
	if ((type != R_AARCH64_CALL26 && type != R_AARCH64_JUMP26) ||
	    off + 4 > data->d_size ||
	    ((b[off + 3] & 0xfc) != 0x94 && (b[off + 3] & 0xfc) != 0x14))
		return -1;
	/* nop d503201f, ret d65f03c0 (little-endian) */
	memcpy(b + off, (b[off + 3] & 0xfc) == 0x94 ? "\x1f\x20\x03\xd5" :
	       "\xc0\x03\x5f\xd6", 4);
	*at = off;
	return 0;
}

/* Every probe call of the relocation section SCN (whose target holds
 * code) made a NOP; its sites added. */
static int rewrite_relocs(struct obj *o, Elf_Scn *scn, const GElf_Shdr *sh,
			  const struct dt_provider *provs, int nprovs)
{
	Elf_Data *rel = elf_getdata(scn, NULL);
	Elf_Scn *tscn = elf_getscn(o->e, sh->sh_info);
	Elf_Data *text = tscn ? elf_getdata(tscn, NULL) : NULL;
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; rel && text && i < n; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		struct site s = { sh->sh_info, 0, NULL, NULL, NULL };
		const char *name;
		bool enabled;
		int rc;

		/* (a relocation made NONE: a call rewritten before) */
		if (!gelf_getrela(rel, (int)i, &r) || !GELF_R_TYPE(r.r_info) ||
		    !gelf_getsym(o->syms, (int)GELF_R_SYM(r.r_info), &sym) ||
		    sym.st_shndx != SHN_UNDEF)
			continue;
		name = elf_strptr(o->e, o->strndx, sym.st_name);
		rc = name ? probe_of(o, name, provs, nprovs, &s, &enabled) : 0;
		if (rc < 0)
			return -1;
		if (!rc || enabled)	/* is-enabled: a call to -G's function */
			continue;
		if (nop_call(o, text, r.r_offset, (unsigned)GELF_R_TYPE(r.r_info),
			     &s.off))
			return fail(o, "the reference to %s at offset %llu of a code section is no call",
				    name, (unsigned long long)r.r_offset);
		r.r_info = GELF_R_INFO(GELF_R_SYM(r.r_info), 0);	/* R_*_NONE */
		gelf_update_rela(rel, (int)i, &r);
		sym.st_info = GELF_ST_INFO(STB_WEAK, GELF_ST_TYPE(sym.st_info));
		gelf_update_sym(o->syms, (int)GELF_R_SYM(r.r_info), &sym);
		add_site(o, &s);
	}
	elf_flagdata(rel, ELF_C_SET, ELF_F_DIRTY);
	elf_flagdata(text, ELF_C_SET, ELF_F_DIRTY);
	elf_flagdata(o->syms, ELF_C_SET, ELF_F_DIRTY);
	return 0;
}

/* Append LEN bytes to DATA (a string or symbol table's): their offset. */
static size_t append(struct obj *o, Elf_Data *data, const void *bytes, size_t len)
{
	size_t at = data->d_size;
	char *buf = own(o, xmalloc(at + len));

	memcpy(buf, data->d_buf, at);
	memcpy(buf + at, bytes, len);
	data->d_buf = buf;
	data->d_size = at + len;
	elf_flagdata(data, ELF_C_SET, ELF_F_DIRTY);
	return at;
}

/* The index of a symbol for site S's address: the function holding it
 * (its offset from there in *ADDEND), else its section's symbol. */
static long site_symbol(struct obj *o, const struct site *s, int64_t *addend)
{
	size_t n = o->syms->d_size / sizeof(Elf64_Sym);
	long section = -1;

	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;

		if (!gelf_getsym(o->syms, (int)i, &sym) || sym.st_shndx != s->sec)
			continue;
		if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_value <= s->off &&
		    s->off < sym.st_value + (sym.st_size ? sym.st_size : 1)) {
			*addend = (int64_t)(s->off - sym.st_value);
			return (long)i;
		}
		if (GELF_ST_TYPE(sym.st_info) == STT_SECTION)
			section = (long)i;
	}
	*addend = (int64_t)s->off;
	return section;
}

/* The index of an undefined global symbol NAME, added if missing. */
static size_t global_symbol(struct obj *o, const char *name)
{
	size_t n = o->syms->d_size / sizeof(Elf64_Sym);
	GElf_Sym sym;

	for (size_t i = 1; i < n; i++) {
		const char *s;

		if (gelf_getsym(o->syms, (int)i, &sym) &&
		    (s = elf_strptr(o->e, o->strndx, sym.st_name)) && !strcmp(s, name))
			return i;
	}
	memset(&sym, 0, sizeof(sym));
	sym.st_name = (Elf64_Word)append(o, o->strs, name, strlen(name) + 1);
	sym.st_info = GELF_ST_INFO(STB_GLOBAL, STT_NOTYPE);
	sym.st_other = STV_HIDDEN;
	sym.st_shndx = SHN_UNDEF;
	append(o, o->syms, &(Elf64_Sym){ 0 }, sizeof(Elf64_Sym));
	gelf_update_sym(o->syms, (int)n, &sym);
	return n;
}

/* Where site S's probe finds argument I: the calling convention's
 * place for an integer argument. */
static void arg_place(const struct obj *o, int i, char *buf, size_t len)
{
	static const char *const x86[] = { "%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9" };

	if (o->eh.e_machine == EM_X86_64 && i < 6)
		snprintf(buf, len, "8@%s", x86[i]);
	else if (o->eh.e_machine == EM_X86_64)
		snprintf(buf, len, "8@%d(%%rsp)", 8 * (i - 6));
	else if (i < 8)
		snprintf(buf, len, "8@x%d", i);
	else
		snprintf(buf, len, "8@[sp, %d]", 8 * (i - 8));
}

/* A new section NAME of TYPE holding DATA (LEN bytes). */
static Elf_Scn *new_section(struct obj *o, const char *name, Elf64_Word type,
			    void *data, size_t len, size_t align, size_t entsize)
{
	size_t shstrndx;
	Elf_Scn *scn = elf_newscn(o->e), *names;
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (!d || elf_getshdrstrndx(o->e, &shstrndx) ||
	    !(names = elf_getscn(o->e, shstrndx)) || !gelf_getshdr(scn, &sh))
		return NULL;
	memset(&sh, 0, sizeof(sh));
	sh.sh_name = (Elf64_Word)append(o, elf_getdata(names, NULL), name,
					strlen(name) + 1);
	sh.sh_type = type;
	sh.sh_addralign = align;
	sh.sh_entsize = entsize;
	gelf_update_shdr(scn, &sh);
	d->d_buf = data;
	d->d_size = len;
	d->d_align = align;
	d->d_type = ELF_T_BYTE;
	return scn;
}

/* The notes of O's sites and their relocations, as new sections. */
static int add_notes(struct obj *o)
{
	size_t cap = 0, len = 0;
	char *notes = NULL;
	GElf_Rela *relas = xcalloc((size_t)o->nsites * 2, sizeof(*relas));
	int nrel = 0;
	Elf_Scn *nscn, *rscn;
	GElf_Shdr sh;
	bool x86 = o->eh.e_machine == EM_X86_64;

	for (int i = 0; i < o->nsites; i++) {
		const struct site *s = &o->sites[i];
		char args[512] = "", one[32], sem[512];
		size_t at = 0, desc, need;
		int64_t addend;
		long sym = site_symbol(o, s, &addend);

		if (sym < 0) {
			free(notes);
			free(relas);
			return fail(o, "no symbol holds the probe %s:%s", s->pv->name,
				    s->name);
		}
		for (int a = 0; a < s->p->nargs; a++) {
			arg_place(o, a, one, sizeof(one));
			at += (size_t)snprintf(args + at, sizeof(args) - at, "%s%s",
					       a ? " " : "", one);
		}
		snprintf(sem, sizeof(sem), "%s_%s_semaphore", s->pv->name, s->name);
		desc = 24 + strlen(s->pv->name) + 1 + strlen(s->name) + 1 +
		       strlen(args) + 1;
		need = 12 + 8 + ((desc + 3) & ~(size_t)3);
		if (len + need > cap) {
			cap = (len + need) * 2;
			notes = xrealloc(notes, cap);
		}
		memset(notes + len, 0, need);
		*(uint32_t *)(notes + len) = 8;		/* "stapsdt\0" */
		*(uint32_t *)(notes + len + 4) = (uint32_t)desc;
		*(uint32_t *)(notes + len + 8) = 3;	/* NT_STAPSDT */
		memcpy(notes + len + 12, "stapsdt", 8);
		desc = len + 20;	/* pc, base, semaphore, then the strings */
		strcpy(notes + desc + 24, s->pv->name);
		strcpy(notes + desc + 24 + strlen(s->pv->name) + 1, s->name);
		strcpy(notes + desc + 24 + strlen(s->pv->name) + 1 + strlen(s->name) + 1,
		       args);
		relas[nrel].r_offset = desc;
		relas[nrel].r_info = GELF_R_INFO((uint64_t)sym,
						 x86 ? R_X86_64_64 : R_AARCH64_ABS64);
		relas[nrel++].r_addend = addend;
		relas[nrel].r_offset = desc + 16;
		relas[nrel].r_info = GELF_R_INFO(global_symbol(o, sem),
						 x86 ? R_X86_64_64 : R_AARCH64_ABS64);
		relas[nrel++].r_addend = 0;
		len += need;
	}
	nscn = new_section(o, ".note.stapsdt", SHT_NOTE, own(o, notes), len, 4, 0);
	rscn = nscn ? new_section(o, ".rela.note.stapsdt", SHT_RELA, NULL, 0, 8,
				  sizeof(Elf64_Rela)) : NULL;
	if (!rscn || !gelf_getshdr(rscn, &sh)) {
		free(relas);
		return fail(o, "cannot add its probes' notes: %s", elf_errmsg(-1));
	}
	sh.sh_link = (Elf64_Word)elf_ndxscn(o->symscn);
	sh.sh_info = (Elf64_Word)elf_ndxscn(nscn);
	sh.sh_flags = SHF_INFO_LINK;
	gelf_update_shdr(rscn, &sh);
	{
		Elf_Data *d = elf_getdata(rscn, NULL);

		d->d_buf = own(o, xcalloc((size_t)nrel, sizeof(Elf64_Rela)));
		d->d_size = (size_t)nrel * sizeof(Elf64_Rela);
		d->d_type = ELF_T_RELA;
		for (int i = 0; i < nrel; i++)
			gelf_update_rela(d, i, &relas[i]);
	}
	free(relas);
	return 0;
}

/* Rewrite the object at PATH; 0, or -1 after saying why. */
static int rewrite(const char *path, const struct dt_provider *provs, int nprovs,
		   FILE *err)
{
	struct obj o = { .path = path, .err = err };
	Elf_Scn *scn = NULL;
	int fd = open(path, O_RDWR), rc = -1;

	if (fd < 0) {
		fprintf(err, "sonde dtrace: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	o.e = elf_begin(fd, ELF_C_RDWR, NULL);
	if (!o.e || elf_kind(o.e) != ELF_K_ELF || !gelf_getehdr(o.e, &o.eh) ||
	    gelf_getclass(o.e) != ELFCLASS64 || o.eh.e_type != ET_REL) {
		fail(&o, "not a 64-bit relocatable object");
		goto out;
	}
	if (o.eh.e_machine != EM_X86_64 && o.eh.e_machine != EM_AARCH64) {
		fail(&o, "probes are rewritten for x86-64 and arm64 objects only");
		goto out;
	}
	while ((scn = elf_nextscn(o.e, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			o.symscn = scn;
			o.syms = elf_getdata(scn, NULL);
			o.strndx = sh.sh_link;
			o.strs = elf_getdata(elf_getscn(o.e, sh.sh_link), NULL);
		}
	}
	if (!o.syms || !o.strs) {	/* no symbols: no probe calls */
		rc = 0;
		goto out;
	}
	while ((scn = elf_nextscn(o.e, scn))) {
		GElf_Shdr sh, th;
		Elf_Scn *t;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
		    sh.sh_link != elf_ndxscn(o.symscn) ||
		    !(t = elf_getscn(o.e, sh.sh_info)) || !gelf_getshdr(t, &th) ||
		    !(th.sh_flags & SHF_EXECINSTR))
			continue;
		if (rewrite_relocs(&o, scn, &sh, provs, nprovs))
			goto out;
	}
	rc = 0;
	if (o.nsites && (add_notes(&o) || elf_update(o.e, ELF_C_WRITE) < 0)) {
		if (elf_errno())
			fail(&o, "cannot write it: %s", elf_errmsg(-1));
		rc = -1;
	}
out:
	free(o.sites);
	if (o.e)
		elf_end(o.e);
	for (int i = 0; i < o.nowned; i++)
		free(o.owned[i]);
	free(o.owned);
	close(fd);
	return rc;
}

int dt_rewrite_objects(char *const *paths, int n, const struct dt_provider *provs,
		       int nprovs, FILE *err)
{
	elf_version(EV_CURRENT);
	for (int i = 0; i < n; i++)
		if (rewrite(paths[i], provs, nprovs, err))
			return -1;
	return 0;
}
