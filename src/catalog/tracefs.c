/* tracefs.c - reading /sys/kernel/tracing: mount, list, formats.
 *
 * A format file lists the fields of an event's record:
 *   field:const char * filename;	offset:24;	size:8;	signed:0;
 * The declared C type decides how a field reads: integer typedefs we do
 * not know take the size and signedness the file gives; known C integer
 * types keep their own width (syscall records declare "int dfd" in an
 * 8-byte slot, and bpftrace, like the kernel, reads it as an int).
 */
#include "catalog/tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define TRACEFS_MAGIC_ 0x74726163
#define DEBUGFS_MAGIC_ 0x64626720

static bool is_tracefs(const char *dir)
{
	struct statfs st;
	char ev[256];

	if (statfs(dir, &st) != 0 || (unsigned long)st.f_type != TRACEFS_MAGIC_)
		return false;
	snprintf(ev, sizeof(ev), "%s/events", dir);
	return access(ev, F_OK) == 0;
}

static const char *find_tracefs(const char **why, bool *mounted)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};

	if (mounted)
		*mounted = false;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (is_tracefs(dirs[i]))
			return dirs[i];
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL) == 0) {
		if (mounted)
			*mounted = true;
		if (is_tracefs("/sys/kernel/tracing"))
			return "/sys/kernel/tracing";
	}
	if (why) {
		if (errno == EPERM || errno == EACCES)
			*why = "tracefs is not mounted and only root can mount it (mount -t tracefs nodev /sys/kernel/tracing)";
		else if (errno == ENODEV)
			*why = "this kernel has no tracefs (CONFIG_TRACING is off)";
		else
			*why = "tracefs is not mounted and mounting it at /sys/kernel/tracing failed";
	}
	return NULL;
}

/* tracefs is root's: read as root in sonde serve's sessions too
 * (fs_system()), as every entry point here does. */
const char *tracefs_dir(const char **why, bool *mounted)
{
	const char *d;

	fs_system();
	d = find_tracefs(why, mounted);
	fs_user();
	return d;
}

static const struct {
	const char *name;
	int size;
	bool is_signed;
} ctypes[] = {
	{ "char", 1, true }, { "signed char", 1, true },
	{ "unsigned char", 1, false }, { "short", 2, true },
	{ "unsigned short", 2, false }, { "int", 4, true },
	{ "unsigned int", 4, false }, { "unsigned", 4, false },
	{ "long", 8, true }, { "unsigned long", 8, false },
	{ "long long", 8, true }, { "unsigned long long", 8, false },
	{ "bool", 1, false }, { "_Bool", 1, false },
	{ "u8", 1, false }, { "s8", 1, true }, { "u16", 2, false },
	{ "s16", 2, true }, { "u32", 4, false }, { "s32", 4, true },
	{ "u64", 8, false }, { "s64", 8, true },
	{ "__u8", 1, false }, { "__s8", 1, true }, { "__u16", 2, false },
	{ "__s16", 2, true }, { "__u32", 4, false }, { "__s32", 4, true },
	{ "__u64", 8, false }, { "__s64", 8, true },
	{ "uint8_t", 1, false }, { "int8_t", 1, true },
	{ "uint16_t", 2, false }, { "int16_t", 2, true },
	{ "uint32_t", 4, false }, { "int32_t", 4, true },
	{ "uint64_t", 8, false }, { "int64_t", 8, true },
	{ "pid_t", 4, true }, { "size_t", 8, false }, { "ssize_t", 8, true },
};

/* "const volatile unsigned int" -> "unsigned int" */
static const char *strip_quals(struct arena *a, const char *t, size_t n)
{
	char *buf = arena_strndup(a, t, n), *p = buf, *out;
	size_t k = 0;

	out = arena_alloc(a, n + 1);
	while (*p) {
		char *w = p;
		size_t wl;

		while (*p && *p != ' ')
			p++;
		wl = (size_t)(p - w);
		while (*p == ' ')
			p++;
		if ((wl == 5 && !strncmp(w, "const", 5)) ||
		    (wl == 8 && !strncmp(w, "volatile", 8)) ||
		    (wl == 6 && !strncmp(w, "signed", 6) && *p) || wl == 0)
			continue;
		if (k)
			out[k++] = ' ';
		memcpy(out + k, w, wl);
		k += wl;
	}
	out[k] = 0;
	return out;
}

/* Parse "TYPE NAME[N]" of one field declaration into F. */
static int parse_decl(struct arena *a, const char *d, size_t n,
		      struct tp_field *f)
{
	const char *end = d + n, *name_end, *name;
	int array = -1;
	bool ptr = false;

