/* elfsym.c - reading ELF symbol tables for uprobes and user stacks.
 *
 * Only libelf touches the file's bytes; every size and index it gives
 * is checked before use, so a truncated or corrupt file is an error,
 * never a crash.
 */
#include "catalog/elfsym.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/util.h"
#include "catalog/debuginfo.h"

static Elf *open_elf(const char *path, int *fd)
{
	Elf *e;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return NULL;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	e = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(*fd);
		*fd = -1;
		errno = ENOEXEC;
		return NULL;
	}
	return e;
}

int elf_check(const char *path)
{
	int fd;
	Elf *e = open_elf(path, &fd);

	if (!e)
		return errno == ENOEXEC ? -ENOEXEC : -errno;
	elf_end(e);
	close(fd);
	return 0;
}

static bool has_interp(Elf *e)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP)
			return true;
	}
	return false;
}

/* PATH's DT_NEEDED names (of a shared library only, unless PROGRAMS)
 * as elf_needed() gives them. */
static char *needed_names(const char *path, bool programs)
{
	int fd;
	Elf *e = open_elf(path, &fd);
	Elf_Scn *scn = NULL;
	char *out = NULL;
	size_t len = 0;

	if (!e)
		return NULL;
	while ((programs || !has_interp(e)) && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Dyn dyn;
			const char *name;
			size_t l;

			if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag != DT_NEEDED)
				continue;
			name = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
			if (!name || !*name)
				continue;
			l = strlen(name) + 1;
			out = xrealloc(out, len + l + 1);
			memcpy(out + len, name, l);
			len += l;
			out[len] = 0;
		}
		break;
	}
	elf_end(e);
	close(fd);
	return out;
}

char *elf_needed(const char *path)
{
	return needed_names(path, false);
}

char *elf_program_files(const char *prog)
{
	char *out = xmalloc(strlen(prog) + 2);
	size_t len = strlen(prog) + 1;

	memcpy(out, prog, len);
	out[len] = 0;
	/* breadth first, each file once: the dynamic linker's order */
	for (const char *f = out; *f; f += strlen(f) + 1) {
		char *libs = needed_names(f, true);

		for (const char *l = libs; l && *l; l += strlen(l) + 1) {
			char *p = elf_resolve_path(l, 0);
			bool seen = false;
			size_t off = (size_t)(f - out), pl;

			for (const char *q = out; p && *q; q += strlen(q) + 1)
				seen |= !strcmp(q, p);
			if (p && !seen) {
				pl = strlen(p) + 1;
				out = xrealloc(out, len + pl + 1);
				memcpy(out + len, p, pl);
				len += pl;
				out[len] = 0;
				f = out + off;
			}
			free(p);
		}
		free(libs);
	}
	return out;
}

static int vaddr_to_off(Elf *e, uint64_t addr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return -ENOEXEC;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_memsz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -ENOENT;
}

struct Elf *elf_open_file(const char *path, int *fd)
{
	return open_elf(path, fd);
}

void elf_close_file(struct Elf *e, int fd)
{
	elf_end(e);
	close(fd);
}

int elf_vaddr_to_offset(struct Elf *e, uint64_t addr, uint64_t *off)
{
	return vaddr_to_off(e, addr, off);
}

int elf_addr_to_offset(const char *path, uint64_t addr, uint64_t *off)
{
	int fd, rc;
	Elf *e = open_elf(path, &fd);

	if (!e)
		return errno == ENOEXEC ? -ENOEXEC : -errno;
	rc = vaddr_to_off(e, addr, off);
	elf_end(e);
	close(fd);
	return rc;
}

/* Call FN for each defined, named symbol of E's symbol tables of TYPE
 * (SHT_SYMTAB or SHT_DYNSYM; 0 for both), until FN returns non-zero,
 * which is then returned.  The one walk over libelf's symbol data: every
 * count and index is checked there. */
static int each_symbol(Elf *e, Elf64_Word type,
		       int (*fn)(void *arg, const GElf_Sym *sym, const char *name),
		       void *arg)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t nsyms;

		if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
		    (type ? sh.sh_type != type :
		     sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		nsyms = data->d_size / sh.sh_entsize;
		for (size_t i = 0; i < nsyms; i++) {
			GElf_Sym sym;
			const char *name;
			int rc;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (sym.st_shndx == SHN_UNDEF || !sym.st_value)
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			rc = fn(arg, &sym, name);
			if (rc)
				return rc;
		}
	}
	return 0;
}

