/* btf.h - kernel types from BTF (/sys/kernel/btf/vmlinux), loaded once
 * when a script first needs one: struct members, pointers, integers. */
#ifndef SONDE_BTF_H
#define SONDE_BTF_H

#include <stdbool.h>
#include <stdint.h>
#include "base/compiler.h"
#include "base/types.h"

struct btf;

/* The kernel's BTF, loaded on first use; NULL (and *WHY) if absent. */
struct btf *btf_kernel(struct compiler *c, const char **why);
/* Whether the kernel has BTF, without loading it (one access()). */
bool btf_available(struct compiler *c);
/* The value of the kernel's enumerator NAME (TCP_ESTABLISHED,
 * BPF_MAP_TYPE_HASH); false if BTF has none by that name.  The first
 * call reads every enum of the kernel into a table. */
bool btf_enum_value(struct compiler *c, const char *name, int64_t *value);
/* The enumerators of the kernel's enum NAME ("enum cpu_usage_stat"),
 * and of the enum that has enumerator NAME; NULL if there is none. */
const struct enum_def *btf_enum_def(struct compiler *c, const char *name);
const struct enum_def *btf_enum_of(struct compiler *c, const char *name);
/* sonde's type for BTF type ID (typedefs and qualifiers resolved):
 * integers and enums, pointers (to structs, integers, void), structs
 * and unions (members looked up on demand), char arrays as strings.
 * NULL for types sonde cannot represent. */
struct type *btf_type(struct compiler *c, int id);
/* "struct task_struct", "union X", "task_struct", or a typedef. */
struct type *btf_type_by_name(struct compiler *c, const char *name);

/* Member NAME of struct/union ST (anonymous members searched too). */
struct btf_member_info {
	int offset;		/* bytes from the start of ST */
	int bit_shift;		/* bitfields: bits to shift right after */
	int bit_size;		/*   reading 8 bytes at offset; 0 if none */
	struct type *ty;
};
int btf_member(struct compiler *c, const struct type *st, const char *name,
	       struct btf_member_info *out);

/* Fill the member list of kernel struct ST (TY_STRUCT with a BTF id),
 * for a struct used as a value (copied, printed): names, bit offsets,
 * bitfield widths, types (NULL for members sonde cannot read); the
 * members of anonymous members in their place.  0 or -errno. */
int btf_struct_layout(struct compiler *c, struct type *st);

/* The arguments of raw tracepoint NAME, from the BTF typedef
 * btf_trace_NAME (a pointer to a function whose first parameter is the
 * probe's private data).  Returns the number of arguments (without that
 * first one) and their names and types, or -errno; *ID is the BTF id a
 * tp_btf program attaches to. */
int btf_tp_args(struct compiler *c, const char *name, const char ***names,
		struct type ***types, int *id);

/* Kernel function NAME: its parameters (names, types), its return
 * type (*RET, NULL when void or unrepresentable) and its BTF id (for
 * fentry/fexit).  Returns the number of parameters or -errno. */
int btf_func_args(struct compiler *c, const char *name, const char ***names,
		  struct type ***types, struct type **ret, int *id);

/* The BTF id of kernel (per-CPU) variable NAME, or -ENOENT. */
int btf_var_id(struct compiler *c, const char *name);

/* Call FN(ARG, NAME) for each raw tracepoint BTF names (the typedefs
 * btf_trace_NAME) that matches GLOB, in BTF's order; with C NULL, from
 * a BTF loaded for the call (sonde -l).  Returns 0, or -errno. */
int btf_raw_tracepoints(struct compiler *c, const char *glob,
			void (*fn)(void *arg, const char *name), void *arg);
/* The same for the raw tracepoints of kernel module MOD, from its BTF
 * (/sys/kernel/btf/MOD): 0, or -errno (-ENOENT: no such module). */
int btf_module_raw_tracepoints(struct compiler *c, const char *mod,
			       const char *glob,
			       void (*fn)(void *arg, const char *name),
			       void *arg);

void btf_release(struct compiler *c);

/* -l 'struct GLOB' (or union, enum): the kernel's types of that kind
 * whose name matches, one per line; with VERBOSE their C definitions.
 * 0, or 1 after saying why not. */
int btf_list_types(const char *pattern, bool verbose);
/* -l 'fentry:GLOB': the kernel's functions in BTF, sorted, each once,
 * printed as KIND:NAME when the full name matches PATTERN (NULL: all)
 * and KEEP (if not NULL) takes NAME; with VERBOSE their parameters
 * ("    struct file * file") and, with RETVAL, the return type
 * ("    ssize_t retval").  0, or 1 after saying why not. */
int btf_list_funcs(const char *kind, const char *pattern, bool verbose,
		   bool retval, bool (*keep)(void *arg, const char *name),
		   void *arg);

#endif
