/* fold.h - stacks as folded lines ("root;frame;...;leaf COUNT"), the
 * input of flamegraph.pl, inferno and speedscope, and of flame.c. */
#ifndef SONDE_FOLD_H
#define SONDE_FOLD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The frames of one stack being built, outermost first; each name is
 * malloc'd and owned by the list. */
struct fold_frames {
	char **v;
	int n, cap;
};

/* One stack and what it counts. */
struct fold_stack {
	char **frames;		/* outermost first, owned */
	int n;
	uint64_t count;
};

/* A set of stacks: one map's entries. */
struct fold {
	struct fold_stack *v;
	int n, cap;
};

/* Append the frame S (at most N bytes, up to a NUL) and SUFFIX (NULL:
 * none).  Bytes that would break a folded line (';' between frames,
 * control bytes such as a newline) become '_'; an empty name becomes
 * "[empty]", which every reader of the format accepts. */
void fold_push(struct fold_frames *ff, const char *s, size_t n,
	       const char *suffix);
/* Append the frames of SRC, which is left empty. */
void fold_append(struct fold_frames *ff, struct fold_frames *src);
void fold_frames_free(struct fold_frames *ff);

/* Add FF's frames as one stack (FF is left empty). */
void fold_add(struct fold *f, struct fold_frames *ff, uint64_t count);
/* Sort the stacks frame by frame (bytewise, a prefix first) and sum
 * equal ones, so each stack appears once. */
void fold_merge(struct fold *f);
/* The sum of the counts. */
uint64_t fold_total(const struct fold *f);
/* One line per stack: ROOT (NULL: none) as an extra outermost frame,
 * the frames joined by ';', a space, the count. */
void fold_write(const struct fold *f, FILE *out, const char *root);
void fold_free(struct fold *f);

#endif