static bool is_function(const GElf_Sym *sym)
{
	return GELF_ST_TYPE(sym->st_info) == STT_FUNC ||
	       GELF_ST_TYPE(sym->st_info) == STT_GNU_IFUNC;
}

struct seen {
	char **names;
	size_t n, cap;
};

static bool seen_add(struct seen *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return false;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->names = xrealloc(s->names, sizeof(char *) * s->cap);
	}
	s->names[s->n++] = xstrdup(name);
	return true;
}

struct func_walk {
	Elf *e;
	const char *glob;
	struct seen seen;
	void (*fn)(void *arg, const struct elf_func *f);
	void *arg;
	int count;
};

static int func_visit(void *arg, const GElf_Sym *sym, const char *name)
{
	struct func_walk *w = arg;
	struct elf_func f;

	if (!is_function(sym) || fnmatch(w->glob, name, 0) ||
	    !seen_add(&w->seen, name))
		return 0;
	memset(&f, 0, sizeof(f));
	f.name = (char *)name;
	f.addr = sym->st_value;
	f.size = sym->st_size;
	if (vaddr_to_off(w->e, f.addr, &f.offset))
		return 0;
	w->fn(w->arg, &f);
	w->count++;
	return 0;
}

int elf_functions(const char *path, const char *glob,
		  void (*fn)(void *arg, const struct elf_func *f), void *arg)
{
	int fd;
	struct func_walk w = { .glob = glob, .fn = fn, .arg = arg };

	w.e = open_elf(path, &fd);
	if (!w.e)
		return errno == ENOEXEC ? -ENOEXEC : -errno;
	each_symbol(w.e, 0, func_visit, &w);
	for (size_t i = 0; i < w.seen.n; i++)
		free(w.seen.names[i]);
	free(w.seen.names);
	elf_end(w.e);
	close(fd);
	return w.count;
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* "c" "libc" "libc.so" "libc.so.6": does library file BASE match? */
static bool lib_matches(const char *name, const char *base)
{
	char want[PATH_MAX];
	size_t n;

	if (!strncmp(name, "lib", 3))
		snprintf(want, sizeof(want), "%s", name);
	else
		snprintf(want, sizeof(want), "lib%s", name);
	n = strlen(want);
	if (strncmp(base, want, n))
		return false;
	/* libc must not match libcap: what follows is '.' or '-' */
	return base[n] == '.' || base[n] == '-' || base[n] == 0;
}

static char *from_maps(const char *name, int pid)
{
	char path[64], line[PATH_MAX + 256];
	FILE *f;
	char *found = NULL;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/'), *nl, *base;

		if (!p)
			continue;
		nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		base = strrchr(p, '/') + 1;
		if (lib_matches(name, base) && strstr(base, ".so"))
			found = xstrdup(p);
	}
	fclose(f);
	return found;
}

/* /etc/ld.so.cache, new format ("glibc-ld.so.cache1.1"): entries of
 * {int32 flags; uint32 key, value; uint32 osversion; uint64 hwcap}
 * whose key and value are offsets of strings from the file's start. */
static char *from_ld_cache(const char *name)
{
	static const char magic[] = "glibc-ld.so.cache1.1";
	char *buf, *found = NULL;
	size_t len;
	const char *p;

	if (read_file("/etc/ld.so.cache", &buf, &len))
		return NULL;
	p = memmem(buf, len, magic, sizeof(magic) - 1);
	if (p && (size_t)(p - buf) + 48 <= len) {
		size_t base = (size_t)(p - buf);
		uint32_t nlibs;

		memcpy(&nlibs, p + 20, 4);
		for (uint32_t i = 0; i < nlibs && !found; i++) {
			size_t at = base + 48 + (size_t)i * 24;
			uint32_t key, value;
			const char *k, *v;

			if (at + 24 > len)
				break;
			memcpy(&key, buf + at + 4, 4);
			memcpy(&value, buf + at + 8, 4);
			if (key >= len || value >= len)
				continue;
			k = buf + key;
			v = buf + value;
			if (!memchr(k, 0, len - key) || !memchr(v, 0, len - value))
				continue;
			if (lib_matches(name, k) && is_file(v))
				found = xstrdup(v);
		}
	}
	free(buf);
	return found;
}

