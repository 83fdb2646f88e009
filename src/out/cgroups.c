/* cgroups.c - cgroup_path() values as text, as bpftrace 0.17 prints
 * them: for each cgroup hierarchy mounted whose name matches the
 * value's filter, "name:path" of the directory whose inode is the
 * cgroup id, joined by ','.  A cgroup2 hierarchy is named "unified"
 * and comes first, the v1 ones by the name of their mount point
 * ("cpu", "memory", "systemd"), in order; hierarchies where no
 * directory has the id are left out.  (bpftrace matches the files
 * inside cgroup directories too; an id is a directory's.)  The roots
 * are read from /proc/self/mounts once; each id's text is kept until
 * cgr_free(). */
#include "out/printer.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct cg_root {
	char *name;
	char *dir;
};

struct cg_text {
	uint64_t id;
	int filter;
	char *text;
};

struct cgroups {
	struct cg_root *roots;
	int nroots;
	struct cg_text *texts;
	int ntexts, cap;
};

/* A mount point as /proc/self/mounts writes it: " \t\n\\" as \ooo. */
static char *unescape(const char *s)
{
	char *out = xmalloc(strlen(s) + 1), *o = out;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	return out;
}

static int root_cmp(const void *pa, const void *pb)
{
	const struct cg_root *a = pa, *b = pb;
	bool ua = !strcmp(a->name, "unified"), ub = !strcmp(b->name, "unified");

	if (ua != ub)
		return ua ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void read_roots(struct cgroups *cg)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char line[4096];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[2048], type[64];
		const char *base;
		struct cg_root *r;

		if (sscanf(line, "%255s %2047s %63s", dev, dir, type) != 3 ||
		    (strcmp(type, "cgroup") && strcmp(type, "cgroup2")))
			continue;
		cg->roots = xrealloc(cg->roots, sizeof(*cg->roots) *
				     (size_t)(cg->nroots + 1));
		r = &cg->roots[cg->nroots++];
		r->dir = unescape(dir);
		base = strrchr(r->dir, '/');
		r->name = xstrdup(!strcmp(type, "cgroup2") ? "unified" :
				  base ? base + 1 : r->dir);
	}
	fclose(f);
	if (cg->nroots > 1)
		qsort(cg->roots, (size_t)cg->nroots, sizeof(*cg->roots),
		      root_cmp);
}

/* The path under DIR (PATH, of LEN bytes, is DIR's) of the directory
 * whose inode is ID, appended to PATH; true if found. */
static bool find(char *path, size_t len, size_t cap, uint64_t id)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool found = false;

	if (!d)
		return false;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    len + 1 + n + 1 > cap)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, e->d_name, n + 1);
		if (e->d_type == DT_UNKNOWN) {
			if (lstat(path, &st) || !S_ISDIR(st.st_mode))
				continue;
		} else if (e->d_type != DT_DIR) {
			continue;
		}
		if ((uint64_t)e->d_ino == id ||
		    find(path, len + 1 + n, cap, id))
			found = true;
	}
	closedir(d);
	if (!found)
		path[len] = 0;
	return found;
}

/* "name:path,..." of cgroup ID in the hierarchies FILTER matches: a
 * malloc'd string. */
static char *paths(struct cgroups *cg, uint64_t id, const char *filter)
{
	char *out = NULL, path[4096];
	size_t olen = 0;
	FILE *m = open_memstream(&out, &olen);
	bool first = true;

	if (!m)
		return xstrdup("");
	for (int i = 0; i < cg->nroots; i++) {
		struct cg_root *r = &cg->roots[i];
		size_t len = strlen(r->dir);
		struct stat st;
		const char *p;

		if (fnmatch(filter, r->name, 0) || len >= sizeof(path))
			continue;
		memcpy(path, r->dir, len + 1);
		if (!stat(path, &st) && (uint64_t)st.st_ino == id)
			p = "/";
		else if (find(path, len, sizeof(path), id))
			p = path + len;
		else
			continue;
		fprintf(m, "%s%s:%s", first ? "" : ",", r->name, p);
		first = false;
	}
	fclose(m);
	return out ? out : xstrdup("");
}

const char *cgr_path(struct printer *pr, uint64_t id, uint64_t filter)
{
	struct compiler *c = pr->c;
	struct cgroups *cg = pr->cgroups;
	struct cg_text *t;

	if (filter >= (uint64_t)c->ncgfilters)
		return "";
	if (!cg) {
		cg = pr->cgroups = xcalloc(1, sizeof(*cg));
		read_roots(cg);
	}
	for (int i = 0; i < cg->ntexts; i++)
		if (cg->texts[i].id == id && cg->texts[i].filter == (int)filter)
			return cg->texts[i].text;
	if (cg->ntexts == cg->cap) {
		cg->cap = cg->cap ? cg->cap * 2 : 16;
		cg->texts = xrealloc(cg->texts, sizeof(*cg->texts) *
				     (size_t)cg->cap);
	}
	t = &cg->texts[cg->ntexts++];
	t->id = id;
	t->filter = (int)filter;
	t->text = paths(cg, id, c->cgfilters[filter]);
	return t->text;
}

void cgr_free(struct printer *pr)
{
	struct cgroups *cg = pr->cgroups;

	if (!cg)
		return;
	for (int i = 0; i < cg->nroots; i++) {
		free(cg->roots[i].name);
		free(cg->roots[i].dir);
	}
	for (int i = 0; i < cg->ntexts; i++)
		free(cg->texts[i].text);
	free(cg->roots);
	free(cg->texts);
	free(cg);
	pr->cgroups = NULL;
}
