/* cfi.c - a file's call frame information as rows for the BPF stack
 * walker.
 *
 * libdw interprets the CFI (dwarf_cfi_addrframe() gives the rules in
 * force at an address and the range of addresses they cover) but does
 * not list the functions it describes, so the FDEs are enumerated here
 * with dwarf_next_cfi() and their initial locations decoded by the
 * pointer encoding their CIE's augmentation names.  Each FDE is then
 * walked row by row: a row's range ends where the next begins.
 *
 * A row keeps only what a walker in BPF can follow: the CFA as the
 * stack pointer or frame pointer plus an offset (or the PLT's
 * expression), the return address saved at CFA + n, the caller's frame
 * pointer saved at CFA + n or unchanged.  Any other rule (an
 * expression, a register saved in another register) is CFI_CFA_FP:
 * the walker uses the frame pointer there.  A gap between FDEs gets a
 * CFI_CFA_FP row too, so that the function before it does not cover
 * it, and neighbouring rows with the same rules are one row.
 */
#include "catalog/cfi.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "catalog/elfsym.h"

/* DWARF register numbers of the stack pointer, frame pointer and return
 * address column. */
#if defined(__aarch64__)
enum { REG_SP = 31, REG_FP = 29, REG_RA = 30 };
#else
enum { REG_SP = 7, REG_FP = 6, REG_RA = 16 };
#endif

struct cie_enc {
	Dwarf_Off off;
	int enc;		/* the FDEs' pointer encoding, -1: unusable */
};

struct fde {
	uint64_t lo, hi;
};

struct walk {
	struct cie_enc *cies;
	size_t ncies, cap_cies;
	struct fde *fdes;
	size_t nfdes, cap_fdes;
};

static bool uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

static bool sleb(const uint8_t **p, const uint8_t *end, int64_t *v)
{
	unsigned shift = 0;
	uint64_t u = 0;
	uint8_t b = 0;

	while (*p < end && shift < 64) {
		b = *(*p)++;
		u |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				u |= ~(uint64_t)0 << shift;
			*v = (int64_t)u;
			return true;
		}
	}
	return false;
}

/* A pointer encoded as ENC (DW_EH_PE_*) at *P, which is at address AT:
 * its value (PC-relative ones made absolute unless RAW), *P moved past
 * it.  False for what cannot be decoded here. */
static bool read_ptr(const uint8_t **p, const uint8_t *end, int enc,
		     uint64_t at, bool raw, uint64_t *v)
{
	size_t size;
	int64_t s;

	if (enc == DW_EH_PE_omit)
		return false;
	switch (enc & 0x0f) {
	case DW_EH_PE_uleb128:
		return uleb(p, end, v) &&
		       (raw || (enc & 0x70) == DW_EH_PE_absptr);
	case DW_EH_PE_sleb128:
		if (!sleb(p, end, &s))
			return false;
		*v = (uint64_t)s;
		goto apply;
	case DW_EH_PE_absptr: case DW_EH_PE_udata8: case DW_EH_PE_sdata8:
		size = 8;
		break;
	case DW_EH_PE_udata2: case DW_EH_PE_sdata2:
		size = 2;
		break;
	case DW_EH_PE_udata4: case DW_EH_PE_sdata4:
		size = 4;
		break;
	default:
		return false;
	}
	if ((size_t)(end - *p) < size)
		return false;
	{
		uint64_t u = 0;

		memcpy(&u, *p, size);	/* little-endian hosts */
		*p += size;
		if (size == 2 && (enc & 0x0f) == DW_EH_PE_sdata2)
			u = (uint64_t)(int64_t)(int16_t)u;
		else if (size == 4 && (enc & 0x0f) == DW_EH_PE_sdata4)
			u = (uint64_t)(int64_t)(int32_t)u;
		*v = u;
	}
apply:
	if (raw)
		return true;
	switch (enc & 0x70) {
	case DW_EH_PE_absptr:
		return true;
	case DW_EH_PE_pcrel:
		*v += at;
		return true;
	default:		/* datarel, textrel, funcrel: not in FDEs */
		return false;
	}
}

/* The FDE pointer encoding a CIE's augmentation gives ("zR", "zPLR"):
 * absptr without 'R', -1 for an augmentation not understood. */