static char *from_dirs(const char *name)
{
	static const char *const dirs[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
		"/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib",
	};
	static const char *const suffixes[] = { ".so", ".so.6", ".so.1", ".so.0" };
	const char *lib = strncmp(name, "lib", 3) ? "lib" : "";
	char p[PATH_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		snprintf(p, sizeof(p), "%s/%s", dirs[i], name);
		if (strstr(name, ".so") && is_file(p))
			return realpath(p, NULL);
		for (size_t k = 0; k < ARRAY_SIZE(suffixes); k++) {
			snprintf(p, sizeof(p), "%s/%s%s%s", dirs[i], lib, name,
				 suffixes[k]);
			if (is_file(p))
				return realpath(p, NULL);
		}
	}
	return NULL;
}

static char *from_path_env(const char *name)
{
	const char *env = getenv("PATH");
	char p[PATH_MAX];

	if (!env)
		env = "/usr/local/bin:/usr/bin:/bin";
	while (*env) {
		const char *colon = strchr(env, ':');
		size_t n = colon ? (size_t)(colon - env) : strlen(env);

		snprintf(p, sizeof(p), "%.*s/%s", (int)n, env, name);
		if (n && is_file(p) && access(p, X_OK) == 0)
			return realpath(p, NULL);
		env += n + (colon ? 1 : 0);
	}
	return NULL;
}

/* ABS (an absolute path as process PID sees it) through
 * /proc/PID/root when that is another file than ABS on the host (the
 * process lives in another mount namespace, or a chroot); NULL when it
 * is the same file, or none. */
static char *in_root(int pid, const char *abs)
{
	char path[PATH_MAX + 32];
	struct stat in, host;

	if (pid <= 0 || abs[0] != '/')
		return NULL;
	snprintf(path, sizeof(path), "/proc/%d/root%s", pid, abs);
	if (stat(path, &in) || !S_ISREG(in.st_mode))
		return NULL;
	if (!stat(abs, &host) && host.st_dev == in.st_dev &&
	    host.st_ino == in.st_ino)
		return NULL;
	return xstrdup(path);
}

char *elf_resolve_path(const char *name, int pid)
{
	char *p, *r;

	if (!*name)
		return NULL;
	if ((p = in_root(pid, name)))
		return p;
	if (strchr(name, '/'))
		return is_file(name) ? realpath(name, NULL) : NULL;
	if (pid > 0 && (p = from_maps(name, pid))) {
		if ((r = in_root(pid, p))) {
			free(p);
			return r;
		}
		return p;
	}
	if ((p = from_ld_cache(name)))
		return p;
	if ((p = from_dirs(name)))
		return p;
	return from_path_env(name);
}

/* Seconds since process PID started; -1 when it is gone. */
static double process_age(int pid)
{
	char path[64], buf[1024], *p;
	unsigned long long start = 0;
	struct timespec now;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* "pid (comm) S ...": starttime is field 22 */
	for (int field = 2; p && *p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, " %llu", &start) != 1 || hz <= 0 ||
	    clock_gettime(CLOCK_BOOTTIME, &now))
		return -1;
	return (double)now.tv_sec + now.tv_nsec / 1e9 - (double)start / (double)hz;
}

/* Is process PID a fork that has not exec'd: its executable its
 * parent's (a shell's `(sleep 1; exec prog) &`)? */
static bool unexeced_fork(int pid)
{
	char path[64], buf[512], *p;
	struct stat own, parent;
	int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!p || sscanf(p, ") %*c %d", &ppid) != 1 || ppid <= 1)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	if (stat(path, &own))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/exe", ppid);
	return !stat(path, &parent) && own.st_dev == parent.st_dev &&
	       own.st_ino == parent.st_ino;
}

