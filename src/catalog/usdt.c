/* usdt.c - reading USDT probes from ELF files.
 *
 * A probe is a NOP in the code and a note in the non-allocated section
 * .note.stapsdt (the format of SystemTap's sys/sdt.h, version 3):
 *
 *   namesz, descsz, type      three 32-bit words; type 3
 *   name                      "stapsdt\0", padded to the alignment
 *   desc                      pc, base, semaphore (one address each,
 *                             8 bytes in a 64-bit file), then
 *                             "provider\0" "name\0" "args\0"
 *
 * pc is the NOP's link-time address and base that of the allocated
 * section .stapsdt.base: if a tool such as prelink moved the file, the
 * section's address differs from base by what every address moved.
 * semaphore, if not 0, is the address of an unsigned short the program
 * tests (PROVIDER_NAME_ENABLED()); the kernel increments it while a
 * uprobe with that ref_ctr_offset (its file offset) is attached.
 *
 * args is a blank-separated list of operands in the assembler's AT&T
 * syntax, each prefixed with its size, negative when signed:
 * "-4@%edi 8@$5 -8@16(%rbp) 4@-12(%rbp,%rax,4) -4@counter(%rip)".
 *
 * Every size and string is checked against the bytes that hold it, so
 * a truncated or corrupt file gives an error or a skipped note, never
 * a read outside the section.
 */
#include "catalog/usdt.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/arch.h"
#include "catalog/elfsym.h"
#include "base/util.h"

#define NT_STAPSDT 3

static uint64_t get(const unsigned char *p, int size, bool big)
{
	uint64_t v = 0;

	for (int i = 0; i < size; i++)
		v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
	return v;
}

/* Past the padding after a note field, but never past LEN. */
static size_t pad(size_t p, size_t len, size_t align)
{
	size_t q = ALIGN_UP(p, align);

	return q > len ? len : q;
}

int usdt_parse_section(const void *buf, size_t len, int addr_size,
		       bool big_endian, size_t align,
		       void (*fn)(void *arg, const char *provider,
				  const char *name, const char *args,
				  const uint64_t addr[3]),
		       void *arg, int *nbad)
{
	const unsigned char *b = buf;
	size_t p = 0;
	int count = 0;

	while (len - p >= 12) {
		size_t namesz = get(b + p, 4, big_endian);
		size_t descsz = get(b + p + 4, 4, big_endian);
		uint32_t type = (uint32_t)get(b + p + 8, 4, big_endian);
		const unsigned char *name, *desc, *end;
		const char *strs[3];
		uint64_t addr[3];
		int k;

		p += 12;
		/* the sizes come from the file: compare before adding */
		if (namesz > len - p) {
			(*nbad)++;
			break;
		}
		name = b + p;
		p = pad(p + namesz, len, align);
		if (descsz > len - p) {
			(*nbad)++;
			break;
		}
		desc = b + p;
		p = pad(p + descsz, len, align);
		if (type != NT_STAPSDT || namesz != 8 || memcmp(name, "stapsdt", 8))
			continue;
		if (descsz < (size_t)addr_size * 3) {
			(*nbad)++;
			continue;
		}
		for (int i = 0; i < 3; i++)
			addr[i] = get(desc + i * addr_size, addr_size, big_endian);
		end = desc + descsz;
		desc += addr_size * 3;
		for (k = 0; k < 3; k++) {
			const unsigned char *nul = memchr(desc, 0, (size_t)(end - desc));

			if (!nul)
				break;
			strs[k] = (const char *)desc;
			desc = nul + 1;
		}
		if (k < 3 || !*strs[0] || !*strs[1]) {
			(*nbad)++;
			continue;
		}
		fn(arg, strs[0], strs[1], strs[2], addr);
		count++;
	}
	return count;
}

/* A cursor over one operand (a NUL-terminated copy). */
struct op {
	const char *p;
	uint64_t pc;
	int (*sym)(void *ctx, const char *name, uint64_t *addr);
	void *ctx;
};

