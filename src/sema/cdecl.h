/* cdecl.h - struct, union and enum definitions written in a script. */
#ifndef SONDE_CDECL_H
#define SONDE_CDECL_H

#include <stdbool.h>
#include "base/compiler.h"
#include "lang/ast.h"

/* The largest struct, union or member array a script may define, in
 * bytes: far beyond what a probe can read (its scratch is smaller),
 * and small enough that sizes in bits fit in an int. */
#define CDECL_MAX_SIZE (1 << 20)

/* Lay out the script's definitions (C rules: alignment, bitfields).
 * Reports errors; returns 0 or -1. */
int cdecl_define(struct compiler *c);
/* "struct foo" defined by the script, or NULL. */
struct type *cdecl_lookup(struct compiler *c, const char *name);
/* An enumerator of the script. */
bool cdecl_enum(struct compiler *c, const char *name, int64_t *value);
/* The constant a bare NAME stands for, when it is no builtin: an
 * enumerator of the script, then one of the kernel (BTF), then a
 * kernel #define sonde knows (catalog/kconst.c).  The script's macros
 * came first, expanded by the lexer. */
bool cdecl_constant(struct compiler *c, const char *name, int64_t *value);
/* A type by name for casts and members: the script's own definition
 * first (it says what the script means, as with bpftrace), then the
 * kernel's BTF. */
struct type *cdecl_type_by_name(struct compiler *c, const char *name);
/* float, double and long double: a type of their size that sonde
 * cannot read (a member's room, sizeof); NULL for other names. */
struct type *cdecl_float(struct compiler *c, const char *name);
/* The type of N_MEMBER M as lang/decl.c read it (a D variable's
 * declaration): its base type, '*'s and dimensions; NULL when unknown
 * (reported). */
struct type *cdecl_member_type(struct compiler *c, struct node *m);

#endif