static int cie_encoding(const Dwarf_CIE *cie)
{
	const char *a = cie->augmentation;
	const uint8_t *d = cie->augmentation_data;
	const uint8_t *end = d ? d + cie->augmentation_data_size : NULL;
	int enc = DW_EH_PE_absptr;

	if (!a || !*a)
		return enc;
	if (a[0] != 'z')
		return -1;
	for (a++; *a; a++) {
		uint64_t skip;

		switch (*a) {
		case 'R':
			if (!d || d >= end)
				return -1;
			enc = *d++;
			break;
		case 'L':
			if (!d || d >= end)
				return -1;
			d++;
			break;
		case 'P': {
			int penc;

			if (!d || d >= end)
				return -1;
			penc = *d++;
			if (!read_ptr(&d, end, penc & 0x0f, 0, true, &skip))
				return -1;
			break;
		}
		case 'S': case 'B':
			break;
		default:
			return -1;
		}
	}
	return enc;
}

static int cie_find(const struct walk *w, Dwarf_Off off)
{
	for (size_t i = w->ncies; i-- > 0;)
		if (w->cies[i].off == off)
			return w->cies[i].enc;
	return -1;
}

/* Every FDE of section DATA (at address ADDR) into W->fdes. */
static void list_fdes(Elf *e, Elf_Data *data, uint64_t addr, bool eh,
		      struct walk *w)
{
	const unsigned char *ident = (const unsigned char *)elf_getident(e,
									  NULL);
	Dwarf_Off off = 0, next;
	Dwarf_CFI_Entry ent;
	int rc;

	while ((rc = dwarf_next_cfi(ident, data, eh, off, &next, &ent)) != 1) {
		if (rc == 0 && dwarf_cfi_cie_p(&ent)) {
			if (w->ncies == w->cap_cies) {
				w->cap_cies = w->cap_cies ? 2 * w->cap_cies : 16;
				w->cies = xrealloc(w->cies, w->cap_cies *
						   sizeof(*w->cies));
			}
			w->cies[w->ncies].off = off;
			w->cies[w->ncies++].enc = cie_encoding(&ent.cie);
		} else if (rc == 0) {
			int enc = cie_find(w, ent.fde.CIE_pointer);
			const uint8_t *p = ent.fde.start;
			uint64_t lo, len;
			uint64_t at = addr + (uint64_t)(p -
					(const uint8_t *)data->d_buf);

			if (enc >= 0 &&
			    read_ptr(&p, ent.fde.end, enc, at, false, &lo) &&
			    read_ptr(&p, ent.fde.end, enc & 0x0f, 0, true,
				     &len) && len) {
				if (w->nfdes == w->cap_fdes) {
					w->cap_fdes = w->cap_fdes ?
						      2 * w->cap_fdes : 256;
					w->fdes = xrealloc(w->fdes,
							   w->cap_fdes *
							   sizeof(*w->fdes));
				}
				w->fdes[w->nfdes].lo = lo;
				w->fdes[w->nfdes++].hi = lo + len;
			}
		}
		if (next == (Dwarf_Off)-1 || next <= off)
			break;
		off = next;
	}
}

static int fde_cmp(const void *a, const void *b)
{
	const struct fde *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The offset N of a register rule "at CFA + N", from libdw's
 * location description of it. */
static bool cfa_offset(const Dwarf_Op *ops, size_t nops, int64_t *n)
{
	if (nops < 1 || ops[0].atom != DW_OP_call_frame_cfa)
		return false;
	if (nops == 1) {
		*n = 0;
		return true;
	}
	if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
		*n = (int64_t)ops[1].number;
		return true;
	}
	if (nops == 3 && (ops[1].atom == DW_OP_consts ||
			  ops[1].atom == DW_OP_constu) &&
	    ops[2].atom == DW_OP_plus) {
		*n = (int64_t)ops[1].number;
		return true;
	}
	return false;
}

/* x86-64's PLT rule: DW_OP_breg7 (rsp) 8; DW_OP_breg16 (rip) 0;
 * DW_OP_lit15; DW_OP_and; DW_OP_litN; DW_OP_ge; DW_OP_lit3; DW_OP_shl;
 * DW_OP_plus: 8 more once rip is past the push of the lazy binding
 * stub, at offset N of each 16-byte entry. */
