/* usyms.c - user-space symbols for ustack and usym, kept past the exit
 * of the process they came from.
 *
 * A user address means something only in its process: which file is
 * mapped there, at which file offset.  bpftrace 0.17 reads
 * /proc/PID/maps when it prints, so the stacks of a process that has
 * exited by then print as hex.  sonde instead keeps, per process, a
 * table of its executable mappings, built from two sources:
 *
 * 1. The kernel's own side-band records (perf_event_open of a dummy
 *    software event on every CPU with mmap, mmap2, comm_exec and task
 *    set, as perf record does): PERF_RECORD_MMAP2 for every executable
 *    mapping any process makes, with its path and file offset, written
 *    synchronously by the mmap itself; PERF_RECORD_FORK (the child
 *    starts with a copy of its parent's table) and PERF_RECORD_COMM
 *    with PERF_RECORD_MISC_COMM_EXEC (exec empties the table, and the
 *    new image's mappings follow).  A process that forked or exec'd
 *    after sonde started is therefore known completely whatever
 *    happens to it later: this is what makes -c's command, and any
 *    process started while sonde runs, symbolize after its exit.
 *    Records of all CPUs are sorted by time before they are applied.
 *    PERF_RECORD_EXIT of a process BPF never noted (no ustack or usym:
 *    not in its map of processes seen) drops its table; a process that
 *    takes the pid of one whose table was kept keeps that table's
 *    mappings as older ones (like an exec), so pids that come round
 *    again (pid_max is 32768 on many machines) do not mix stacks up.
 *
 * 2. /proc/PID/maps, for processes older than sonde: read when BPF
 *    first sees the process (cg_note_pid sends a record the first time
 *    a ustack or usym of a process is taken), for -p's process at
 *    start, and when a stack is printed.  A process older than sonde
 *    that exits between its first stack and the moment user space
 *    reads its maps (well under a millisecond as a rule) prints hex.
 *
 * Files are read when a stack is printed (elf_symtab_load): a file
 * deleted or replaced between the process's run and the printing
 * prints hex, or the new file's names.  munmap is not reported; a new
 * mapping replaces what it overlaps.  The vDSO ("[vdso]") is read
 * from sonde's own, which is the same image in every process.
 */
#include "out/usyms.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "catalog/elfsym.h"
#include "catalog/srcinfo.h"
#include "out/demangle.h"
#include "base/util.h"

#define NBUCKETS 1024
/* Side-band buffer: 64 pages per CPU, at most 8 MiB in all. */
#define SB_PAGES 64
#define SB_TOTAL (8u << 20)

struct ufile {
	char *path;		/* as the processes mapping it name it */
	uint64_t mntns;		/* their mount namespace, 0: sonde's */
	int fd;			/* another namespace's: the file, opened
				 * through its process (/proc/PID/map_files)
				 * while that lived; -1 */
	bool tried, ok;
	struct elf_symtab st;
	char **dem;		/* per symbol: its demangled name, lazily */
	struct srcinfo *src;	/* its DWARF, for show_debug_info */
	bool src_tried;
	char build_id[72];	/* hex, "" for none (build_id mode) */
	bool id_tried;
	struct ufile *next;
};

struct umap {
	uint64_t start, end, pgoff;	/* pgoff: file offset in bytes */
	struct ufile *file;
};

struct uproc {
	int pid;
	bool complete;		/* every mapping since its fork/exec seen */
	bool snapped;		/* /proc/PID/maps read at least once */
	struct umap *v;		/* sorted by start, none overlapping */
	int n, cap;
	/* Mappings of the images it exec'd before, newest first: stacks
	 * taken before an exec (sh -c, before it execs -c's command) */
	struct umap *old;
	int nold;
	struct uproc *next;
};

/* Mappings of earlier images kept per process. */
#define MAX_OLD 1024

struct ring {
	int fd;
	struct perf_event_mmap_page *mp;
	uint8_t *data;
	size_t size;		/* data bytes, a power of two */
	size_t mlen;		/* mmap'd length */
};

struct rec {
	uint64_t time;
	uint32_t seq;		/* order of reading: ties keep it */
	uint32_t len;
	uint8_t *p;
};

