/* elfsym.c - reading ELF symbol tables for uprobes and user stacks.
 *
 * Only libelf touches the file's bytes; every size and index it gives
 * is checked before use, so a truncated or corrupt file is an error,
 * never a crash.
 */
#include "elfsym.h"

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
#include <unistd.h>

#include "util.h"

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

int elf_functions(const char *path, const char *glob,
		  void (*fn)(void *arg, const struct elf_func *f), void *arg)
{
	int fd, count = 0;
	Elf *e = open_elf(path, &fd);
	Elf_Scn *scn = NULL;
	struct seen seen = { 0 };

	if (!e)
		return errno == ENOEXEC ? -ENOEXEC : -errno;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t nsyms;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data || !data->d_buf)
			continue;
		nsyms = data->d_size / sh.sh_entsize;
		for (size_t i = 0; i < nsyms; i++) {
			GElf_Sym sym;
			const char *name;
			struct elf_func f;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			if (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
			    GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC)
				continue;
			if (sym.st_shndx == SHN_UNDEF || !sym.st_value)
				continue;
			name = elf_strptr(e, sh.sh_link, sym.st_name);
			if (!name || !*name || fnmatch(glob, name, 0))
				continue;
			if (!seen_add(&seen, name))
				continue;
			memset(&f, 0, sizeof(f));
			f.name = (char *)name;
			f.addr = sym.st_value;
			f.size = sym.st_size;
			if (vaddr_to_off(e, f.addr, &f.offset))
				continue;
			fn(arg, &f);
			count++;
		}
	}
	for (size_t i = 0; i < seen.n; i++)
		free(seen.names[i]);
	free(seen.names);
	elf_end(e);
	close(fd);
	return count;
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

char *elf_resolve_path(const char *name, int pid)
{
	char *p;

	if (!*name)
		return NULL;
	if (strchr(name, '/'))
		return is_file(name) ? realpath(name, NULL) : NULL;
	if (pid > 0 && (p = from_maps(name, pid)))
		return p;
	if ((p = from_ld_cache(name)))
		return p;
	if ((p = from_dirs(name)))
		return p;
	return from_path_env(name);
}
