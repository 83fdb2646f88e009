/* util.h - growable arrays and small helpers shared by all phases; the
 * arena and name tables are arena.h's. */
#ifndef SONDE_UTIL_H
#define SONDE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "base/arena.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a) (((x) + (a) - 1) / (a) * (a))

/* Growable array of fixed-size elements, memory from malloc. */
struct vec {
	void *data;
	size_t len, cap, elem;
};
#define VEC_INIT(type) { NULL, 0, 0, sizeof(type) }
void *vec_push(struct vec *v);		/* returns new zeroed slot */
void vec_free(struct vec *v);
#define VEC_AT(v, type, i) (((type *)(v)->data)[i])

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Read a whole file (or stdin for "-") into a malloc'd NUL-terminated
 * buffer. Returns 0 or -errno. */
int read_file(const char *path, char **out, size_t *len);
/* The same, reading at most MAX bytes: the caller decides whether a
 * file of MAX bytes was cut (a script may be a pipe that never ends). */
int read_file_max(const char *path, char **out, size_t *len, size_t max);

/* sonde serve's sessions open files with the client's identity, so
 * that a script, its #includes, -o, uprobe targets and cat() reach
 * only what the user could (fs_as_user(): the file-system uid and gid
 * of every thread that opens files); the system's catalogues that only
 * root reads (tracefs) are read between fs_system() and fs_user().
 * Outside a session all three do nothing. */
void fs_as_user(unsigned uid, unsigned gid);
void fs_system(void);
void fs_user(void);
/* In a child about to exec a command (-c, system()): become that user
 * wholly (groups, gid, uid); 0, or -1 with errno.  Nothing outside a
 * session. */
int fs_become_user(void);

/* The length of the UTF-8 sequence at P (before END), or 0 if it is
 * not a valid one: the lexer and the caret printer agree on this. */
int utf8_len(const char *p, const char *end);

/* A fixed table of records whose first member is a name, searched by
 * name in O(log n): the index is sorted on first use.  ORDER has room
 * for N entries and is static in the caller, as is the table. */
struct name_index {
	const void *table;
	size_t stride, n;
	int *order;
	bool ready;
};
int name_index_find(struct name_index *ix, const char *name); /* or -1 */

/* hist(x, k), 2^k buckets per power of two (k 0..5): bucket 0 holds
 * the negatives, 1 .. 2^(k+1) the values 0 .. 2^(k+1) - 1 one each,
 * then each power of two [2^p, 2^(p+1)) splits into 2^k buckets of
 * equal width.  hist_bucket(): the bucket of V (NEG: it is below 0);
 * hist_nbuckets(): how many there are; hist_low(): the least value of
 * bucket I + 1 (above the single-value ones), false for 2^64. */
int hist_bucket(uint64_t v, bool neg, int k);
int hist_nbuckets(int k);
bool hist_low(int i, int k, uint64_t *v);

#endif