struct usyms {
	bool verbose;
	bool no_symbols;	/* BPFTRACE_NO_USER_SYMBOLS: addresses only */
	int seen_fd;		/* BPF's processes seen, or -1 */
	struct uproc *procs[NBUCKETS];
	struct ufile *files[NBUCKETS];
	struct ring *rings;
	int nrings;
	int epfd;
	bool lost_said;
	struct rec *recs;
	size_t nrecs, reccap;
	long ndropped;		/* tables dropped at their process's exit */
	bool no_demangle;	/* BPFTRACE_NO_CPP_DEMANGLE */
	uint64_t mntns;		/* sonde's mount namespace (its inode) */
	/* JIT code's names from /tmp/perf-PID.map, per process */
	struct perfmap *perfmaps;
};

static void perfmaps_free(struct perfmap *m);

static unsigned hash_str(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % NBUCKETS;
}

struct usyms *us_new(bool verbose, int seen_fd)
{
	struct usyms *u = xcalloc(1, sizeof(*u));

	struct stat st;

	u->verbose = verbose;
	u->seen_fd = seen_fd;
	u->epfd = -1;
	u->mntns = stat("/proc/self/ns/mnt", &st) == 0 ? (uint64_t)st.st_ino : 0;
	return u;
}

static void file_free(struct ufile *f)
{
	if (f->dem) {
		for (size_t i = 0; i < f->st.n; i++)
			if (f->dem[i] != f->st.v[i].name)
				free(f->dem[i]);
		free(f->dem);
	}
	elf_symtab_free(&f->st);
	srcinfo_close(f->src);
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	free(f);
}

void us_free(struct usyms *u)
{
	if (!u)
		return;
	if (u->verbose) {
		long kept = 0;

		for (int i = 0; i < NBUCKETS; i++)
			for (struct uproc *p = u->procs[i]; p; p = p->next)
				kept++;
		fprintf(stderr, "sonde: user symbols: kept the mappings of %ld processes, dropped those of %ld that exited without a user stack\n",
			kept, u->ndropped);
	}
	for (int i = 0; i < NBUCKETS; i++) {
		for (struct uproc *p = u->procs[i], *n; p; p = n) {
			n = p->next;
			free(p->v);
			free(p->old);
			free(p);
		}
		for (struct ufile *f = u->files[i], *n; f; f = n) {
			n = f->next;
			file_free(f);
		}
	}
	for (int i = 0; i < u->nrings; i++) {
		if (u->rings[i].mp)
			munmap(u->rings[i].mp, u->rings[i].mlen);
		close(u->rings[i].fd);
	}
	free(u->rings);
	for (size_t i = 0; i < u->nrecs; i++)
		free(u->recs[i].p);
	free(u->recs);
	if (u->epfd >= 0)
		close(u->epfd);
	perfmaps_free(u->perfmaps);
	free(u);
}

/* The file PATH names in mount namespace MNTNS (0: sonde's). */
static struct ufile *file_get_ns(struct usyms *u, const char *path,
				 uint64_t mntns)
{
	unsigned h = hash_str(path);
	struct ufile *f;

	for (f = u->files[h]; f; f = f->next)
		if (f->mntns == mntns && !strcmp(f->path, path))
			return f;
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->mntns = mntns;
	f->fd = -1;
	f->next = u->files[h];
	u->files[h] = f;
	return f;
}

static struct ufile *file_get(struct usyms *u, const char *path)
{
	return file_get_ns(u, path, 0);
}

