/* arena.c - the compile's memory: blocks freed all at once, and the
 * name tables that live in them. */
#include "base/arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

struct arena_block {
	struct arena_block *next;
	size_t used, cap;
	max_align_t data[];
};

#define BLOCK_MIN (64 * 1024)

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
	/* the table keeps the low bits: fold the high ones in */
	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
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
