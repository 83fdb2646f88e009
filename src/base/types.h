/* types.h - the types of the bpftrace language as sonde models them. */
#ifndef SONDE_TYPES_H
#define SONDE_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include "base/util.h"

enum ty_kind {
	TY_ERROR,	/* an expression sema already reported */
	TY_VOID,	/* statements, functions without a value */
	TY_INT,
	TY_STR,		/* NUL-terminated, zero-padded buffer of size bytes */
	TY_TUPLE,
	TY_MAPREF,	/* @map used whole: print(@m), clear(@m) */
	TY_TSTAMP,	/* strftime(fmt, ns): {u64 ns, u64 format index}, the
			 * format (compiler.tfmts) applied in user space */
	TY_PTR,		/* a pointer typed from BTF: 8 bytes */
	TY_STRUCT,	/* a kernel struct or union (BTF), used by address */
	TY_KSTACK,	/* kstack or ustack (suser): a stack id, see stacks.c */
	TY_KSYM,	/* ksym(addr): a kernel address printed as a symbol */
	TY_USYM,	/* usym(addr): {u64 address, u64 pid}, see stacks.c */
	TY_USERNAME,	/* username: a uid, printed as the user's name */
	TY_INET,	/* ntop(): {u64 af, u8 addr[16]}, printed by inet_ntop */
	TY_MAC,		/* macaddr(): 6 bytes, zero-padded to 8 */
	TY_BUF,		/* buf(): {u64 length, u8 data[size]}, size the most */
	TY_ARRAY,	/* of[nelem], as laid out in memory (not char[N],
			 * which is a string) */
	TY_STRERROR,	/* strerror(errno): the number, printed as its text;
			 * nelem says which text (STRERROR_*) */
	TY_CGPATH,	/* cgroup_path(): {u64 cgroup id, u64 filter index},
			 * printed as the cgroup's paths */
};

/* TY_STRERROR's nelem: what the number names. */
enum { STRERROR_ERRNO, STRERROR_SIGNAL, STRERROR_SYSCALL };

/* How a stack prints (kstack(perf), ustack(raw), ...). */
enum stack_mode {
	SM_BPFTRACE,		/* "        func+off" */
	SM_PERF,		/* "\taddr func+off" */
	SM_RAW,		/* "addr" */
	SM_BUILD_ID,	/* ustack: "buildid 0xfileoffset", else "addr" */
};

/* The most frames kstack(N) and ustack(N) record: bpftrace's limit, and
 * the default of the kernel's perf_event_max_stack sysctl. */
#define KSTACK_MAX_DEPTH 127

/* An enum's enumerators, by which a value of the enum prints (0.26):
 * a kernel one (BTF) or the script's, named or not. */
struct enum_def {
	const char *name;	/* "enum cpu_usage_stat"; NULL: anonymous */
	int n;
	const char **names;
	int64_t *vals;
};

/* A member of a struct the script defines. */
struct smember {
	const char *name;
	int bitoff;		/* from the start of the struct */
	int bitsize;		/* bitfields; 0 otherwise */
	struct type *ty;	/* NULL: a type sonde cannot read */
};

struct type {
	enum ty_kind kind;
	int size;		/* bytes in memory (INT: 1 2 4 8) */
	bool is_signed;		/* INT */
	int nelem;		/* TUPLE, ARRAY */
	struct type **elem;	/* TUPLE element types */
	int *off;		/* TUPLE element offsets */
	int align;		/* TUPLE: its elements' largest alignment */
	bool slots;		/* TUPLE: laid out in 8-byte slots (the keys
				 * of a map with several), not as bpftrace
				 * lays out a tuple value */
	const char *tfmt;	/* TSTAMP: the strftime format (of the first
				 * value: each value carries its own) */
	struct type *pointee;	/* PTR: what it points to (NULL: void) */
	struct type *of;	/* ARRAY: the element type; nelem elements */
	int btf_id;		/* STRUCT, PTR: its BTF id (0: defined by the
			 * script, or a cast) */
	struct smember *members;	/* STRUCT defined by the script */
	int nmembers;
	const char *sname;	/* STRUCT: "struct task_struct" */
	enum stack_mode smode;	/* KSTACK */
	int sdepth;		/* KSTACK: frames kept, 1..KSTACK_MAX_DEPTH */
	bool suser;		/* KSTACK: a user stack (ustack) */
	bool user;		/* PTR, STRUCT: in user memory (the pointer
			 * arguments of syscall tracepoints); INT: an
			 * address in user memory (uptr()) */
	bool kernel;		/* PTR, INT: an address in kernel memory
				 * (kptr()), whatever the probe */
	bool boolean;		/* INT: bool (true, false, comparisons in
				 * 0.26), printed as true or false */
	bool literal;		/* INT: a non-negative integer literal,
				 * which takes the sign of the place it is
				 * stored in (0.26) */
	const struct enum_def *edef;	/* INT: a value of this enum,
					 * printed as its enumerator */
	const char **names;	/* TUPLE: a record's field names, in layout
				 * order (NULL: a plain tuple) */
	bool modonly;		/* KSYM, USYM: D's mod()/umod(), the module
				 * (file) alone */
};

