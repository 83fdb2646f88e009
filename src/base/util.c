/* util.c - vectors, allocation wrappers, file reading, UTF-8. */
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <sys/fsuid.h>
#include <unistd.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fputs("sonde: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);

	if (!p) {
		fputs("sonde: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("sonde: out of memory\n", stderr);
		abort();
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

void *vec_push(struct vec *v)
{
	void *slot;

	if (v->len == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 16;
		v->data = xrealloc(v->data, v->cap * v->elem);
	}
	slot = (char *)v->data + v->len * v->elem;
	memset(slot, 0, v->elem);
	v->len++;
	return slot;
}

void vec_free(struct vec *v)
{
	free(v->data);
	v->data = NULL;
	v->len = v->cap = 0;
}

int read_file(const char *path, char **out, size_t *len)
{
	return read_file_max(path, out, len, SIZE_MAX - 1);
}

int read_file_max(const char *path, char **out, size_t *len, size_t max)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 4096, n = 0;
	char *buf;

	if (!f)
		return -errno;
	buf = xmalloc(cap);
	while (n < max) {
		size_t r, want;

		if (cap - n < 2) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		want = cap - n - 1 < max - n ? cap - n - 1 : max - n;
		r = fread(buf + n, 1, want, f);
		n += r;
		if (r == 0)
			break;
	}
	if (ferror(f)) {
		int err = errno ? errno : EIO;

		free(buf);
		if (f != stdin)
			fclose(f);
		return -err;
	}
	if (f != stdin)
		fclose(f);
	buf[n] = 0;
	*out = buf;
	*len = n;
	return 0;
}

/* The length of the UTF-8 sequence at P, or 0 if it is not valid. */
int utf8_len(const char *p, const char *end)
{
	const unsigned char *u = (const unsigned char *)p;
	int n;

	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (end - p < n)
		return 0;
	for (int i = 1; i < n; i++)
		if ((u[i] & 0xc0) != 0x80)
			return 0;
	return n;
}


static const struct name_index *sorting;

static const char *record_name(const struct name_index *ix, int i)
{
	return *(const char *const *)((const char *)ix->table +
				       (size_t)i * ix->stride);
}

static int by_record_name(const void *a, const void *b)
{
	return strcmp(record_name(sorting, *(const int *)a),
		      record_name(sorting, *(const int *)b));
}

int name_index_find(struct name_index *ix, const char *name)
{
	size_t lo = 0, hi = ix->n;

	if (!ix->ready) {
		for (size_t i = 0; i < ix->n; i++)
			ix->order[i] = (int)i;
		sorting = ix;
		qsort(ix->order, ix->n, sizeof(int), by_record_name);
		sorting = NULL;
		ix->ready = true;
	}
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(record_name(ix, ix->order[mid]), name);

		if (!c)
			return ix->order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int hist_bucket(uint64_t v, bool neg, int k)
{
	int l = 0, sh;

	if (neg)
		return 0;
	if (v < (2ull << k))
		return (int)v + 1;
	for (uint64_t u = v; u >>= 1;)
		l++;
	sh = l - k;
	return ((sh + 1) << k) + (int)((v >> sh) & ((1ull << k) - 1)) + 1;
}

int hist_nbuckets(int k)
{
	return ((64 - k) << k) + (1 << k) + 1;
}

bool hist_low(int i, int k, uint64_t *v)
{
	int p = (i >> k) - 1;
	uint64_t n = 1ull << k, step = n + ((uint64_t)i & (n - 1));

	if (p + k + 1 > 64)	/* step has k + 1 bits */
		return false;
	*v = step << p;
	return true;
}

/* fs_as_user(): the identity, and how deep fs_system() calls nest. */
static struct {
	bool set;
	unsigned uid, gid;
	int depth;
} fs_id;

void fs_as_user(unsigned uid, unsigned gid)
{
	fs_id.set = true;
	fs_id.uid = uid;
	fs_id.gid = gid;
	fs_id.depth = 0;
	setfsgid(gid);
	setfsuid(uid);
}

void fs_system(void)
{
	if (fs_id.set && fs_id.depth++ == 0) {
		setfsuid(0);
		setfsgid(0);
	}
}

void fs_user(void)
{
	if (fs_id.set && --fs_id.depth == 0) {
		setfsgid(fs_id.gid);
		setfsuid(fs_id.uid);
	}
}

int fs_become_user(void)
{
	struct passwd *pw;

	if (!fs_id.set)
		return 0;
	pw = getpwuid(fs_id.uid);
	if ((pw ? initgroups(pw->pw_name, fs_id.gid) :
	     setgroups(0, NULL)) || setgid(fs_id.gid) || setuid(fs_id.uid))
		return -1;
	return 0;
}