/* The inode of process PID's mount namespace, 0 when unknown. */
static uint64_t mnt_ns(int pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	return stat(path, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* A process in another mount namespace (a container) names files by
 * paths that mean other files, or nothing, in sonde's: while it lives,
 * its mappings' files are opened through it (/proc/PID/map_files:
 * the very file mapped) and kept open, so that they can be read when
 * its stacks print, after it has gone too. */
static void rebind(struct usyms *u, struct uproc *p)
{
	uint64_t ns = mnt_ns(p->pid);

	if (!ns || ns == u->mntns)
		return;
	for (int i = 0; i < p->n; i++) {
		struct umap *m = &p->v[i];
		struct ufile *f;
		char path[96];

		if (m->file->mntns == ns || m->file->path[0] != '/' ||
		    !strncmp(m->file->path, "//", 2))
			continue;
		f = file_get_ns(u, m->file->path, ns);
		if (f->fd < 0) {
			snprintf(path, sizeof(path), "/proc/%d/map_files/%" PRIx64 "-%" PRIx64,
				 p->pid, m->start, m->end);
			f->fd = open(path, O_RDONLY | O_CLOEXEC);
		}
		if (f->fd >= 0)
			m->file = f;
	}
}

static struct uproc *proc_find(struct usyms *u, int pid)
{
	for (struct uproc *p = u->procs[(unsigned)pid % NBUCKETS]; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

static struct uproc *proc_get(struct usyms *u, int pid)
{
	struct uproc *p = proc_find(u, pid);
	unsigned h = (unsigned)pid % NBUCKETS;

	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->next = u->procs[h];
	u->procs[h] = p;
	return p;
}

/* A process exited without a ustack or usym (BPF never noted it):
 * nothing will ask for its mappings, so a long trace of many short
 * processes keeps only those that matter. */
static void proc_exited(struct usyms *u, int pid)
{
	struct uproc **pp = &u->procs[(unsigned)pid % NBUCKETS], *p;
	uint32_t key = (uint32_t)pid;
	uint64_t val;

	if (u->seen_fd < 0 || bpf_map_lookup_elem(u->seen_fd, &key, &val) == 0)
		return;
	for (; (p = *pp); pp = &p->next) {
		if (p->pid != pid)
			continue;
		*pp = p->next;
		free(p->v);
		free(p->old);
		free(p);
		u->ndropped++;
		return;
	}
}

static void push_map(struct uproc *p, struct umap m)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 32;
		p->v = xrealloc(p->v, sizeof(*p->v) * (size_t)p->cap);
	}
	p->v[p->n++] = m;
}

static int map_cmp(const void *a, const void *b)
{
	const struct umap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* A new mapping replaces whatever part of older ones it overlaps. */
static void add_map(struct uproc *p, uint64_t start, uint64_t end,
		    uint64_t pgoff, struct ufile *f)
{
	int n = p->n;

	if (end <= start)
		return;
	for (int i = 0; i < n; i++) {
		struct umap *m = &p->v[i];

		if (m->end <= start || m->start >= end)
			continue;
		if (m->end > end) {	/* the part after the new one */
			struct umap r = *m;

			r.pgoff += end - m->start;
			r.start = end;
			push_map(p, r);
			m = &p->v[i];	/* push_map may move the array */
		}
		if (m->start < start) {
			m->end = start;
		} else {
			m->start = m->end = 0;	/* dropped below */
		}
	}
	push_map(p, (struct umap){ start, end, pgoff, f });
	n = 0;
	for (int i = 0; i < p->n; i++)
		if (p->v[i].end > p->v[i].start)
			p->v[n++] = p->v[i];
	p->n = n;
	if (p->n > 1)
		qsort(p->v, (size_t)p->n, sizeof(*p->v), map_cmp);
}

/* exec: the current image's mappings become the newest old ones. */
static void retire(struct uproc *p)
{
	int n = p->n < MAX_OLD ? p->n : MAX_OLD;
	int keep = p->nold < MAX_OLD - n ? p->nold : MAX_OLD - n;

	if (!n)
		return;
	p->old = xrealloc(p->old, sizeof(*p->old) * (size_t)(n + keep));
	memmove(p->old + n, p->old, sizeof(*p->old) * (size_t)keep);
	memcpy(p->old, p->v, sizeof(*p->old) * (size_t)n);
	p->nold = n + keep;
	p->n = 0;
}

static const struct umap *find_map(const struct uproc *p, uint64_t addr)
{
	int lo = 0, hi = p->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (p->v[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->n && p->v[lo].start <= addr && addr < p->v[lo].end)
		return &p->v[lo];
	for (int i = 0; i < p->nold; i++)
		if (p->old[i].start <= addr && addr < p->old[i].end)
			return &p->old[i];
	return NULL;
}

/* Executable file mappings of /proc/PID/maps:
 * "55d0c0a00000-55d0c0a21000 r-xp 00002000 fe:01 1234   /usr/bin/x" */
int us_snapshot(struct usyms *u, int pid)
{
	char path[64], line[4096 + 256];
	struct uproc tmp = { 0 }, *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off;
		char perms[8];
		int name = 0;
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end,
			   perms, &off, &name) < 4 || !name)
			continue;
		if (!strchr(perms, 'x') ||
		    (line[name] != '/' && strcmp(line + name, "[vdso]")))
			continue;
		push_map(&tmp, (struct umap){ start, end, off,
					      file_get(u, line + name) });
	}
	fclose(f);
	/* A zombie's maps are empty: keep what was known. */
	if (!tmp.n)
		return -ESRCH;
	p = proc_get(u, pid);
	free(p->v);
	p->v = tmp.v;
	p->n = tmp.n;
	p->cap = tmp.cap;
	p->snapped = true;
	/* the side-band has every change from here on */
	p->complete = u->nrings > 0;
	if (p->n > 1)
		qsort(p->v, (size_t)p->n, sizeof(*p->v), map_cmp);
	return 0;
}

