/* typed.c - one value of a type as text and as JSON: integers,
 * strings, symbols, addresses, arrays, structs, tuples and records,
 * the way bpftrace prints them (0.17's, or today's where the dialect
 * says); print.c prints maps and events with these. */
#include "out/printer.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "out/format.h"
#include "out/json.h"


size_t pr_tstamp(struct printer *pr, char *buf, size_t cap, const void *p)
{
	uint64_t ns, k;

	memcpy(&ns, p, 8);
	memcpy(&k, (const uint8_t *)p + 8, 8);
	if (k >= (uint64_t)pr->c->ntfmts) {
		*buf = 0;
		return 0;
	}
	return fmt_time(buf, cap, pr->c->tfmts[k],
			ns + (uint64_t)pr->mono_to_epoch);
}

/* The integer of type TY at P, of its width, extended to 64 bits. */
int64_t pr_int_at(const struct type *ty, const uint8_t *p)
{
	switch (ty->size) {
	case 1: return ty->is_signed ? (int8_t)*p : (int64_t)*p;
	case 2: {
		uint16_t v;

		memcpy(&v, p, 2);
		return ty->is_signed ? (int16_t)v : (int64_t)v;
	}
	case 4: {
		uint32_t v;

		memcpy(&v, p, 4);
		return ty->is_signed ? (int32_t)v : (int64_t)v;
	}
	default: {
		int64_t v;

		memcpy(&v, p, 8);
		return v;
	}
	}
}

/* An array as bpftrace prints it, [1,2,3], nested [[1,2],[3,4]]. */
static void print_array(struct printer *pr, FILE *f, const struct type *ty,
			const uint8_t *p, int indent)
{
	fputc('[', f);
	for (int i = 0; i < ty->nelem; i++) {
		if (i)
			fputc(',', f);
		pr_text_typed(pr, f, ty->of, p + (size_t)i * (size_t)ty->of->size,
			    indent);
	}
	fputc(']', f);
}

/* The integer value of bitfield member M of the struct at P. */
static uint64_t bits_of(const struct smember *m, const uint8_t *p,
			int struct_size)
{
	uint64_t v = 0;
	int off = m->bitoff / 8;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | (off + i < struct_size ? p[off + i] : 0);
	v >>= m->bitoff % 8;
	return m->bitsize < 64 ? v & ((1ULL << m->bitsize) - 1) : v;
}

/* A struct as bpftrace prints it: { .a = 1, .b = x } as a value,
 * {.a=1,.b=x} in a key; members in the order declared. */
static void print_struct(struct printer *pr, FILE *f, const struct type *ty,
			 const uint8_t *p, int indent)
{
	bool key = indent == 4 && pr->c->dialect_017;
	bool first = true;

	fputs(key ? "{" : "{ ", f);
	for (int i = 0; i < ty->nmembers; i++) {
		const struct smember *m = &ty->members[i];

		if (!m->ty)
			continue;
		fprintf(f, key ? "%s.%s=" : "%s.%s = ", first ? "" : key ? "," : ", ",
			m->name);
		first = false;
		if (m->bitsize) {
			uint64_t v = bits_of(m, p, ty->size);

			pr_text_typed(pr, f, &ty_u64, (const uint8_t *)&v, indent);
		} else {
			pr_text_typed(pr, f, m->ty, p + m->bitoff / 8, indent);
		}
	}
	fputs(key ? "}" : " }", f);
}

/* INDENT: spaces before the frames of a kernel stack (stacks.c): 4 in
 * a map key, 8 elsewhere; in a key a pointer prints in hex and a struct
 * without blanks, as bpftrace 0.17 prints them. */
