/* kinds.h - the registry's rows (probe.c), one struct probe_ops per
 * kind, defined in the file of its family; private to probe/. */
#ifndef SONDE_KINDS_H
#define SONDE_KINDS_H

#include "probe/probe.h"

/* special.c */
extern const struct probe_ops probe_begin_ops, probe_end_ops, probe_iter_ops;
/* A program run by BPF_PROG_TEST_RUN: a raw tracepoint's, run once. */
void probe_load_once(const struct probe_spec *ps, struct probe_load *pl);
int probe_run_once(const struct probe_spec *ps, int fd,
		   void (*drain)(void *arg), void *arg, const char **what);
/* self.c */
extern const struct probe_ops probe_self_ops, probe_test_ops,
	probe_bench_ops;
/* perf.c */
extern const struct probe_ops probe_interval_ops, probe_profile_ops,
	probe_software_ops, probe_hardware_ops;
/* watch.c */
extern const struct probe_ops probe_watchpoint_ops, probe_asyncwatch_ops,
	probe_watcharg_ops, probe_watchsetup_ops;
/* tracepoint.c */
extern const struct probe_ops probe_tracepoint_ops, probe_rawtp_ops;
/* tpmerge.c: a tracepoint wildcard's events as few programs (the
 * merge of probe_tracepoint_ops), and the attachment of a merged set
 * of raw tracepoints (ps->multi: their names) */
struct probe_spec *tp_merge(struct compiler *c, struct probe_spec *v, int n,
			    unsigned need, const char *text);
int tp_raw_attach(const struct probe_spec *ps, int fd, struct probe_env *env);
/* kfunc.c */
extern const struct probe_ops probe_kprobe_ops, probe_kretprobe_ops,
	probe_fentry_ops, probe_fexit_ops, probe_lsm_ops;
/* bpfprog.c: fentry:bpf[:ID]:NAME, fexit:bpf... */
int probe_bpf_expand(struct probe_exp *x);
/* -l 'fentry:bpf:...': the functions of the running programs, as
 * KIND:bpf:ID:NAME, those matching PATTERN. */
void probe_bpf_list(const char *kind, const char *pattern);
/* uzip.c: uprobe:ARCHIVE!/LIBRARY:FUNC */
int probe_zip_expand(struct probe_exp *x);
/* uprobe.c */
extern const struct probe_ops probe_uprobe_ops, probe_uretprobe_ops,
	probe_usdt_ops;
/* ulist.c: -l of the files' functions and usdt notes */
int ulist_uprobe(const struct probe_ops *ops, const char *pattern,
		 bool verbose, int pid);
int ulist_usdt(const struct probe_ops *ops, const char *pattern,
	       bool verbose, int pid);


#endif