int us_snapshot_all(struct usyms *u)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || pid > INT32_MAX)
			continue;
		us_snapshot(u, (int)pid);
	}
	closedir(d);
	return 0;
}

void us_note(struct usyms *u, int pid)
{
	struct uproc *p;

	if (!u)
		return;
	us_drain(u);
	p = proc_find(u, pid);
	if (!p || !p->complete)
		us_snapshot(u, pid);
	p = proc_find(u, pid);
	if (p)
		rebind(u, p);
}

/* Side-band records */

static int perf_open(struct perf_event_attr *attr, int pid, int cpu)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

int us_follow(struct usyms *u, int ncpus)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = SB_PAGES;
	struct perf_event_attr a;
	int err = 0;

	if (page <= 0)
		page = 4096;
	while (pages > 8 && (size_t)ncpus * pages * (size_t)page > SB_TOTAL)
		pages /= 2;
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof(a);
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.mmap = 1;		/* executable mappings only */
	a.mmap2 = 1;
	a.comm = 1;
	a.comm_exec = 1;
	a.task = 1;
	a.watermark = 1;
	a.wakeup_watermark = (uint32_t)(pages * (size_t)page / 4);
	u->rings = xcalloc((size_t)ncpus, sizeof(*u->rings));
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct ring *r = &u->rings[u->nrings];
		int fd = perf_open(&a, -1, cpu);
		void *m;

		if (fd < 0) {
			if (errno == ENODEV)	/* offline CPU */
				continue;
			err = -errno;
			break;
		}
		r->mlen = (pages + 1) * (size_t)page;
		m = mmap(NULL, r->mlen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m == MAP_FAILED) {
			err = -errno;
			close(fd);
			break;
		}
		r->fd = fd;
		r->mp = m;
		r->data = (uint8_t *)m + page;
		r->size = pages * (size_t)page;
		u->nrings++;
	}
	if (err) {
		for (int i = 0; i < u->nrings; i++) {
			munmap(u->rings[i].mp, u->rings[i].mlen);
			close(u->rings[i].fd);
		}
		u->nrings = 0;
		if (u->verbose)
			fprintf(stderr, "sonde: cannot follow mappings (%s): user stacks of processes that exit are symbolized only if seen alive\n",
				strerror(-err));
	}
	return err;
}

static void copy_out(const struct ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t at = (size_t)(pos & (r->size - 1)), first = r->size - at;

	if (first > len)
		first = len;
	memcpy(dst, r->data + at, first);
	memcpy((uint8_t *)dst + first, r->data, len - first);
}