void elf_process_settle(int pid)
{
	double age = process_age(pid);

	if (age >= 0 && age < 0.25)
		usleep((useconds_t)((0.25 - age) * 1e6));
	/* a young fork still running its parent's program is about to
	 * exec the one it was started for: wait for that, up to its
	 * second second */
	while ((age = process_age(pid)) >= 0 && age < 2 && unexeced_fork(pid))
		usleep(10000);
}

char *elf_process_files(int pid)
{
	char path[64], line[PATH_MAX + 256], *out = NULL;
	size_t len = 0;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, line, sizeof(line) - 1);
	if (n > 0) {
		line[n] = 0;
		out = xmalloc((size_t)n + 2);
		memcpy(out, line, (size_t)n + 1);
		len = (size_t)n + 1;
		out[len] = 0;
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "r");
	if (!f)
		return out;
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *p = strchr(line, '/'), *nl;
		size_t l;
		bool seen = false;

		if (!p || sscanf(line, "%*s %7s", perms) != 1 || perms[2] != 'x')
			continue;
		if ((nl = strchr(p, '\n')))
			*nl = 0;
		if (strstr(p, " (deleted)"))
			continue;
		for (const char *q = out; q && *q; q += strlen(q) + 1)
			if (!strcmp(q, p))
				seen = true;
		if (seen)
			continue;
		l = strlen(p) + 1;
		out = xrealloc(out, len + l + 1);
		memcpy(out + len, p, l);
		len += l;
		out[len] = 0;
	}
	fclose(f);
	return out;
}

/* Symbol tables for symbolizing (elf_symtab_*). */

struct symbuild {
	struct elf_sym *v;
	size_t n, cap;
	unsigned char *bind;	/* per symbol: 0 global, 1 weak, 2 local */
	size_t *name_off;	/* per symbol: offset in pool */
	char *pool;
	size_t pool_len, pool_cap;
};

static void sb_add(struct symbuild *b, const char *name, uint64_t addr,
		   uint64_t size, int bind)
{
	size_t len = strlen(name) + 1;

	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 1024;
		b->v = xrealloc(b->v, sizeof(*b->v) * b->cap);
		b->bind = xrealloc(b->bind, b->cap);
		b->name_off = xrealloc(b->name_off, sizeof(size_t) * b->cap);
	}
	while (b->pool_len + len > b->pool_cap) {
		b->pool_cap = b->pool_cap ? b->pool_cap * 2 : 65536;
		b->pool = xrealloc(b->pool, b->pool_cap);
	}
	memcpy(b->pool + b->pool_len, name, len);
	b->v[b->n].addr = addr;
	b->v[b->n].size = size;
	b->v[b->n].name = NULL;
	b->bind[b->n] = (unsigned char)bind;
	b->name_off[b->n] = b->pool_len;
	b->pool_len += len;
	b->n++;
}

static int sym_visit(void *arg, const GElf_Sym *sym, const char *name)
{
	int bind;

	if (!is_function(sym))
		return 0;
	switch (GELF_ST_BIND(sym->st_info)) {
	case STB_GLOBAL: bind = 0; break;
	case STB_WEAK: bind = 1; break;
	default: bind = 2;
	}
	sb_add(arg, name, sym->st_value, sym->st_size, bind);
	return 0;
}

/* Function symbols of E's .symtab (SHT_SYMTAB) or .dynsym into B. */
static void add_syms(Elf *e, Elf64_Word type, struct symbuild *b)
{
	each_symbol(e, type, sym_visit, b);
}

static bool has_section(Elf *e, Elf64_Word type)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return true;
	}
	return false;
}

static Elf_Data *section_named(Elf *e, const char *want)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want))
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/* The GNU build id as lower-case hex, or false. */
static bool build_id(Elf *e, char *hex, size_t cap)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		while ((off = gelf_getnote(data, off, &nh, &noff, &doff)) > 0) {
			const unsigned char *d;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)data->d_buf + noff, "GNU", 4) ||
			    !nh.n_descsz || nh.n_descsz * 2 + 1 > cap)
				continue;
			d = (const unsigned char *)data->d_buf + doff;
			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(hex + 2 * i, "%02x", d[i]);
			return true;
		}
	}
	return false;
}

int elf_build_id(const char *path, char *hex, size_t cap)
{
	int fd;
	Elf *e = open_elf(path, &fd);
	bool ok;

	if (!e)
		return -errno;
	ok = build_id(e, hex, cap);
	elf_end(e);
	close(fd);
	return ok ? 0 : -ENODATA;
}

