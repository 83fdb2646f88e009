/* tracefs.h - the kernel's tracepoint catalogue: where tracefs is (it
 * is mounted on demand), which events exist, and their format files. */
#ifndef SONDE_TRACEFS_H
#define SONDE_TRACEFS_H

#include <stdbool.h>
#include "base/types.h"
#include "base/util.h"

enum tpf_kind {
	TPF_INT,	/* integer of size bytes */
	TPF_STR,	/* char name[N]: a string in the record */
	TPF_DATALOC,	/* __data_loc char[]: u32 (len << 16 | offset) */
	TPF_PTR,	/* a pointer (char * marked is_char_ptr) */
	TPF_ARRAY,	/* other arrays: raw bytes */
};

struct tp_field {
	const char *name;
	const char *ctype;	/* the declaration's type, qualifiers dropped */
	const char *decl;	/* the whole declaration, as written */
	enum tpf_kind kind;
	int offset, size;	/* in the record */
	int int_size;		/* TPF_INT: bytes to read (<= size) */
	bool is_signed;
	bool is_char_ptr;	/* TPF_PTR to char: str() reads it */
	int nelem;		/* TPF_ARRAY, TPF_STR: N of NAME[N] */
};

struct tp_format {
	const char *category, *name;
	int id;
	struct tp_field *fields;	/* without the common_ ones */
	int nfields;
};

/* The tracefs directory, mounting tracefs at /sys/kernel/tracing first
 * if it is not mounted (needs root).  NULL if unavailable; *WHY then
 * says why.  *MOUNTED is set when this call mounted it. */
const char *tracefs_dir(const char **why, bool *mounted);

/* Parse the text of a format file.  Returns 0, or -1 if it is not one. */
int tp_parse_format(struct arena *a, const char *text, size_t len,
		    struct tp_format *out);

/* Read events/CAT/NAME/format.  Returns 0 or -errno. */
int tp_read_format(struct arena *a, const char *dir, const char *cat,
		   const char *name, struct tp_format *out);

/* Call FN for every event CAT:NAME of tracefs whose category matches
 * CAT_GLOB and name NAME_GLOB (fnmatch patterns), in sorted order.
 * Returns the number of matches, or -errno. */
int tp_list(const char *dir, const char *cat_glob, const char *name_glob,
	    void (*fn)(void *arg, const char *cat, const char *name),
	    void *arg);

/* The type sonde gives a field (int, string, pointer as uint64). */
struct type *tp_field_type(struct arena *a, const struct tp_field *f);
/* TP's field NAME; "#N" is D's args[N] of a syscall tracepoint: the
 * Nth field after __syscall_nr (the system call's Nth argument; its
 * return value, ret, for N 0 of a sys_exit_ one).  NULL: none. */
const struct tp_field *tp_field_named(const struct tp_format *tp,
				      const char *name);

#endif
