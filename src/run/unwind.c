/* unwind.c - the tables of the BPF stack walker, loaded as files are
 * met.
 *
 * Each file's rows (catalog/cfi.c) are an array map of its own, sized
 * to it (BPF_F_INNER_MAP lets the inner maps' sizes differ), at an
 * index of an ARRAY_OF_MAPS; a hash from the file's key (the kernel's
 * device number and inode, as the walker reads them from the mapping
 * that holds an address) gives that index, the number of rows and the
 * file's executable segments.  A file is compiled once whichever
 * processes map it and under whichever name.
 *
 * Files get there three ways: at start, those of -p's process and of
 * --dwarf-pid's (their maps), and those -c's program needs (its
 * DT_NEEDED libraries, found as the dynamic linker finds them), so
 * that their stacks walk from the first event; and any other file the
 * first time the walker meets it: it reports the file's key and the
 * mapping (once per file: a hash of keys reported), and user space
 * opens the file through /proc/PID/map_files/START-END, which is the
 * very file mapped whatever its name or mount namespace, and loads it
 * under the key the walker read.  Until then the walker steps through
 * that file's code by frame pointers.
 */
#include "run/unwind.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/util.h"
#include "catalog/elfsym.h"

enum { FD_INFO, FD_ROWS, FD_MISSED, FD_MAPS };

struct unwinder {
	bool verbose;
	int fds[4];
	int nindex;		/* row maps made */
	struct unw_key *tried;	/* keys loaded or failed */
	size_t ntried, cap_tried;
};

struct unwinder *unw_new(bool verbose, int fds[4])
{
	LIBBPF_OPTS(bpf_map_create_opts, o);
	LIBBPF_OPTS(bpf_map_create_opts, inner, .map_flags = BPF_F_INNER_MAP);
	struct unwinder *w;
	int tmpl, err;

	fds[FD_INFO] = fds[FD_ROWS] = fds[FD_MISSED] = fds[FD_MAPS] = -1;
	tmpl = bpf_map_create(BPF_MAP_TYPE_ARRAY, "sonde_unw_rows", 4,
			      sizeof(struct cfi_row), 1, &inner);
	if (tmpl < 0)
		return NULL;
	o.inner_map_fd = (uint32_t)tmpl;
	fds[FD_ROWS] = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS,
				      "sonde_unw_rows", 4, 4, UNW_FILES, &o);
	err = errno;
	close(tmpl);
	if (fds[FD_ROWS] >= 0) {
		fds[FD_INFO] = bpf_map_create(BPF_MAP_TYPE_HASH,
					      "sonde_unw_file",
					      sizeof(struct unw_key),
					      sizeof(struct unw_file),
					      UNW_FILES, NULL);
		err = errno;
	}
	if (fds[FD_INFO] >= 0) {
		fds[FD_MISSED] = bpf_map_create(BPF_MAP_TYPE_LRU_HASH,
						"sonde_unw_miss",
						sizeof(struct unw_key), 1,
						UNW_FILES, NULL);
		err = errno;
	}
	if (fds[FD_MISSED] >= 0) {
		fds[FD_MAPS] = bpf_map_create(BPF_MAP_TYPE_LRU_HASH,
					      "sonde_unw_maps",
					      sizeof(struct unw_map_key),
					      sizeof(struct unw_mapping),
					      UNW_MAPS, NULL);
		err = errno;
	}
	if (fds[FD_MAPS] < 0) {
		for (int i = 0; i < 4; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		errno = err;
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->verbose = verbose;
	memcpy(w->fds, fds, sizeof(w->fds));
	return w;
}

void unw_free(struct unwinder *w)
{
	if (!w)
		return;
	for (int i = 0; i < 4; i++)
		close(w->fds[i]);
	free(w->tried);
	free(w);
}

/* The key of the file at PATH, as the kernel reads it. */
static bool key_of(const char *path, struct unw_key *k)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	k->dev = (uint64_t)major(st.st_dev) << 20 | minor(st.st_dev);
	k->ino = st.st_ino;
	return true;
}

/* Has K been loaded or tried?  Remembers it. */
static bool tried(struct unwinder *w, const struct unw_key *k)
{
	for (size_t i = 0; i < w->ntried; i++)
		if (w->tried[i].dev == k->dev && w->tried[i].ino == k->ino)
			return true;
	if (w->ntried == w->cap_tried) {
		w->cap_tried = w->cap_tried ? 2 * w->cap_tried : 64;
		w->tried = xrealloc(w->tried, w->cap_tried * sizeof(*w->tried));
	}
	w->tried[w->ntried++] = *k;
	return false;
}