static bool number(struct op *o, int64_t *v)
{
	const char *s = o->p;
	char *end;
	bool neg = false;
	uint64_t u;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	u = strtoull(s, &end, 0);
	if (errno || isalnum((unsigned char)*end) || *end == '_')
		return false;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	o->p = end;
	return true;
}

static bool sym_char(int c, bool first)
{
	return isalpha(c) || c == '_' || c == '.' ||
	       (!first && (isdigit(c) || c == '$' || c == '@'));
}

/* A symbol name at the cursor: its address through o->sym.  0, or
 * -1 with *why set. */
static int symbol(struct op *o, uint64_t *addr, const char **why)
{
	char name[256];
	size_t n = 0;

	while (sym_char((unsigned char)o->p[n], n == 0))
		n++;
	if (!n || n >= sizeof(name)) {
		*why = n ? "symbol name too long" : "cannot parse the operand";
		return -1;
	}
	memcpy(name, o->p, n);
	name[n] = 0;
	o->p += n;
	if (!o->sym || o->sym(o->ctx, name, addr)) {
		*why = "names a symbol that is not in the file's symbol table";
		return -1;
	}
	return 0;
}

/* "%reg": its pt_regs offset (and *SHIFT for the high bytes). */
static int reg(struct op *o, int *shift, const char **why)
{
	char name[16];
	size_t n = 0;
	int off;

	if (*o->p != '%') {
		*why = "cannot parse the operand";
		return -1;
	}
	o->p++;
	while (isalnum((unsigned char)o->p[n]) && n < sizeof(name) - 1)
		n++;
	memcpy(name, o->p, n);
	name[n] = 0;
	o->p += n;
	if (shift)
		*shift = n == 2 && name[1] == 'h' && strchr("abcd", name[0]) ? 8 : 0;
	off = pt_regs_offset(name);
	/* pt_regs_offset() also knows orig_ax, eflags, cs and ss */
	if (off < 0 || off == 120 || off == 136 || off == 144 || off == 160) {
		*why = !strncmp(name, "xmm", 3) || !strncmp(name, "st", 2) ||
		       !strncmp(name, "ymm", 3) ?
			"floating-point and vector registers are not supported" :
			"unknown register";
		return -1;
	}
	return off;
}

/* [disp][(base[,index[,scale]])], or $const, or %reg, into A. */
static const char *operand(struct op *o, struct usdt_arg *a)
{
	const char *why = NULL;
	uint64_t saddr = 0;
	bool has_sym = false;
	int64_t v;

	if (*o->p == '%') {
		a->loc = USDT_REG;
		a->base = reg(o, &a->shift, &why);
		return a->base < 0 ? why : *o->p ? "cannot parse the operand" : NULL;
	}
	if (*o->p == '$') {
		o->p++;
		a->loc = USDT_CONST;
		if (number(o, &a->off))
			return *o->p ? "cannot parse the constant" : NULL;
		/* $sym[+-N]: the symbol's run-time address */
		if (symbol(o, &saddr, &why))
			return why;
		v = 0;
		if ((*o->p == '+' || *o->p == '-') && !number(o, &v))
			return "cannot parse the constant";
		if (*o->p)
			return "cannot parse the constant";
		a->base = PT_REGS_IP;
		/* addresses wrap: add as unsigned (a note's numbers are
		 * anything, and a signed overflow is undefined) */
		a->off = (int64_t)(saddr - o->pc + (uint64_t)v);
		return NULL;
	}
	if (!*o->p)
		return "empty operand";
	a->loc = USDT_MEM;
	a->off = 0;
	if (number(o, &v)) {
		a->off = v;
	} else if (*o->p && *o->p != '(') {
		if (symbol(o, &saddr, &why))
			return why;
		has_sym = true;
		if (*o->p == '+' || *o->p == '-') {
			if (!number(o, &v))
				return "cannot parse the displacement";
			a->off = v;
		}
	}
	if (*o->p == '(') {
		o->p++;
		if (*o->p == '%' && (a->base = reg(o, NULL, &why)) < 0)
			return why;
		if (*o->p == ',') {
			o->p++;
			if ((a->index = reg(o, NULL, &why)) < 0)
				return why;
			if (a->index == PT_REGS_IP)
				return "cannot parse the operand";
			if (*o->p == ',') {
				o->p++;
				if (!number(o, &v) || (v != 1 && v != 2 && v != 4 && v != 8))
					return "the scale must be 1, 2, 4 or 8";
				a->scale = (int)v;
			}
		}
		if (*o->p++ != ')')
			return "')' expected";
		if (a->base < 0 && a->index < 0)
			return "cannot parse the operand";
	}
	if (*o->p)
		return "cannot parse the operand";
	if (a->base == PT_REGS_IP && !has_sym)
		return "a %rip-relative operand needs a symbol";
	if (has_sym) {
		/* the symbol's run-time address is the probe's plus what
		 * separates them in the file */
		if (a->base >= 0 && a->base != PT_REGS_IP) {
			if (a->index >= 0)
				return "a symbol with a base and an index register is not supported";
			a->index = a->base;
			a->scale = 1;
		}
		a->base = PT_REGS_IP;
		a->off = (int64_t)((uint64_t)a->off + saddr - o->pc);
	}
	return NULL;
}

