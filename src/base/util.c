/* util.c - arena, vectors, allocation wrappers, file reading. */
#include "base/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

#define BLOCK_MIN (64 * 1024)

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

void *arena_alloc(struct arena *a, size_t n)
{
	struct arena_block *b = a->head;
	void *p;

	n = ALIGN_UP(n ? n : 1, sizeof(max_align_t));
	if (!b || b->cap - b->used < n) {
		size_t cap = n > BLOCK_MIN ? n : BLOCK_MIN;

		b = xmalloc(sizeof(*b) + cap);
		b->used = 0;
		b->cap = cap;
		b->next = a->head;
		a->head = b;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	va_list ap;
	int n;
	char *p;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_block *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

static size_t str_hash(const char *s)
{
	size_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = str_hash(key) & (m->cap - 1); m->keys[i];
	     i = (i + 1) & (m->cap - 1))
		if (!strcmp(m->keys[i], key))
			return m->vals[i];
	return NULL;
}

void strmap_put(struct strmap *m, struct arena *a, const char *key,
		void *val)
{
	size_t i;

	if ((m->len + 1) * 2 > m->cap) {
		struct strmap bigger = { NULL, NULL, m->cap ? m->cap * 2 : 16, 0 };

		bigger.keys = arena_alloc(a, sizeof(*bigger.keys) * bigger.cap);
		bigger.vals = arena_alloc(a, sizeof(*bigger.vals) * bigger.cap);
		for (i = 0; i < m->cap; i++)
			if (m->keys[i])
				strmap_put(&bigger, a, m->keys[i], m->vals[i]);
		*m = bigger;
	}
	for (i = str_hash(key) & (m->cap - 1); m->keys[i];
	     i = (i + 1) & (m->cap - 1)) {
		if (!strcmp(m->keys[i], key)) {
			m->vals[i] = val;
			return;
		}
	}
	m->keys[i] = key;
	m->vals[i] = val;
	m->len++;
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