static void read_ring(struct usyms *u, struct ring *r)
{
	uint64_t head = __atomic_load_n(&r->mp->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->mp->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		struct rec *rc;

		copy_out(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h) || tail + h.size > head)
			break;
		if (u->nrecs == u->reccap) {
			u->reccap = u->reccap ? u->reccap * 2 : 256;
			u->recs = xrealloc(u->recs, sizeof(*u->recs) * u->reccap);
		}
		rc = &u->recs[u->nrecs];
		rc->p = xmalloc(h.size);
		rc->len = h.size;
		rc->seq = (uint32_t)u->nrecs;
		copy_out(r, tail, rc->p, h.size);
		/* sample_id_all with TID|TIME: the time ends the record */
		rc->time = 0;
		if (h.size >= sizeof(h) + 16)
			memcpy(&rc->time, rc->p + h.size - 8, 8);
		u->nrecs++;
		tail += h.size;
	}
	__atomic_store_n(&r->mp->data_tail, tail, __ATOMIC_RELEASE);
}

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint32_t u32_at(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

static uint64_t u64_at(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static void apply(struct usyms *u, const struct rec *rc)
{
	const uint8_t *p = rc->p;
	struct perf_event_header h;

	memcpy(&h, p, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_MMAP2: {
		/* pid tid addr len pgoff {maj min ino ino_gen | build id}
		 * prot flags filename[] sample_id(16) */
		size_t name_max;
		const char *name;
		uint64_t addr, len;

		if (rc->len < 72 + 16)
			return;
		name = (const char *)p + 72;
		name_max = rc->len - 72 - 16;
		if (strnlen(name, name_max) == name_max ||
		    !(u32_at(p, 64) & PROT_EXEC) ||
		    (name[0] != '/' && strcmp(name, "[vdso]")))
			return;
		addr = u64_at(p, 16);
		len = u64_at(p, 24);
		add_map(proc_get(u, (int)u32_at(p, 8)), addr, addr + len,
			u64_at(p, 32), file_get(u, name));
		return;
	}
	case PERF_RECORD_FORK: {
		/* pid ppid tid ptid time */
		int pid = (int)u32_at(p, 8), ppid = (int)u32_at(p, 12);
		struct uproc *parent, *child;

		if (rc->len < 32 || pid == ppid)	/* a thread */
			return;
		parent = proc_find(u, ppid);
		child = proc_find(u, pid);
		if (child) {
			/* The pid came round again while the table of an
			 * earlier process was kept for its stacks (an unseen
			 * one's went at its exit): its mappings stay, as
			 * older ones, consulted after the new process's. */
			retire(child);
		} else {
			child = proc_get(u, pid);
		}
		free(child->v);
		child->v = NULL;
		child->n = child->cap = 0;
		child->snapped = false;
		child->complete = parent && parent->complete;
		if (parent && parent->n) {
			child->v = xmalloc(sizeof(*child->v) * (size_t)parent->n);
			memcpy(child->v, parent->v,
			       sizeof(*child->v) * (size_t)parent->n);
			child->n = child->cap = parent->n;
		}
		return;
	}
	case PERF_RECORD_EXIT:
		/* pid ppid tid ptid time: the group leader's exit */
		if (rc->len >= 32 && u32_at(p, 8) == u32_at(p, 16))
			proc_exited(u, (int)u32_at(p, 8));
		return;
	case PERF_RECORD_COMM: {
		struct uproc *pr;

		if (!(h.misc & PERF_RECORD_MISC_COMM_EXEC) || rc->len < 16)
			return;
		pr = proc_get(u, (int)u32_at(p, 8));
		retire(pr);
		pr->complete = true;
		return;
	}
	case PERF_RECORD_LOST:
		/* Some process may have missed a mapping: read /proc for
		 * every process from now on. */
		for (int i = 0; i < NBUCKETS; i++)
			for (struct uproc *pr = u->procs[i]; pr; pr = pr->next)
				pr->complete = false;
		if (u->verbose && !u->lost_said)
			fprintf(stderr, "sonde: some mapping records were lost; reading /proc/PID/maps instead\n");
		u->lost_said = true;
		return;
	default:
		return;
	}
}

void us_drain(struct usyms *u)
{
	if (!u || !u->nrings)
		return;
	for (int i = 0; i < u->nrings; i++)
		read_ring(u, &u->rings[i]);
	if (!u->nrecs)
		return;
	qsort(u->recs, u->nrecs, sizeof(*u->recs), rec_cmp);
	for (size_t i = 0; i < u->nrecs; i++) {
		apply(u, &u->recs[i]);
		free(u->recs[i].p);
	}
	u->nrecs = 0;
}

int us_wait(struct usyms *u, int other_fd, int timeout_ms)
{
	struct epoll_event ev[8];
	int n;

	if (u->epfd < 0) {
		struct epoll_event e = { .events = EPOLLIN };

		u->epfd = epoll_create1(EPOLL_CLOEXEC);
		if (u->epfd < 0)
			return -errno;
		e.data.fd = other_fd;
		if (epoll_ctl(u->epfd, EPOLL_CTL_ADD, other_fd, &e) < 0)
			return -errno;
		for (int i = 0; i < u->nrings; i++) {
			e.data.fd = u->rings[i].fd;
			if (epoll_ctl(u->epfd, EPOLL_CTL_ADD, u->rings[i].fd, &e) < 0)
				return -errno;
		}
	}
	n = epoll_wait(u->epfd, ev, (int)ARRAY_SIZE(ev), timeout_ms);
	if (n < 0)
		return -errno;
	us_drain(u);
	return 0;
}

/* Symbols */

/* The vDSO is one image for every process: read sonde's own. */
static int load_vdso(struct elf_symtab *st)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	char line[512];
	FILE *f;
	int rc = -ENOENT;

	if (!base)
		return -ENOENT;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end;

		if (!strstr(line, "[vdso]") ||
		    sscanf(line, "%llx-%llx", &start, &end) != 2 || start != base)
			continue;
		rc = elf_symtab_load_mem((const void *)(uintptr_t)start,
					 (size_t)(end - start), st);
		break;
	}
	fclose(f);
	return rc;
}