static void parse_one(const char *s, size_t n, struct op *o, struct usdt_arg *a)
{
	char buf[320];
	const char *at = memchr(s, '@', n), *why;

	memset(a, 0, sizeof(*a));
	a->base = a->index = -1;
	a->scale = 1;
	a->size = 8;
	if (n >= sizeof(buf)) {
		a->loc = USDT_BAD;
		a->err = "operand too long";
		return;
	}
	if (at) {
		char *end;
		long sz;

		memcpy(buf, s, (size_t)(at - s));
		buf[at - s] = 0;
		sz = strtol(buf, &end, 10);
		/* bounds first: labs(LONG_MIN) is undefined */
		if (!*buf || *end || sz < -8 || sz > 8 ||
		    (labs(sz) != 1 && labs(sz) != 2 && labs(sz) != 4 &&
		     labs(sz) != 8)) {
			a->loc = USDT_BAD;
			a->err = "the size must be 1, 2, 4 or 8 bytes, negative when signed";
			return;
		}
		a->size = (int)labs(sz);
		a->is_signed = sz < 0;
		n -= (size_t)(at + 1 - s);
		s = at + 1;
	}
	memcpy(buf, s, n);
	buf[n] = 0;
	o->p = buf;
	why = operand(o, a);
	if (why) {
		a->loc = USDT_BAD;
		a->err = why;
	}
}

int usdt_parse_args(const char *text, uint64_t pc,
		    int (*sym)(void *ctx, const char *name, uint64_t *addr),
		    void *ctx, struct usdt_arg *args, bool *too_many)
{
	struct op o = { .pc = pc, .sym = sym, .ctx = ctx };
	const char *p = text;
	int n = 0;

	*too_many = false;
	for (;;) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		len = strcspn(p, " \t");
		if (n == USDT_MAX_ARGS) {
			*too_many = true;
			break;
		}
		parse_one(p, len, &o, &args[n]);
		args[n].text_off = (int)(p - text);
		args[n].text_len = (int)len;
		n++;
		p += len;
	}
	return n;
}

const char *usdt_arg_type(const struct usdt_arg *a)
{
	static const char *const names[2][4] = {
		{ "uint8", "uint16", "uint32", "uint64" },
		{ "int8", "int16", "int32", "int64" },
	};
	int k = a->size == 1 ? 0 : a->size == 2 ? 1 : a->size == 4 ? 2 : 3;

	return names[a->is_signed][k];
}

struct walk {
	Elf *e;
	uint64_t file_size;
	uint64_t base;		/* address of .stapsdt.base, 0: none */
	const char *provider, *name;
	void (*fn)(void *arg, const struct usdt_note *n);
	void *arg;
	int *nbad;
	int count;
	struct usdt_note note;
};

/* The address of symbol NAME from .symtab or .dynsym (not TLS: that
 * is no address). */
