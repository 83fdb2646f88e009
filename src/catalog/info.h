/* info.h - probing the kernel's tracing features (--info). */
#ifndef SONDE_INFO_H
#define SONDE_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SONDE_VERSION "0.1.0"

/* Print "name: yes|no" lines; returns 0. */
int info_print(FILE *f);

/* Does the kernel attach kprobe_multi programs (Linux 5.18+ built with
 * CONFIG_FPROBE)?  Loading one is not enough (Debian's 6.1 loads them
 * and refuses the link): this attaches a two-instruction one to
 * vfs_read.  Needs root. */
bool info_kprobe_multi(void);
/* May KPROBE programs write the registers of their context, which the
 * kernel then lets only uprobes run (Linux 7.0: a uprobe program can
 * make the function return at once)?  Asked by loading one. */
bool info_uprobe_write_ctx(void);
/* Whether a uprobe's program may sleep (Linux 6.0): str() then faults
 * in a page the process has not touched. */
bool info_sleepable_uprobe(void);
/* Whether this kernel loads fentry programs (BPF trampolines). */
bool info_fentry(void);

/* The capabilities tracing needs that this process lacks, as text
 * ("CAP_BPF", "CAP_PERFMON", "CAP_BPF and CAP_PERFMON"), or NULL when it
 * has them (or CAP_SYS_ADMIN, which older kernels ask for instead). */
const char *info_missing_caps(void);

/* uprobe_multi links (Linux 6.6) are newer than the uapi headers and
 * the libbpf 1.1 of Debian 12: their attach type and return flag, as
 * the kernel numbers them. */
#define INFO_TRACE_UPROBE_MULTI 48
#define INFO_F_UPROBE_MULTI_RETURN 1u

/* BPF_LINK_CREATE of program PROG (loaded with expected attach type
 * INFO_TRACE_UPROBE_MULTI) on the CNT file OFFSETS of PATH, returns
 * when RET, only in process PID when PID > 0, each offset with its
 * cookie of COOKIES (NULL: none): the link fd, or -errno. */
int info_uprobe_multi_link(int prog, const char *path, const uint64_t *offsets,
			   const uint64_t *cookies, uint32_t cnt, bool ret,
			   int pid);

/* BPF_RAW_TRACEPOINT_OPEN of program PROG (a RAW_TRACEPOINT one) on
 * the tracepoint NAME, with COOKIE (0: none; others need Linux 6.10):
 * the link fd, or -errno. */
int info_rawtp_open(int prog, const char *name, uint64_t cookie);
/* Do raw tracepoint links carry a cookie that bpf_get_attach_cookie()
 * reads (Linux 6.10)?  Needs root. */
bool info_rawtp_cookie(void);

/* Does the kernel attach uprobe_multi programs (Linux 6.6+)?  Asked as
 * libbpf asks: a link on the directory "/" fails with EBADF only where
 * the kernel knows the attach type.  Needs root. */
bool info_uprobe_multi(void);

#endif