static bool plt_rule(const Dwarf_Op *ops, size_t nops, struct cfi_row *r)
{
	if (REG_SP != 7 || nops != 9 || ops[0].atom != DW_OP_breg7 ||
	    ops[1].atom != DW_OP_breg16 || ops[2].atom != DW_OP_lit15 ||
	    ops[3].atom != DW_OP_and || ops[4].atom < DW_OP_lit0 ||
	    ops[4].atom > DW_OP_lit31 || ops[5].atom != DW_OP_ge ||
	    ops[6].atom != DW_OP_lit3 || ops[7].atom != DW_OP_shl ||
	    ops[8].atom != DW_OP_plus)
		return false;
	r->cfa = CFI_CFA_PLT;
	r->cfa_off = (int32_t)ops[0].number;
	r->aux = (uint8_t)(ops[4].atom - DW_OP_lit0);
	return true;
}

/* A register plus offset (libdw gives a CFA rule "register + offset"
 * as DW_OP_bregx, an expression may use DW_OP_bregN). */
static bool breg(const Dwarf_Op *op, unsigned *reg, int64_t *off)
{
	if (op->atom == DW_OP_bregx) {
		*reg = (unsigned)op->number;
		*off = (int64_t)op->number2;
		return true;
	}
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return true;
	}
	return false;
}

/* The rules of FRAME as a row (pc left to the caller). */
static void frame_row(Dwarf_Frame *frame, struct cfi_row *r)
{
	Dwarf_Op *ops, mem[3];
	size_t nops;
	int64_t off;
	unsigned reg;

	memset(r, 0, sizeof(*r));
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops == 0)
		return;		/* CFI_CFA_FP */
	if (nops == 1 && breg(&ops[0], &reg, &off) &&
	    (reg == REG_SP || reg == REG_FP) && off >= INT32_MIN &&
	    off <= INT32_MAX) {
		r->cfa = reg == REG_SP ? CFI_CFA_SP : CFI_CFA_BP;
		r->cfa_off = (int32_t)off;
	} else if (!plt_rule(ops, nops, r)) {
		return;
	}
	if (dwarf_frame_register(frame, REG_RA, mem, &ops, &nops) != 0)
		goto unknown;
	if (nops == 0 && ops == mem) {		/* undefined: no caller */
		memset(r, 0, sizeof(*r));
		r->cfa = CFI_CFA_END;
		return;
	}
	if (!cfa_offset(ops, nops, &off) || off < INT16_MIN || off > INT16_MAX)
		goto unknown;
	r->ra_off = (int16_t)off;
	if (dwarf_frame_register(frame, REG_FP, mem, &ops, &nops) != 0)
		goto unknown;
	if (nops == 0)
		return;		/* same value, or undefined */
	if (!cfa_offset(ops, nops, &off) || off < INT16_MIN || off > INT16_MAX)
		goto unknown;
	r->fp = CFI_FP_AT;
	r->fp_off = (int16_t)off;
	return;
unknown:
	memset(r, 0, sizeof(*r));
}

static bool same_rules(const struct cfi_row *a, const struct cfi_row *b)
{
	return a->cfa == b->cfa && a->fp == b->fp && a->aux == b->aux &&
	       a->cfa_off == b->cfa_off && a->fp_off == b->fp_off &&
	       a->ra_off == b->ra_off;
}

static void push_row(struct cfi_table *t, size_t *cap, uint64_t pc,
		     const struct cfi_row *r)
{
	struct cfi_row *last = t->n ? &t->v[t->n - 1] : NULL;

	if (pc > UINT32_MAX)
		return;
	if (last && last->pc == pc) {	/* a later FDE at the same place */
		*last = *r;
		last->pc = (uint32_t)pc;
		if (t->n > 1 && same_rules(&t->v[t->n - 2], last))
			t->n--;
		return;
	}
	if (last && same_rules(last, r))
		return;
	if (t->n == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		t->v = xrealloc(t->v, *cap * sizeof(*t->v));
	}
	t->v[t->n] = *r;
	t->v[t->n++].pc = (uint32_t)pc;
}

/* The rows of the sorted FDEs W through CFI. */
static void walk_rows(Dwarf_CFI *cfi, struct walk *w, struct cfi_table *t)
{
	static const struct cfi_row gap;	/* CFI_CFA_FP */
	size_t cap = 0;
	uint64_t covered = 0;

	for (size_t i = 0; i < w->nfdes; i++) {
		uint64_t addr = w->fdes[i].lo, hi = w->fdes[i].hi;

		if (addr < covered)
			addr = covered;	/* overlapping FDEs: the first wins */
		while (addr < hi) {
			Dwarf_Frame *frame = NULL;
			Dwarf_Addr start, end;
			struct cfi_row r;

			if (dwarf_cfi_addrframe(cfi, addr, &frame) != 0)
				break;
			if (dwarf_frame_info(frame, &start, &end, NULL) < 0) {
				free(frame);
				break;
			}
			frame_row(frame, &r);
			free(frame);
			push_row(t, &cap, addr, &r);
			if (end <= addr)
				break;
			addr = end < hi ? end : hi;
		}
		if (addr > covered)
			covered = addr;
		if (i + 1 == w->nfdes || w->fdes[i + 1].lo > covered)
			push_row(t, &cap, covered, &gap);
	}
}

