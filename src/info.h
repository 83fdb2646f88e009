/* info.h - probing the kernel's tracing features (--info). */
#ifndef SONDE_INFO_H
#define SONDE_INFO_H

#include <stdbool.h>
#include <stdio.h>

#define SONDE_VERSION "0.1.0"

/* Print "name: yes|no" lines; returns 0. */
int info_print(FILE *f);

/* Does the kernel attach kprobe_multi programs (Linux 5.18+ built with
 * CONFIG_FPROBE)?  Loading one is not enough (Debian's 6.1 loads them
 * and refuses the link): this attaches a two-instruction one to
 * vfs_read.  Needs root. */
bool info_kprobe_multi(void);

/* The capabilities tracing needs that this process lacks, as text
 * ("CAP_BPF", "CAP_PERFMON", "CAP_BPF and CAP_PERFMON"), or NULL when it
 * has them (or CAP_SYS_ADMIN, which older kernels ask for instead). */
const char *info_missing_caps(void);

#endif