static int find_symbol(void *ctx, const char *name, uint64_t *addr)
{
	struct walk *w = ctx;
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(w->e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		n = data->d_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;
			const char *s;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (sym.st_shndx == SHN_UNDEF ||
			    GELF_ST_TYPE(sym.st_info) == STT_TLS)
				continue;
			s = elf_strptr(w->e, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name)) {
				*addr = sym.st_value;
				return 0;
			}
		}
	}
	return -1;
}

/* File offset of a semaphore: inside the file part of a writable
 * PT_LOAD segment, or the kernel could not count in it. */
static int sem_offset(Elf *e, uint64_t addr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_W))
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz &&
		    ph.p_filesz - (addr - ph.p_vaddr) >= 2) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

bool usdt_name_matches(const char *glob, const char *name)
{
	char dashed[512];
	size_t n = 0;

	if (!fnmatch(glob, name, 0))
		return true;
	if (!strstr(name, "__"))
		return false;
	for (const char *s = name; *s && n + 1 < sizeof(dashed); s++) {
		if (s[0] == '_' && s[1] == '_') {
			dashed[n++] = '-';
			s++;
		} else {
			dashed[n++] = *s;
		}
	}
	dashed[n] = 0;
	return !fnmatch(glob, dashed, 0);
}

static void one_note(void *arg, const char *provider, const char *name,
		     const char *args, const uint64_t addr[3])
{
	struct walk *w = arg;
	struct usdt_note *n = &w->note;

	if ((w->provider && fnmatch(w->provider, provider, 0)) ||
	    (w->name && !usdt_name_matches(w->name, name)))
		return;
	memset(n, 0, sizeof(*n));
	n->provider = provider;
	n->name = name;
	n->args = args;
	n->pc = addr[0];
	n->sem = addr[2];
	/* prelink moved the file: everything moved as .stapsdt.base did */
	if (addr[1] && w->base) {
		n->pc += w->base - addr[1];
		if (n->sem)
			n->sem += w->base - addr[1];
	}
	if (elf_vaddr_to_offset(w->e, n->pc, &n->pc_offset) ||
	    n->pc_offset >= w->file_size ||
	    (n->sem && (sem_offset(w->e, n->sem, &n->sem_offset) ||
			n->sem_offset >= w->file_size || !n->sem_offset))) {
		(*w->nbad)++;
		return;
	}
	n->nargs = usdt_parse_args(args, n->pc, find_symbol, w, n->arg,
				   &n->too_many);
	w->fn(w->arg, n);
	w->count++;
}

/* The address of section .stapsdt.base, or 0. */
static uint64_t base_section(Elf *e)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".stapsdt.base"))
			return sh.sh_addr;
	}
	return 0;
}

int usdt_notes(const char *path, const char *provider, const char *name,
	       void (*fn)(void *arg, const struct usdt_note *n), void *arg,
	       int *nbad)
{
	struct walk *w;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	struct stat st;
	int fd, count, asize;
	bool big;
	Elf *e = elf_open_file(path, &fd);

	*nbad = 0;
	if (!e)
		return -errno;
	if (!gelf_getehdr(e, &eh) || fstat(fd, &st) ||
	    (eh.e_ident[EI_CLASS] != ELFCLASS64 && eh.e_ident[EI_CLASS] != ELFCLASS32)) {
		elf_close_file(e, fd);
		return -ENOEXEC;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		elf_close_file(e, fd);
		return -EINVAL;
	}
	asize = eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;
	big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	w = xcalloc(1, sizeof(*w));
	w->e = e;
	w->file_size = (uint64_t)st.st_size;
	w->base = base_section(e);
	w->provider = provider;
	w->name = name;
	w->fn = fn;
	w->arg = arg;
	w->nbad = nbad;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		/* raw: libelf would swap the headers but not the desc */
		data = elf_rawdata(scn, NULL);
		if (!data || !data->d_buf) {
			(*nbad)++;
			continue;
		}
		usdt_parse_section(data->d_buf, data->d_size, asize, big,
				   sh.sh_addralign == 8 ? 8 : 4, one_note, w, nbad);
	}
	count = w->count;
	free(w);
	elf_close_file(e, fd);
	return count;
}