void us_no_symbols(struct usyms *u)
{
	u->no_symbols = true;
}

void us_no_demangle(struct usyms *u)
{
	u->no_demangle = true;
}

static const char *demangled(struct usyms *u, struct ufile *f,
			     const struct elf_sym *s)
{
	size_t i = (size_t)(s - f->st.v);
	char *d;

	if (u->no_demangle || (strncmp(s->name, "_Z", 2) &&
			       strncmp(s->name, "_R", 2)))
		return s->name;
	if (!f->dem)
		f->dem = xcalloc(f->st.n, sizeof(*f->dem));
	if (f->dem[i])
		return f->dem[i];
	d = sym_demangle(s->name);
	f->dem[i] = d ? d : (char *)s->name;
	return f->dem[i];
}

/* JIT code: /tmp/perf-PID.map, the file perf reads, which JITs (the
 * JVM's agents, V8's --perf-basic-prof, Python 3.12's perf
 * trampolines, LuaJIT, .NET) write: "START SIZE NAME" lines, hex.
 * Read when an address of PID outside its files is symbolized, again
 * when the file has grown (JITs append as they compile); for a live
 * process in another mount namespace, its own /tmp under its own pid
 * (/proc/PID/root/tmp/perf-NSPID.map). */
struct perfmap_sym {
	uint64_t start, size;
	char *name;
};

struct perfmap {
	int pid;
	off_t size;		/* of the file when read; -1 none */
	char *path;		/* where it was found */
	struct perfmap_sym *v;
	size_t n;
	struct perfmap *next;
};

static void perfmap_clear(struct perfmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	free(m->path);
	m->v = NULL;
	m->n = 0;
	m->path = NULL;
}

static void perfmaps_free(struct perfmap *m)
{
	for (struct perfmap *n; m; m = n) {
		n = m->next;
		perfmap_clear(m);
		free(m);
	}
}

static int perfsym_cmp(const void *a, const void *b)
{
	const struct perfmap_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The pid process PID has in its own pid namespace (NSpid's last). */
static int ns_pid(int pid)
{
	char path[64], line[256];
	int ns = pid;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "re");
	if (!f)
		return pid;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + 6, *end;

		if (strncmp(line, "NSpid:", 6))
			continue;
		for (long v; (v = strtol(p, &end, 10)) > 0 && end != p; p = end)
			ns = (int)v;
		break;
	}
	fclose(f);
	return ns;
}

static void perfmap_read(struct perfmap *m)
{
	char path[128], line[4096];
	struct stat st;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/root/tmp/perf-%d.map", m->pid,
		 ns_pid(m->pid));
	f = fopen(path, "re");
	if (!f) {
		snprintf(path, sizeof(path), "/tmp/perf-%d.map", m->pid);
		f = fopen(path, "re");
	}
	if (!f || fstat(fileno(f), &st) != 0 || st.st_size == m->size) {
		if (f)
			fclose(f);
		return;
	}
	perfmap_clear(m);
	m->size = st.st_size;
	m->path = xstrdup(path);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, size;
		int name = 0;

		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%llx %llx %n", &start, &size, &name) < 2 ||
		    !name || !line[name])
			continue;
		if (m->n == cap) {
			cap = cap ? 2 * cap : 256;
			m->v = xrealloc(m->v, cap * sizeof(*m->v));
		}
		m->v[m->n].start = start;
		m->v[m->n].size = size;
		m->v[m->n++].name = xstrdup(line + name);
	}
	fclose(f);
	/* a later line for the same address wins (code recompiled) */
	if (m->n)
		qsort(m->v, m->n, sizeof(*m->v), perfsym_cmp);
}