extern struct type ty_kmod, ty_umod;	/* D's mod() and umod() */
extern struct type ty_error, ty_void, ty_mapref, ty_ksym, ty_usym,
	ty_username, ty_inet, ty_mac, ty_strerror, ty_cgpath;
extern struct type ty_bool, ty_lit;
extern struct type ty_s8, ty_s16, ty_s32, ty_s64, ty_u8, ty_u16, ty_u32,
	ty_u64;

struct type *ty_int(int size, bool is_signed);
/* T (an integer) resized and signed as asked, keeping what it prints
 * as (bool, enum); T itself when nothing changes. */
struct type *ty_resize(struct arena *a, const struct type *t, int size,
		       bool is_signed);
/* LEVELS (1 or more) pointers to TO: TO *, TO **, ...; a pointer to
 * void or to an unknown type (TO NULL) points to nothing. */
struct type *ty_ptr_chain(struct arena *a, struct type *to, int levels);
/* The index of field NAME of record T, or -1. */
int ty_field(const struct type *t, const char *name);
struct type *ty_str(struct arena *a, int size);
/* A tuple value of N elements, laid out as bpftrace 0.17 lays it out
 * (as a C struct: integers at their own alignment, strings and byte
 * arrays at any byte, other values at 8), its size (sizeof) rounded up
 * to its largest alignment. */
struct type *ty_tuple(struct arena *a, struct type **elem, int n);
/* The same elements, each in slots of 8 bytes: several map keys. */
struct type *ty_tuple_slots(struct arena *a, struct type **elem, int n);
/* Element I of tuple T can be written and read as a value of its own:
 * at an 8-byte boundary, with the bytes of its slot to itself. */
bool ty_elem_whole(const struct type *t, int i);
struct type *ty_tstamp(struct arena *a, const char *fmt);
/* A buffer of at most SIZE bytes (buf()). */
struct type *ty_buf(struct arena *a, int size);
/* Member NAME of type T (NULL or void: unreadable) at bit BIT, BITS
 * wide for a bitfield (else 0), added to struct ST, whose member array
 * has room for *CAP (doubled as needed, in A). */
struct smember *ty_add_member(struct arena *a, struct type *st, int *cap,
			      const char *name, struct type *t, int bit,
			      int bits);
struct type *ty_kstack(struct arena *a, enum stack_mode mode, int depth,
		       bool user);
/* OF[N], as C lays it out. */
struct type *ty_array(struct arena *a, struct type *of, int n);
/* What ++, --, += 1 move a value of T by: the size of what a pointer
 * points to, 1 for integers. */
static inline int ty_step(const struct type *t)
{
	return t->kind == TY_PTR && t->pointee && t->pointee->size ?
	       t->pointee->size : 1;
}
/* The alignment C gives T in a struct (x86-64). */
int ty_align(const struct type *t);
/* Values held in one 64-bit word in registers, variables, keys and
 * records: integers, kernel pointers, stacks, symbols, user ids and
 * error numbers. */
static inline bool ty_is_word(const struct type *t)
{
	return t->kind == TY_INT || t->kind == TY_PTR ||
	       t->kind == TY_KSTACK || t->kind == TY_KSYM ||
	       t->kind == TY_USERNAME || t->kind == TY_STRERROR;
}
/* Bytes one value of T takes in a map key, map value or event record
 * (integers widen to 8 bytes there). */
int ty_slot_size(const struct type *t);
bool ty_equal(const struct type *a, const struct type *b);
/* The usual arithmetic conversions of C for a binary operator. */
struct type *ty_arith(const struct type *a, const struct type *b);
/* Integer promotion of a single operand. */
struct type *ty_promote(const struct type *a);
/* Human-readable name, e.g. "uint32", "string[64]", "(int64, string[16])"
 * (static buffer rotation: valid for a few calls). */
const char *type_name(const struct type *t);
/* An integer type's name to the type: bpftrace's ("uint32"), the
 * kernel's ("u32", "__s64"), <stdint.h>'s and <stddef.h>'s ("uint8_t",
 * "size_t", "pid_t") and C's words in any order ("unsigned long int",
 * "long long"); NULL if it is none of these. */
struct type *ty_by_name(const char *name);

#endif