	while (end > d && end[-1] == ' ')
		end--;
	if (end > d && end[-1] == ']') {
		const char *lb = end;

		while (lb > d && *lb != '[')
			lb--;
		if (lb == d)
			return -1;
		array = lb + 1 < end - 1 ? atoi(lb + 1) : 0;
		end = lb;
	}
	name_end = end;
	name = name_end;
	while (name > d && (name[-1] == '_' || (name[-1] >= 'a' && name[-1] <= 'z') ||
			    (name[-1] >= 'A' && name[-1] <= 'Z') ||
			    (name[-1] >= '0' && name[-1] <= '9')))
		name--;
	if (name == name_end)
		return -1;
	f->name = arena_strndup(a, name, (size_t)(name_end - name));
	while (name > d && (name[-1] == ' ' || name[-1] == '*')) {
		if (name[-1] == '*')
			ptr = true;
		name--;
	}
	f->ctype = strip_quals(a, d, (size_t)(name - d));
	{
		const char *ds = d, *de = d + n;

		while (ds < de && *ds == ' ')
			ds++;
		while (de > ds && de[-1] == ' ')
			de--;
		f->decl = arena_strndup(a, ds, (size_t)(de - ds));
	}
	if (!strncmp(f->ctype, "__data_loc ", 11)) {
		f->kind = TPF_DATALOC;
		return 0;
	}
	if (ptr) {
		f->kind = TPF_PTR;
		f->is_char_ptr = !strcmp(f->ctype, "char");
		return 0;
	}
	if (array >= 0) {
		f->kind = !strcmp(f->ctype, "char") ||
			  !strcmp(f->ctype, "unsigned char") ? TPF_STR : TPF_ARRAY;
		f->nelem = array;
		return 0;
	}
	f->kind = TPF_INT;
	return 0;
}

static int field_num(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p ? atoi(p + strlen(key)) : -1;
}

int tp_parse_format(struct arena *a, const char *text, size_t len,
		    struct tp_format *out)
{
	const char *p = text, *end = text + len;
	int cap = 16;

	out->fields = arena_alloc(a, sizeof(*out->fields) * (size_t)cap);
	out->nfields = 0;
	out->id = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		char line[1024];
		size_t n = (size_t)(le - p);

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		p = nl ? nl + 1 : end;
		if (!strncmp(line, "ID: ", 4)) {
			out->id = atoi(line + 4);
			continue;
		}
		char *fl = strstr(line, "field:");
		if (!fl)
			continue;
		fl += 6;
		char *semi = strchr(fl, ';');
		struct tp_field f;

		if (!semi)
			return -1;
		memset(&f, 0, sizeof(f));
		if (parse_decl(a, fl, (size_t)(semi - fl), &f))
			return -1;
		f.offset = field_num(semi, "offset:");
		f.size = field_num(semi, "size:");
		f.is_signed = field_num(semi, "signed:") == 1;
		if (f.offset < 0 || f.size <= 0 || f.offset > 65535 || f.size > 65535)
			return -1;
		if (!strncmp(f.name, "common_", 7))
			continue;
		f.int_size = f.size;
		if (f.kind == TPF_INT) {
			for (size_t i = 0; i < ARRAY_SIZE(ctypes); i++) {
				if (!strcmp(ctypes[i].name, f.ctype)) {
					if (ctypes[i].size <= f.size) {
						f.int_size = ctypes[i].size;
						f.is_signed = ctypes[i].is_signed;
					}
					break;
				}
			}
			if (f.int_size != 1 && f.int_size != 2 && f.int_size != 4 &&
			    f.int_size != 8)
				f.kind = TPF_ARRAY;
		}
		if (out->nfields == cap) {
			struct tp_field *nf = arena_alloc(a, sizeof(*nf) * (size_t)cap * 2);

			memcpy(nf, out->fields, sizeof(*nf) * (size_t)cap);
			out->fields = nf;
			cap *= 2;
		}
		out->fields[out->nfields++] = f;
	}
	return out->id < 0 && !out->nfields ? -1 : 0;
}

int tp_read_format(struct arena *a, const char *dir, const char *cat,
		   const char *name, struct tp_format *out)
{
	char path[512];
	char *text;
	size_t len;
	int rc;

	if (strchr(cat, '/') || strchr(name, '/') || !strcmp(cat, "..") ||
	    !strcmp(name, ".."))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", dir, cat, name);
	fs_system();
	rc = read_file(path, &text, &len);
	fs_user();
	if (rc)
		return rc;
	out->category = arena_strdup(a, cat);
	out->name = arena_strdup(a, name);
	rc = tp_parse_format(a, text, len, out) ? -EINVAL : 0;
	free(text);
	return rc;
}

