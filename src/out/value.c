/* value.c - what bpftrace 0.26 prints as words where 0.17 printed
 * numbers: bools as true and false, a value of an enum as the name of
 * its enumerator (the number when none has it). */
#include "out/printer.h"

#include <inttypes.h>
#include <string.h>

const char *pr_symbol(const struct printer *pr, const struct type *ty,
		      int64_t v)
{
	if (pr->c->dialect_017 || ty->kind != TY_INT)
		return NULL;
	if (ty->boolean)
		return v ? "true" : "false";
	for (int i = 0; ty->edef && i < ty->edef->n; i++) {
		int64_t e = ty->edef->vals[i];

		/* the value as read at its width: compare the same bits */
		if (ty->size < 8) {
			int sh = 64 - 8 * ty->size;

			e = ty->is_signed ? (int64_t)((uint64_t)e << sh) >> sh
					  : (int64_t)(((uint64_t)e << sh) >> sh);
		}
		if (e == v)
			return ty->edef->names[i];
	}
	return NULL;
}

void pr_json_key_text(const struct printer *pr, char *s, size_t *len)
{
	size_t k = 0;

	/* 0.26 writes a key's text without any blank, even a string's */
	if (pr->c->dialect_017)
		return;
	for (size_t i = 0; i < *len; i++)
		if (s[i] != ' ')
			s[k++] = s[i];
	*len = k;
	s[k] = 0;
}

void pr_json_int(const struct printer *pr, FILE *f, int64_t v, bool sgn)
{
	uint64_t mag = sgn && v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	const char *q;

	while (mag && !(mag & 1))	/* a double holds 53 bits exactly */
		mag >>= 1;
	q = mag >> 53 && !pr->c->dialect_017 ? "\"" : "";
	if (sgn)
		fprintf(f, "%s%" PRId64 "%s", q, v, q);
	else
		fprintf(f, "%s%" PRIu64 "%s", q, (uint64_t)v, q);
}