void pr_text_typed(struct printer *pr, FILE *f, const struct type *ty,
			const uint8_t *p, int indent)
{
	switch (ty->kind) {
	case TY_KSTACK: case TY_KSYM: case TY_USYM:
		stk_print(pr, f, ty, p, indent);
		break;
	case TY_TSTAMP: {
		char buf[256];
		size_t n = pr_tstamp(pr, buf, sizeof(buf), p);

		fwrite(buf, 1, n, f);
		break;
	}
	case TY_STRERROR: {
		uint64_t v;
		char buf[128];

		memcpy(&v, p, 8);
		fputs(pr_errname(ty, (int64_t)v, buf, sizeof(buf)), f);
		break;
	}
	case TY_CGPATH: {
		uint64_t id, k;

		memcpy(&id, p, 8);
		memcpy(&k, p + 8, 8);
		fputs(cgr_path(pr, id, k), f);
		break;
	}
	case TY_INT: {
		int64_t v = pr_int_at(ty, p);
		const char *sym = pr_symbol(pr, ty, v);

		if (sym)
			fputs(sym, f);
		else if (ty->is_signed)
			fprintf(f, "%" PRId64, v);
		else
			fprintf(f, "%" PRIu64, (uint64_t)v);
		break;
	}
	case TY_STR:
		fprintf(f, "%.*s", ty->size, (const char *)p);
		break;
	case TY_USERNAME: {
		uint64_t uid;

		memcpy(&uid, p, 8);
		fputs(usr_name(pr, (uint32_t)uid), f);
		break;
	}
	case TY_INET: case TY_MAC: {
		char buf[64];

		if (ty->kind == TY_INET)
			fmt_inet(buf, sizeof(buf), p);
		else
			fmt_mac(buf, sizeof(buf), p);
		fputs(buf, f);
		break;
	}
	case TY_BUF: {		/* as %r prints it, as in bpftrace */
		uint64_t len;

		memcpy(&len, p, 8);
		fmt_bytes(f, p + 8, len < (uint64_t)ty->size ? (size_t)len
			  : (size_t)ty->size, 0);
		break;
	}
	case TY_PTR: {
		uint64_t v;

		memcpy(&v, p, 8);
		fprintf(f, indent == 4 || !pr->c->dialect_017 ? "0x%" PRIx64
			: "%" PRIu64, v);
		break;
	}
	case TY_ARRAY:
		print_array(pr, f, ty, p, indent);
		break;
	case TY_STRUCT:
		print_struct(pr, f, ty, p, indent);
		break;
	case TY_TUPLE:		/* a record: { .a = 1, .b = x } */
		fputs(ty->names ? "{ " : "(", f);
		for (int i = 0; i < ty->nelem; i++) {
			if (i)
				fputs(", ", f);
			if (ty->names)
				fprintf(f, ".%s = ", ty->names[i]);
			pr_text_typed(pr, f, ty->elem[i], p + ty->off[i], indent);
		}
		fputs(ty->names ? " }" : ")", f);
		break;
	default:
		break;
	}
}

/* A value as text, captured for a JSON string. */
static void json_quoted(struct printer *pr, FILE *f, const struct type *ty,
			const uint8_t *p, int indent)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	pr_text_typed(pr, m, ty, p, indent);
	fclose(m);
	js_str(f, buf ? buf : "", len);
	free(buf);
}


/* A struct as bpftrace's JSON writes it: { "a": 1, "b": "x" }. */
static void json_struct(struct printer *pr, FILE *f, const struct type *ty,
			const uint8_t *p)
{
	bool first = true, sp = pr->c->dialect_017;

	fputs(sp ? "{ " : "{", f);
	for (int i = 0; i < ty->nmembers; i++) {
		const struct smember *m = &ty->members[i];

		if (!m->ty)
			continue;
		if (!first)
			fputs(", ", f);
		first = false;
		js_str(f, m->name, strlen(m->name));
		fputs(": ", f);
		if (m->bitsize) {
			uint64_t v = bits_of(m, p, ty->size);

			pr_json_typed(pr, f, &ty_u64, (const uint8_t *)&v);
		} else {
			pr_json_typed(pr, f, m->ty, p + m->bitoff / 8);
		}
	}
	fputs(sp ? " }" : "}", f);
}

/* A value as JSON: integers and pointers as numbers, tuples and arrays
 * as arrays, structs as objects, the rest as the strings the text mode
 * prints. */
void pr_json_typed(struct printer *pr, FILE *f, const struct type *ty,
		       const uint8_t *p)
{
	if (ty->kind == TY_INT || ty->kind == TY_PTR) {
		struct type num = *ty;	/* enums and pointers as numbers */

		num.edef = NULL;
		if (ty->kind == TY_PTR)
			num = ty_u64;
		if (num.boolean && !pr->c->dialect_017)
			pr_text_typed(pr, f, &num, p, 8);
		else
			pr_json_int(pr, f, pr_int_at(&num, p), num.is_signed);
	} else if (ty->kind == TY_TUPLE && ty->names) {
		fputc('{', f);
		for (int i = 0; i < ty->nelem; i++) {
			fputs(i ? ", " : "", f);
			js_str(f, ty->names[i], strlen(ty->names[i]));
			fputs(": ", f);
			pr_json_typed(pr, f, ty->elem[i], p + ty->off[i]);
		}
		fputc('}', f);
	} else if (ty->kind == TY_ARRAY) {
		fputc('[', f);
		for (int i = 0; i < ty->nelem; i++) {
			if (i)
				fputc(',', f);
			pr_json_typed(pr, f, ty->of,
				   p + (size_t)i * (size_t)ty->of->size);
		}
		fputc(']', f);
	} else if (ty->kind == TY_STRUCT) {
		json_struct(pr, f, ty, p);
	} else if (ty->kind == TY_TUPLE) {
		fputc('[', f);
		for (int i = 0; i < ty->nelem; i++) {
			if (i)
				fputc(',', f);
			pr_json_typed(pr, f, ty->elem[i], p + ty->off[i]);
		}
		fputc(']', f);
	} else {
		json_quoted(pr, f, ty, p, 8);
	}
}

void pr_typed(struct printer *pr, FILE *f, const struct type *ty,
	      const void *data)
{
	pr_text_typed(pr, f, ty, data, 8);
}