static bool perfmap_resolve(struct usyms *u, int pid, uint64_t addr,
			    struct usym_frame *fr)
{
	struct perfmap *m;
	size_t lo = 0, hi;

	for (m = u->perfmaps; m && m->pid != pid; m = m->next)
		;
	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->pid = pid;
		m->size = -1;
		m->next = u->perfmaps;
		u->perfmaps = m;
	}
	perfmap_read(m);
	hi = m->n;
	while (lo < hi) {	/* the last symbol starting at or before */
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - m->v[lo - 1].start >= m->v[lo - 1].size)
		return false;
	fr->func = m->v[lo - 1].name;
	fr->off = addr - m->v[lo - 1].start;
	fr->path = m->path;
	return true;
}

bool us_resolve(struct usyms *u, int pid, uint64_t addr,
		struct usym_frame *fr)
{
	struct uproc *p;
	const struct umap *m;
	const struct elf_sym *s;
	struct ufile *f;
	uint64_t vaddr;

	memset(fr, 0, sizeof(*fr));
	if (u->no_symbols)
		return false;
	us_drain(u);
	p = proc_find(u, pid);
	if (!p || (!p->complete && !p->snapped)) {
		us_snapshot(u, pid);
		p = proc_find(u, pid);
	}
	if (p)
		rebind(u, p);	/* still alive: another namespace's files */
	m = p ? find_map(p, addr) : NULL;
	/* no file there: anonymous memory ("//anon"), JIT code */
	if (!m || !strncmp(m->file->path, "//", 2) ||
	    (m->file->path[0] != '/' && strcmp(m->file->path, "[vdso]")))
		return perfmap_resolve(u, pid, addr, fr) || m;
	f = m->file;
	fr->path = f->path;
	if (!f->tried) {
		int rc;

		f->tried = true;
		if (f->fd >= 0) {
			char fdpath[64];

			snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", f->fd);
			rc = elf_symtab_load(fdpath, &f->st);
		} else {
			rc = strcmp(f->path, "[vdso]") ?
			     elf_symtab_load(f->path, &f->st) : load_vdso(&f->st);
		}
		f->ok = rc == 0;
		if (rc && u->verbose)
			fprintf(stderr, "sonde: no symbols from %s: %s\n", f->path,
				strerror(-rc));
	}
	if (!f->ok ||
	    elf_symtab_vaddr(&f->st, addr - m->start + m->pgoff, &vaddr))
		return true;
	s = elf_symtab_find(&f->st, vaddr);
	if (s) {
		fr->func = demangled(u, f, s);
		fr->off = vaddr - s->addr;
	}
	return true;
}

int us_srcinfo(struct usyms *u, int pid, uint64_t addr, struct src_frame *out,
	       int max)
{
	struct uproc *p;
	const struct umap *m;
	struct ufile *f;
	uint64_t vaddr;

	if (u->no_symbols || !(p = proc_find(u, pid)) ||
	    !(m = find_map(p, addr)))
		return 0;
	f = m->file;
	if (!f->ok ||
	    elf_symtab_vaddr(&f->st, addr - m->start + m->pgoff, &vaddr))
		return 0;	/* us_resolve() read the file first */
	if (!f->src_tried) {
		char fdpath[64];

		f->src_tried = true;
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", f->fd);
		f->src = srcinfo_open(f->fd >= 0 ? fdpath : f->path);
	}
	return f->src ? srcinfo_at(f->src, vaddr, out, max) : 0;
}

const char *us_build_id(struct usyms *u, int pid, uint64_t addr,
			uint64_t *off)
{
	struct uproc *p;
	const struct umap *m;
	struct ufile *f;

	if (!u || !(p = proc_find(u, pid)) || !(m = find_map(p, addr)))
		return NULL;
	f = m->file;
	if (!f->id_tried) {
		char fdpath[64];

		f->id_tried = true;
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", f->fd);
		if (f->path[0] != '/' || !strncmp(f->path, "//", 2) ||
		    elf_build_id(f->fd >= 0 ? fdpath : f->path, f->build_id,
				 sizeof(f->build_id)))
			f->build_id[0] = 0;
	}
	if (!f->build_id[0])
		return NULL;
	*off = addr - m->start + m->pgoff;
	return f->build_id;
}