static int name_sort(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of DIR matching GLOB. */
static int subdirs(const char *dir, const char *glob, char ***out)
{
	DIR *d;
	struct dirent *e;
	char **v = NULL;
	int n = 0, cap = 0;

	fs_system();
	d = opendir(dir);
	fs_user();
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		if (fnmatch(glob, e->d_name, 0))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = xrealloc(v, sizeof(*v) * (size_t)cap);
		}
		v[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), name_sort);
	*out = v;
	return n;
}

/* One event named exactly (no pattern characters): a stat instead of
 * reading two directories, which for syscalls holds 700 entries.  What
 * the listing would skip is skipped too: ftrace's records, names
 * starting with '.', and anything with a '/'; an unreadable tracefs is
 * still an error. */
static int tp_exact(const char *dir, const char *cat, const char *name,
		    void (*fn)(void *arg, const char *cat, const char *name),
		    void *arg)
{
	char path[512];
	struct stat st;
	int rc;

	if (!strcmp(cat, "ftrace") || cat[0] == '.' || name[0] == '.' ||
	    strchr(cat, '/') || strchr(name, '/'))
		return 0;
	snprintf(path, sizeof(path), "%s/events/%s/%s", dir, cat, name);
	fs_system();
	rc = stat(path, &st);
	fs_user();
	if (rc)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return 0;
	fn(arg, cat, name);
	return 1;
}

int tp_list(const char *dir, const char *cat_glob, const char *name_glob,
	    void (*fn)(void *arg, const char *cat, const char *name),
	    void *arg)
{
	char path[512];
	char **cats = NULL;
	int ncat, total = 0;

	if (!strpbrk(cat_glob, "*?[\\") && !strpbrk(name_glob, "*?[\\"))
		return tp_exact(dir, cat_glob, name_glob, fn, arg);
	snprintf(path, sizeof(path), "%s/events", dir);
	ncat = subdirs(path, cat_glob, &cats);
	if (ncat < 0)
		return ncat;
	for (int i = 0; i < ncat; i++) {
		char **names = NULL;
		int nn;

		/* events/ftrace/ holds the formats of ftrace's own records,
		 * not tracepoints: nothing can attach there */
		if (!strcmp(cats[i], "ftrace")) {
			free(cats[i]);
			continue;
		}

		snprintf(path, sizeof(path), "%s/events/%s", dir, cats[i]);
		nn = subdirs(path, name_glob, &names);
		for (int j = 0; j < nn; j++) {
			fn(arg, cats[i], names[j]);
			free(names[j]);
			total++;
		}
		free(names);
		free(cats[i]);
	}
	free(cats);
	return total;
}

/* An array field's element: its C type when known and of its size,
 * else an unsigned integer of the size the format gives. */
static struct type *elem_type(const struct tp_field *f)
{
	int size = f->nelem > 0 ? f->size / f->nelem : 0;
	struct type *t = ty_by_name(f->ctype);

	for (size_t i = 0; !t && i < ARRAY_SIZE(ctypes); i++)
		if (!strcmp(ctypes[i].name, f->ctype))
			t = ty_int(ctypes[i].size, ctypes[i].is_signed);
	if (t && t->size == size)
		return t;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return NULL;
	return ty_int(size, false);
}

struct type *tp_field_type(struct arena *a, const struct tp_field *f)
{
	struct type *t;

	switch (f->kind) {
	case TPF_INT:
		return ty_int(f->int_size, f->is_signed);
	case TPF_STR:
		return ty_str(a, f->size);
	case TPF_ARRAY:
		t = f->nelem > 0 && f->size % f->nelem == 0 ? elem_type(f) : NULL;
		return t ? ty_array(a, t, f->nelem) : NULL;
	case TPF_DATALOC:
		return NULL;	/* sized by the caller: BPFTRACE_STRLEN */
	default:
		return &ty_u64;
	}
}

const struct tp_field *tp_field_named(const struct tp_format *tp,
				      const char *name)
{
	int k = 0;

	if (!tp)
		return NULL;
	if (name[0] == '#') {
		k = atoi(name + 1);
		if (tp->nfields && !strcmp(tp->fields[0].name, "__syscall_nr"))
			k++;
		return k < tp->nfields ? &tp->fields[k] : NULL;
	}
	for (; k < tp->nfields; k++)
		if (!strcmp(tp->fields[k].name, name))
			return &tp->fields[k];
	return NULL;
}
