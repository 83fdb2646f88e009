/* uzip.c - uprobes on a library stored in a ZIP archive and mapped
 * from it in place (Android's APKs): uprobe:APP.apk!/lib/x/libfoo.so:FUNC.
 * The kernel probes the archive file itself, at the member's offset in
 * it plus the function's offset in the library. */
#include "probe/kinds.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/elfsym.h"
#include "catalog/zip.h"

/* The file offset of virtual address ADDR of the library, through its
 * PT_LOAD segments; -1 when no segment holds it. */
static int64_t seg_offset(const struct elf_symtab *st, uint64_t addr)
{
	for (int i = 0; i < st->nseg; i++)
		if (addr >= st->seg[i].vaddr &&
		    addr < st->seg[i].vaddr + st->seg[i].filesz)
			return (int64_t)(st->seg[i].off + addr - st->seg[i].vaddr);
	return -1;
}

/* MEMBER's bytes of ARCHIVE (OFF, SIZE) as a symbol table. */
static int load_member(const char *archive, uint64_t off, uint64_t size,
		       struct elf_symtab *st)
{
	char *buf;
	int fd, rc;

	if (size > (1u << 30))
		return -EFBIG;
	fd = open(archive, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = xmalloc(size ? size : 1);
	rc = pread(fd, buf, size, (off_t)off) == (ssize_t)size ?
	     elf_symtab_load_mem(buf, size, st) : -EIO;
	free(buf);
	close(fd);
	return rc;
}

int probe_zip_expand(struct probe_exp *x)
{
	struct compiler *c = x->c;
	const char *kind = x->ops->name, *glob = x->f[2];
	char *bang = strstr(x->f[1], "!/");
	const char *archive, *member;
	struct elf_symtab st;
	uint64_t off, size;
	int rc;

	archive = arena_strndup(&c->arena, x->f[1], (size_t)(bang - x->f[1]));
	member = bang + 2;
	if (x->nf != 3 || !*archive || !*member || !*glob) {
		probe_error(x, "%s in an archive needs the archive, its library and a function: %s:/app.apk!/lib/libfoo.so:FUNC",
			    kind, kind);
		return -1;
	}
	rc = zip_member(archive, member, &off, &size);
	if (rc == -ENOENT || rc == -ENOTSUP || rc == -ENOEXEC) {
		probe_error(x, rc == -ENOENT ? "%s: %s has no member %s" :
			    rc == -ENOTSUP ? "%s: %s stores %s compressed: only a library stored as it is can be mapped, and probed" :
			    "%s: %s is not a ZIP archive (reading %s)",
			    kind, archive, member);
		return -1;
	}
	if (!rc)
		rc = load_member(archive, off, size, &st);
	if (rc) {
		probe_error(x, "%s: cannot read %s!/%s: %s", kind, archive,
			    member, rc == -ENOEXEC ? "not an ELF file" :
			    strerror(-rc));
		return -1;
	}
	for (size_t i = 0; i < st.n; i++) {
		const struct elf_sym *s = &st.v[i];
		int64_t foff;
		struct probe_spec *ps;

		if (fnmatch(glob, s->name, 0) || (foff = seg_offset(&st, s->addr)) < 0)
			continue;
		ps = probe_add(x);
		ps->path = archive;
		ps->user_mem = true;
		ps->uoffset = off + (uint64_t)foff;
		ps->uvaddr = s->addr;
		ps->func = arena_strdup(&c->arena, s->name);
		ps->wild = probe_wild(glob);
		ps->name = arena_printf(&c->arena, "%s:%s!/%s:%s", kind, archive,
					member, s->name);
	}
	elf_symtab_free(&st);
	if (!x->n) {
		probe_missing(x, "%s: function %s not found in %s!/%s", kind,
			      glob, archive, member);
		return -1;
	}
	return 0;
}