static Elf_Scn *section(Elf *e, const char *want, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		const char *name;

		if (!gelf_getshdr(scn, sh) || sh->sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(e, shstrndx, sh->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static void load_segments(Elf *e, struct cfi_table *t)
{
	size_t n;

	if (elf_getphdrnum(e, &n) != 0)
		return;
	for (size_t i = 0; i < n && t->nseg < (int)ARRAY_SIZE(t->seg); i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			t->seg[t->nseg++] = (struct cfi_seg){
				ph.p_offset, ph.p_vaddr, ph.p_filesz,
				(ph.p_flags & PF_X) != 0 };
	}
}

int cfi_load(const char *path, struct cfi_table *t)
{
	struct walk w = { 0 };
	Dwarf *dw = NULL;
	Dwarf_CFI *cfi = NULL;
	Elf_Scn *scn;
	Elf_Data *data;
	GElf_Shdr sh;
	int fd, rc = 0;
	bool eh = true;
	Elf *e = elf_open_file(path, &fd);

	memset(t, 0, sizeof(*t));
	if (!e)
		return -errno;
	scn = section(e, ".eh_frame", &sh);
	if (scn && (cfi = dwarf_getcfi_elf(e)) != NULL) {
		t->section = ".eh_frame";
	} else if ((scn = section(e, ".debug_frame", &sh)) != NULL &&
		   (dw = dwarf_begin_elf(e, DWARF_C_READ, NULL)) != NULL &&
		   (cfi = dwarf_getcfi(dw)) != NULL) {
		t->section = ".debug_frame";
		eh = false;
	} else {
		rc = -ENODATA;
		goto out;
	}
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf) {
		rc = -ENODATA;
		goto out;
	}
	load_segments(e, t);
	list_fdes(e, data, sh.sh_addr, eh, &w);
	if (w.nfdes)
		qsort(w.fdes, w.nfdes, sizeof(*w.fdes), fde_cmp);
	walk_rows(cfi, &w, t);
	if (!t->n)
		rc = -ENODATA;
out:
	if (eh && cfi)
		dwarf_cfi_end(cfi);
	if (dw)
		dwarf_end(dw);
	free(w.cies);
	free(w.fdes);
	elf_close_file(e, fd);
	if (rc)
		cfi_free(t);
	return rc;
}

void cfi_free(struct cfi_table *t)
{
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

const struct cfi_row *cfi_find(const struct cfi_table *t, uint64_t pc)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {	/* the first row past pc */
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].pc <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &t->v[lo - 1] : NULL;
}

void cfi_print(FILE *f, const struct cfi_table *t)
{
	static const char *const sp = REG_SP == 7 ? "rsp" : "sp";
	static const char *const fp = REG_SP == 7 ? "rbp" : "x29";

	for (size_t i = 0; i < t->n; i++) {
		const struct cfi_row *r = &t->v[i];

		fprintf(f, "%08" PRIx32 " ", r->pc);
		switch (r->cfa) {
		case CFI_CFA_FP:
			fputs("frame pointer\n", f);
			continue;
		case CFI_CFA_END:
			fputs("end\n", f);
			continue;
		case CFI_CFA_SP:
			fprintf(f, "cfa=%s%+" PRId32, sp, r->cfa_off);
			break;
		case CFI_CFA_BP:
			fprintf(f, "cfa=%s%+" PRId32, fp, r->cfa_off);
			break;
		case CFI_CFA_PLT:
			fprintf(f, "cfa=plt(%s%+" PRId32 ",%u)", sp, r->cfa_off,
				r->aux);
			break;
		}
		fprintf(f, " ra=c%+d", r->ra_off);
		if (r->fp == CFI_FP_AT)
			fprintf(f, " %s=c%+d", fp, r->fp_off);
		fputc('\n', f);
	}
}