/* PATH's rows under key K: 0, or -errno. */
static int load(struct unwinder *w, const char *path, const struct unw_key *k)
{
	LIBBPF_OPTS(bpf_map_create_opts, inner, .map_flags = BPF_F_INNER_MAP);
	LIBBPF_OPTS(bpf_map_batch_opts, batch);
	struct unw_file info = { 0 };
	struct cfi_table t;
	uint32_t *keys, count, idx;
	int fd, rc;

	if (w->nindex >= UNW_FILES)
		return -ENOSPC;
	rc = cfi_load(path, &t);
	if (rc)
		return rc;
	for (int i = 0; i < t.nseg && info.nseg < UNW_SEGS; i++) {
		const struct cfi_seg *g = &t.seg[i];

		if (!g->exec)
			continue;
		info.seg[info.nseg].lo = g->off;
		info.seg[info.nseg].hi = g->off + g->filesz;
		info.seg[info.nseg++].delta = g->off - g->vaddr;
	}
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "sonde_unw_rows", 4,
			    sizeof(struct cfi_row), (uint32_t)t.n, &inner);
	if (fd < 0) {
		rc = -errno;
		cfi_free(&t);
		return rc;
	}
	keys = xmalloc(t.n * sizeof(*keys));
	for (size_t i = 0; i < t.n; i++)
		keys[i] = (uint32_t)i;
	count = (uint32_t)t.n;
	rc = bpf_map_update_batch(fd, keys, t.v, &count, &batch);
	if (rc && errno == EINVAL) {	/* no batches: one by one */
		rc = 0;
		for (size_t i = 0; !rc && i < t.n; i++)
			rc = bpf_map_update_elem(fd, &keys[i], &t.v[i], BPF_ANY);
	}
	free(keys);
	idx = (uint32_t)w->nindex;
	if (!rc)
		rc = bpf_map_update_elem(w->fds[FD_ROWS], &idx, &fd, BPF_ANY);
	info.index = idx;
	info.nrows = (uint32_t)t.n;
	if (!rc)
		rc = bpf_map_update_elem(w->fds[FD_INFO], k, &info, BPF_ANY);
	rc = rc ? -errno : 0;
	close(fd);		/* the array of maps holds it */
	if (!rc)
		w->nindex++;
	if (w->verbose)
		fprintf(stderr, "sonde: unwind rows of %s: %s%zu\n", path,
			rc ? strerror(-rc) : "", rc ? 0 : t.n);
	cfi_free(&t);
	return rc;
}

/* The file a process names NAME (PID 0: sonde's own view). */
static void load_named(struct unwinder *w, int pid, const char *name)
{
	char *path = elf_resolve_path(name, pid);
	struct unw_key k;

	if (path && key_of(path, &k) && !tried(w, &k))
		load(w, path, &k);
	free(path);
}

void unw_preload_pid(struct unwinder *w, int pid)
{
	char *names = w ? elf_process_files(pid) : NULL;

	for (const char *p = names; p && *p; p += strlen(p) + 1)
		load_named(w, pid, p);
	free(names);
}

void unw_preload(struct unwinder *w, const char *prog)
{
	char *path = w ? elf_resolve_path(prog, 0) : NULL;
	char *names = path ? elf_program_files(path) : NULL;

	for (const char *p = names; p && *p; p += strlen(p) + 1)
		load_named(w, 0, p);
	free(names);
	free(path);
}

void unw_missed(struct unwinder *w, const void *rec, uint32_t size)
{
	struct unw_miss m;
	char path[96];

	if (!w || size < sizeof(m))
		return;
	memcpy(&m, rec, sizeof(m));
	if (tried(w, &m.key))
		return;
	/* the file the process maps there, whatever its name */
	snprintf(path, sizeof(path), "/proc/%" PRIu64 "/map_files/%" PRIx64
		 "-%" PRIx64, m.pid, m.start, m.end);
	if (load(w, path, &m.key) == -ENOENT) {
		/* the process has gone: a later meeting may try again */
		w->ntried--;
		bpf_map_delete_elem(w->fds[FD_MISSED], &m.key);
	}
}