static uint32_t file_crc(const char *path, bool *ok)
{
	char *buf;
	size_t len;
	uLong crc;

	*ok = false;
	if (read_file(path, &buf, &len))
		return 0;
	crc = crc32(0L, (const Bytef *)buf, (uInt)len);
	free(buf);
	*ok = len < UINT_MAX;
	return (uint32_t)crc;
}

/* A path to the detached debug file of PATH (E), malloc'd, or NULL. */
static char *debug_file(Elf *e, const char *path)
{
	char hex[128], p[2 * PATH_MAX + 32], dir[PATH_MAX];
	Elf_Data *d;
	const char *slash;

	hex[0] = 0;
	if (build_id(e, hex, sizeof(hex)) && strlen(hex) > 2) {
		snprintf(p, sizeof(p), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 hex, hex + 2);
		if (is_file(p))
			return xstrdup(p);
	}
	d = section_named(e, ".gnu_debuglink");
	if (!d || !d->d_buf || !path)
		return debuginfod_path(hex);
	{
		const char *name = d->d_buf;
		size_t nlen = strnlen(name, d->d_size);
		size_t crc_at = ALIGN_UP(nlen + 1, 4);
		uint32_t want;

		if (!nlen || nlen == d->d_size || crc_at + 4 > d->d_size ||
		    strchr(name, '/'))
			return NULL;
		memcpy(&want, (const char *)d->d_buf + crc_at, 4);
		slash = strrchr(path, '/');
		if (!slash)
			return NULL;
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		for (int i = 0; i < 3; i++) {
			bool ok;

			if (i == 0)
				snprintf(p, sizeof(p), "%s/%s", dir, name);
			else if (i == 1)
				snprintf(p, sizeof(p), "%s/.debug/%s", dir, name);
			else
				snprintf(p, sizeof(p), "/usr/lib/debug%s/%s", dir, name);
			if (!strcmp(p, path) || !is_file(p))
				continue;
			if (file_crc(p, &ok) == want && ok)
				return xstrdup(p);
		}
	}
	return debuginfod_path(hex);
}

struct sortent {
	struct elf_sym s;
	unsigned char bind;
	size_t name_off;
};

static int sortent_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sortent *a = pa, *b = pb;
	const char *pool = arg;
	const char *na = pool + a->name_off, *nb = pool + b->name_off;
	size_t ua = strspn(na, "_"), ub = strspn(nb, "_");

	if (a->s.addr != b->s.addr)
		return a->s.addr < b->s.addr ? -1 : 1;
	if (!a->s.size != !b->s.size)
		return a->s.size ? -1 : 1;
	if (a->bind != b->bind)
		return a->bind < b->bind ? -1 : 1;
	if (ua != ub)
		return ua < ub ? -1 : 1;
	return strcmp(na, nb);
}

/* Sort B, keep the best symbol of each address, hand it to ST. */
static void sb_finish(struct symbuild *b, struct elf_symtab *st)
{
	struct sortent *e = xmalloc(sizeof(*e) * (b->n ? b->n : 1));
	size_t k = 0;

	for (size_t i = 0; i < b->n; i++) {
		e[i].s = b->v[i];
		e[i].bind = b->bind[i];
		e[i].name_off = b->name_off[i];
	}
	qsort_r(e, b->n, sizeof(*e), sortent_cmp, b->pool);
	for (size_t i = 0; i < b->n; i++) {
		if (k && b->v[k - 1].addr == e[i].s.addr)
			continue;
		b->v[k] = e[i].s;
		b->v[k].name = b->pool + e[i].name_off;
		k++;
	}
	free(e);
	free(b->bind);
	free(b->name_off);
	st->v = b->v;
	st->n = k;
	st->names = b->pool;
}

static void load_segments(Elf *e, struct elf_symtab *st)
{
	size_t n;

	if (elf_getphdrnum(e, &n))
		return;
	st->seg = xcalloc(n ? n : 1, sizeof(*st->seg));
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		st->seg[st->nseg].off = ph.p_offset;
		st->seg[st->nseg].filesz = ph.p_filesz;
		st->seg[st->nseg].vaddr = ph.p_vaddr;
		st->nseg++;
	}
}

