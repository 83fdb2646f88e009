/* arena.h - one arena per compile, and string tables in it. */
#ifndef SONDE_ARENA_H
#define SONDE_ARENA_H

#include <stddef.h>

/* One arena per compile: every AST node, string and IR array lives in it
 * and is freed at once by arena_free(). */
struct arena_block;
struct arena {
	struct arena_block *head;
};

void *arena_alloc(struct arena *a, size_t n);	/* zeroed */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void arena_free(struct arena *a);

/* A table from strings to pointers, in an arena, for the names a
 * script defines (maps, variables): a generated script may define tens
 * of thousands, which a list would search in quadratic time.  KEY must
 * live as long as the table (arena strings do). */
struct strmap {
	const char **keys;
	void **vals;
	size_t cap, len;	/* cap: 0 or a power of two */
};
void *strmap_get(const struct strmap *m, const char *key);	/* or NULL */
void strmap_put(struct strmap *m, struct arena *a, const char *key,
		void *val);

#endif
