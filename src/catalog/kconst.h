/* kconst.h - the kernel's integer constants sonde knows without kernel
 * headers, and where the running kernel's headers are when installed. */
#ifndef SONDE_KCONST_H
#define SONDE_KCONST_H

#include <stdbool.h>
#include <stdint.h>
#include "base/compiler.h"

/* The value of constant NAME: first from the list of constants only the
 * kernel's own headers define (AF_INET, TASK_RUNNING, MSG_DONTWAIT),
 * then from the #defines of the UAPI headers sonde was built with
 * (EPERM, O_CREAT, SIGKILL: tools/gen-kconst). */
bool kconst_lookup(const char *name, int64_t *value);
/* Whether the hand-written list is in strcmp order (a unit test asks). */
bool kconst_sorted(void);

/* The include directories of the running kernel's headers, in search
 * order, if installed: under SRC (BPFTRACE_KERNEL_SOURCE) when given,
 * else /lib/modules/RELEASE/{source,build} or
 * /usr/src/linux-headers-RELEASE (and its Debian "-common" half).
 * Returns how many, in *DIRS (arena). */
int kconst_kernel_dirs(struct compiler *c, const char *src,
		       const char ***dirs);

/* The name of the UAPI constant of VALUE whose name starts with
 * PREFIX ("__NR_": a system call of this architecture), the prefix
 * left out, into BUF; false when none has it. */
bool kconst_name(const char *prefix, int64_t value, char *buf, size_t cap);

#endif