static int symtab_from(Elf *e, const char *path, struct elf_symtab *st)
{
	struct symbuild b = { 0 };

	memset(st, 0, sizeof(*st));
	load_segments(e, st);
	add_syms(e, SHT_SYMTAB, &b);
	add_syms(e, SHT_DYNSYM, &b);
	if (!has_section(e, SHT_SYMTAB)) {
		char *dbg = debug_file(e, path);
		int fd;
		Elf *de = dbg ? open_elf(dbg, &fd) : NULL;

		if (de) {
			add_syms(de, SHT_SYMTAB, &b);
			st->debug_file = true;
			elf_end(de);
			close(fd);
		} else {	/* MiniDebugInfo */
			void *image;
			Elf *me = minidebuginfo(e, &image);

			if (me) {
				add_syms(me, SHT_SYMTAB, &b);
				st->debug_file = true;
				elf_end(me);
				free(image);
			}
		}
		free(dbg);
	}
	sb_finish(&b, st);
	return 0;
}

int elf_symtab_load(const char *path, struct elf_symtab *st)
{
	int fd, rc;
	Elf *e = open_elf(path, &fd);

	memset(st, 0, sizeof(*st));
	if (!e)
		return errno == ENOEXEC ? -ENOEXEC : -errno;
	rc = symtab_from(e, path, st);
	elf_end(e);
	close(fd);
	return rc;
}

int elf_symtab_load_mem(const void *image, size_t size,
			struct elf_symtab *st)
{
	char *copy;
	Elf *e;
	int rc;

	memset(st, 0, sizeof(*st));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOEXEC;
	copy = xmalloc(size);
	memcpy(copy, image, size);
	e = elf_memory(copy, size);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		free(copy);
		return -ENOEXEC;
	}
	rc = symtab_from(e, NULL, st);
	elf_end(e);
	free(copy);
	return rc;
}

void elf_symtab_free(struct elf_symtab *st)
{
	free(st->v);
	free(st->seg);
	free(st->names);
	memset(st, 0, sizeof(*st));
}

const struct elf_sym *elf_symtab_find(const struct elf_symtab *st,
				      uint64_t addr)
{
	size_t lo = 0, hi = st->n, i;
	uint64_t limit;

	if (!st->n || addr < st->v[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->v[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* A function may hold another (a nested or cold part): step back
	 * while an earlier one could still cover ADDR, as bcc does. */
	limit = st->v[lo].addr;
	for (i = lo;; i--) {
		const struct elf_sym *s = &st->v[i];

		if (addr < s->addr + s->size)
			return s;
		if (limit > s->addr + s->size || i == 0)
			return NULL;
	}
}

int elf_symtab_vaddr(const struct elf_symtab *st, uint64_t off,
		     uint64_t *vaddr)
{
	for (int i = 0; i < st->nseg; i++) {
		const struct elf_seg *g = &st->seg[i];

		if (off >= g->off && off < g->off + g->filesz) {
			*vaddr = off - g->off + g->vaddr;
			return 0;
		}
	}
	return -ENOENT;
}

struct sym_find {
	const char *name;
	uint64_t vaddr, size;
};

static int find_visit(void *arg, const GElf_Sym *sym, const char *name)
{
	struct sym_find *f = arg;

	if (strcmp(name, f->name))
		return 0;
	f->vaddr = sym->st_value;
	f->size = sym->st_size;
	return 1;
}

int elf_symbol(const char *path, const char *name, uint64_t *vaddr,
	       bool *pie, uint64_t *size)
{
	int fd, rc;
	Elf *e = open_elf(path, &fd);
	struct sym_find f = { name, 0, 0 };
	GElf_Ehdr eh;

	if (!e)
		return errno == ENOEXEC ? -ENOEXEC : -errno;
	*pie = gelf_getehdr(e, &eh) && eh.e_type == ET_DYN;
	rc = each_symbol(e, 0, find_visit, &f) ? 0 : -ENOENT;
	*vaddr = f.vaddr;
	if (size)
		*size = f.size;
	elf_end(e);
	close(fd);
	return rc;
}
