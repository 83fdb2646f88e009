/* fold.c - stacks as folded lines, for -f folded and --flamegraph.
 *
 * The folded format is the one Brendan Gregg's stackcollapse scripts
 * write and flamegraph.pl, inferno and speedscope read: a line per
 * distinct stack,
 *
 *     root;frame;...;leaf COUNT
 *
 * frames from the outermost to the innermost, joined by ';', then one
 * space and a decimal count.  Readers split the count off at the last
 * space, so a frame may hold spaces but not ';' or a newline; those,
 * and the other control bytes, are replaced here.  print.c decides what
 * the frames of a map entry are; this file only keeps, merges and
 * writes them.
 */
#include "out/fold.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void fold_push(struct fold_frames *ff, const char *s, size_t n,
	       const char *suffix)
{
	size_t len = strnlen(s, n), slen = suffix ? strlen(suffix) : 0;
	char *p;

	if (!len) {
		s = "[empty]";
		len = strlen(s);
	}
	p = xmalloc(len + slen + 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		p[i] = c == ';' || c < 0x20 || c == 0x7f ? '_' : (char)c;
	}
	memcpy(p + len, suffix ? suffix : "", slen + 1);
	if (ff->n == ff->cap) {
		ff->cap = ff->cap ? ff->cap * 2 : 16;
		ff->v = xrealloc(ff->v, sizeof(*ff->v) * (size_t)ff->cap);
	}
	ff->v[ff->n++] = p;
}

void fold_append(struct fold_frames *ff, struct fold_frames *src)
{
	if (!src->n)
		return;		/* memcpy from a NULL list is undefined */
	if (ff->n + src->n > ff->cap) {
		ff->cap = ff->n + src->n + 16;
		ff->v = xrealloc(ff->v, sizeof(*ff->v) * (size_t)ff->cap);
	}
	memcpy(ff->v + ff->n, src->v, sizeof(*src->v) * (size_t)src->n);
	ff->n += src->n;
	src->n = 0;
}

void fold_frames_free(struct fold_frames *ff)
{
	for (int i = 0; i < ff->n; i++)
		free(ff->v[i]);
	free(ff->v);
	memset(ff, 0, sizeof(*ff));
}

void fold_add(struct fold *f, struct fold_frames *ff, uint64_t count)
{
	struct fold_stack *s;

	if (f->n == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 64;
		f->v = xrealloc(f->v, sizeof(*f->v) * (size_t)f->cap);
	}
	s = &f->v[f->n++];
	s->frames = ff->v;
	s->n = ff->n;
	s->count = count;
	memset(ff, 0, sizeof(*ff));
}

static int stack_cmp(const void *pa, const void *pb)
{
	const struct fold_stack *a = pa, *b = pb;

	for (int i = 0; i < a->n && i < b->n; i++) {
		int r = strcmp(a->frames[i], b->frames[i]);

		if (r)
			return r;
	}
	return (a->n > b->n) - (a->n < b->n);
}

static void stack_free(struct fold_stack *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->frames[i]);
	free(s->frames);
}

void fold_merge(struct fold *f)
{
	int out = 0;

	if (f->n > 1)
		qsort(f->v, (size_t)f->n, sizeof(*f->v), stack_cmp);
	for (int i = 0; i < f->n; i++) {
		if (out && !stack_cmp(&f->v[out - 1], &f->v[i])) {
			f->v[out - 1].count += f->v[i].count;
			stack_free(&f->v[i]);
		} else {
			f->v[out++] = f->v[i];
		}
	}
	f->n = out;
}

uint64_t fold_total(const struct fold *f)
{
	uint64_t sum = 0;

	for (int i = 0; i < f->n; i++)
		sum += f->v[i].count;
	return sum;
}

void fold_write(const struct fold *f, FILE *out, const char *root)
{
	for (int i = 0; i < f->n; i++) {
		const struct fold_stack *s = &f->v[i];

		if (root)
			fputs(root, out);
		for (int j = 0; j < s->n; j++) {
			if (j || root)
				fputc(';', out);
			fputs(s->frames[j], out);
		}
		fprintf(out, " %" PRIu64 "\n", s->count);
	}
}

void fold_free(struct fold *f)
{
	for (int i = 0; i < f->n; i++)
		stack_free(&f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}
