/* dparse.c - the D front end's grammar: a D program's clauses,
 * declarations and pragmas into lang/'s AST.
 *
 *   program  := item*
 *   item     := clause | type-def | inline | variable-decl
 *             | translator | provider
 *   clause   := desc (',' desc)* [ '/' expr '/' ] [ '{' stmts '}' ]
 *   inline   := 'inline' type NAME '=' expr ';'
 *
 * Statements and expressions are C's, read by parse.c in D mode
 * (p->d: NAME[K, ...] is an associative array); D's names (self->x,
 * this->x, globals, execname, probefunc, ...) are lowered onto sonde's
 * maps, variables and builtins after the parse (dlower.c).  Each
 * description becomes sonde attach points through the provider map
 * (dprobe.c); its N_ATTACH keeps the D text in tyname. */
#include "lang/lex_int.h"
#include "lang/parse_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lang/dparse.h"
#include "lang/dprobe.h"

/* Words that start a D variable declaration at the top level ("int
 * x;", "self uint64_t ts;", "string names[int];"); sonde types D's
 * variables by their first assignment, so the declaration is read
 * and dropped. */
static const char *const decl_words[] = {
	"self", "this", "int", "char", "short", "long", "unsigned", "signed",
	"string", "float", "double", "void", "int8_t", "int16_t", "int32_t",
	"int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "intptr_t",
	"uintptr_t", "size_t", "ssize_t", "uint_t", "uchar_t", "ushort_t",
	"ulong_t", "u_longlong_t", "longlong_t", "pid_t", "id_t", "uid_t",
	"gid_t", "processorid_t", "hrtime_t", "caddr_t", "boolean_t",
	"bool", "time_t", "off_t", "dev_t", "ino_t",
};

/* What D programs find defined without asking (DTrace's own D
 * library, /usr/lib/dtrace: the Solaris type names, the signal and
 * errno constants scripts use most), read before the program. */
static const char prelude[] =
	"typedef unsigned char uchar_t;\n"
	"typedef unsigned short ushort_t;\n"
	"typedef unsigned int uint_t;\n"
	"typedef unsigned long ulong_t;\n"
	"typedef unsigned long long u_longlong_t;\n"
	"typedef long long longlong_t;\n"
	"typedef long long offset_t;\n"
	"typedef unsigned long long hrtime_t;\n"
	"typedef int processorid_t;\n"
	"typedef int psetid_t;\n"
	"typedef int chipid_t;\n"
	"typedef int lgrp_id_t;\n"
	"typedef int id_t;\n"
	"typedef int boolean_t;\n"
	"typedef unsigned long uintptr_t;\n"
	"typedef long intptr_t;\n"
	"typedef char *caddr_t;\n"
	"inline int SIGHUP = 1; inline int SIGINT = 2; inline int SIGQUIT = 3;\n"
	"inline int SIGILL = 4; inline int SIGTRAP = 5; inline int SIGABRT = 6;\n"
	"inline int SIGBUS = 7; inline int SIGFPE = 8; inline int SIGKILL = 9;\n"
	"inline int SIGUSR1 = 10; inline int SIGSEGV = 11; inline int SIGUSR2 = 12;\n"
	"inline int SIGPIPE = 13; inline int SIGALRM = 14; inline int SIGTERM = 15;\n"
	"inline int SIGCHLD = 17; inline int SIGCONT = 18; inline int SIGSTOP = 19;\n"
	"inline int SIGTSTP = 20;\n"
	"inline int EPERM = 1; inline int ENOENT = 2; inline int ESRCH = 3;\n"
	"inline int EINTR = 4; inline int EIO = 5; inline int EBADF = 9;\n"
	"inline int EAGAIN = 11; inline int ENOMEM = 12; inline int EACCES = 13;\n"
	"inline int EFAULT = 14; inline int EBUSY = 16; inline int EEXIST = 17;\n"
	"inline int DTRACEFLT_UNKNOWN = 0; inline int DTRACEFLT_BADADDR = 1;\n"
	"inline int DTRACEFLT_BADALIGN = 2; inline int DTRACEFLT_ILLOP = 3;\n"
	"inline int DTRACEFLT_DIVZERO = 4; inline int DTRACEFLT_NOSCRATCH = 5;\n"
	"inline int DTRACEFLT_KPRIV = 6; inline int DTRACEFLT_UPRIV = 7;\n"
	"inline int DTRACEFLT_TUPOFLOW = 8; inline int DTRACEFLT_BADSTACK = 9;\n"
	"inline int ENOTDIR = 20; inline int EISDIR = 21; inline int EINVAL = 22;\n"
	"inline int ENOSPC = 28; inline int EPIPE = 32; inline int ENOSYS = 38;\n"
	/* proc(4)'s views of a thread, translated from Linux's task */
	"typedef long time_t;\n"
	"typedef struct timestruc { time_t tv_sec; long tv_nsec; } timestruc_t;\n"
	"typedef struct lwpsinfo { int pr_flag; int pr_lwpid; uintptr_t pr_addr;\n"
	" uintptr_t pr_wchan; char pr_stype; char pr_state; char pr_sname;\n"
	" char pr_nice; short pr_syscall; char pr_oldpri; char pr_cpu;\n"
	" int pr_pri; ushort_t pr_pctcpu; ushort_t pr_pad; timestruc_t pr_start;\n"
	" timestruc_t pr_time; char pr_clname[8]; char pr_name[16];\n"
	" processorid_t pr_onpro; processorid_t pr_bindpro; psetid_t pr_bindpset;\n"
	" int pr_lgrp; int pr_filler[4]; } lwpsinfo_t;\n"
	"typedef struct psinfo { int pr_flag; int pr_nlwp; int pr_pid; int pr_ppid;\n"
	" int pr_pgid; int pr_sid; unsigned int pr_uid; unsigned int pr_euid;\n"
	" unsigned int pr_gid; unsigned int pr_egid; uintptr_t pr_addr;\n"
	" unsigned long pr_size; unsigned long pr_rssize; unsigned long pr_pad1;\n"
	" uintptr_t pr_ttydev; ushort_t pr_pctcpu; ushort_t pr_pctmem;\n"
	" timestruc_t pr_start; timestruc_t pr_time; timestruc_t pr_ctime;\n"
	" char pr_fname[16]; char pr_psargs[80]; int pr_wstat; int pr_argc;\n"
	" uintptr_t pr_argv; uintptr_t pr_envp; char pr_dmodel; char pr_pad2[3];\n"
	" int pr_taskid; int pr_projid; int pr_nzomb; int pr_poolid; int pr_zoneid;\n"
	" int pr_contract; int pr_filler[1]; lwpsinfo_t pr_lwp; } psinfo_t;\n"
	"typedef struct cpuinfo { processorid_t cpu_id; psetid_t cpu_pset;\n"
	" chipid_t cpu_chip; lgrp_id_t cpu_lgrp; } cpuinfo_t;\n"
	"inline char PR_MODEL_ILP32 = 1; inline char PR_MODEL_LP64 = 2;\n"
	"inline char SSLEEP = 1; inline char SRUN = 2; inline char SZOMB = 3;\n"
	"inline char SSTOP = 4; inline char SIDL = 5; inline char SONPROC = 6;\n"
	"inline char SWAIT = 7; inline int PR_STOPPED = 1;\n"
	"translator psinfo_t < struct task_struct *T > {\n"
	" pr_nlwp = T->signal->nr_threads; pr_pid = T->tgid;\n"
	" pr_ppid = T->real_parent->tgid;\n"
	" pr_pgid = ((struct upid *)((uintptr_t)T->signal->pids[2] +\n"
	"   offsetof(struct pid, numbers)))->nr;\n"
	" pr_sid = ((struct upid *)((uintptr_t)T->signal->pids[3] +\n"
	"   offsetof(struct pid, numbers)))->nr;\n"
	" pr_uid = T->cred->uid.val; pr_euid = T->cred->euid.val;\n"
	" pr_gid = T->cred->gid.val; pr_egid = T->cred->egid.val;\n"
	" pr_addr = (uintptr_t)T;\n"
	" pr_ttydev = T->signal->tty ? (uintptr_t)T->signal->tty : -1;\n"
	" pr_fname = T->comm; pr_wstat = 0; pr_dmodel = PR_MODEL_LP64;\n"
	" pr_taskid = 0; pr_projid = 0; pr_nzomb = 0; pr_poolid = 0;\n"
	" pr_zoneid = 0; pr_contract = 0; pr_flag = 0;\n"
	" pr_psargs = T != curthread || !T->mm ? stringof(T->comm) :\n"
	"   __psargs(T->mm->arg_start, T->mm->arg_end);\n"

	"};\n"
	"translator lwpsinfo_t < struct task_struct *T > {\n"
	" pr_flag = (T->__state & 4) ? PR_STOPPED : 0;\n"
	" pr_lwpid = T->pid; pr_addr = (uintptr_t)T; pr_wchan = 0; pr_stype = 0;\n"
	" pr_state = (T->__state & 3) ? SSLEEP : (T->__state & 12) ? SSTOP :\n"
	"   (T->exit_state & 48) ? SZOMB : SRUN;\n"
	" pr_sname = (T->__state & 3) ? 'S' : (T->__state & 12) ? 'T' :\n"
	"   (T->exit_state & 48) ? 'Z' : 'R';\n"
	" pr_pri = T->prio; pr_name = T->comm; pr_onpro = T->thread_info.cpu;\n"
	"};\n"
	"translator cpuinfo_t < struct task_struct *T > {\n"
	" cpu_id = T->thread_info.cpu; cpu_pset = -1; cpu_chip = 0; cpu_lgrp = 0;\n"
	"};\n"
	"inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);\n"
	/* dtrace-utils' execargs: the process's arguments */
	"inline string execargs = curpsinfo->pr_psargs;\n"
	/* io's bufinfo_t, devinfo_t and fileinfo_t, from a block request */
	"typedef struct bufinfo { int b_flags; unsigned long b_bcount;\n"
	" caddr_t b_addr; unsigned long long b_lblkno; unsigned long long b_blkno;\n"
	" unsigned long b_resid; unsigned long b_bufsize; caddr_t b_iodone;\n"
	" int b_error; unsigned long b_edev; } bufinfo_t;\n"
	"typedef struct devinfo { int dev_major; int dev_minor; int dev_instance;\n"
	" char dev_name[32]; char dev_statname[32]; char dev_pathname[40]; } devinfo_t;\n"
	"typedef struct fileinfo { char fi_name[8]; char fi_dirname[8];\n"
	" char fi_pathname[8]; long long fi_offset; char fi_fs[8]; char fi_mount[8];\n"
	" int fi_oflags; } fileinfo_t;\n"
	"inline int B_BUSY = 0x1; inline int B_DONE = 0x2; inline int B_ERROR = 0x4;\n"
	"inline int B_PAGEIO = 0x10; inline int B_PHYS = 0x20; inline int B_READ = 0x40;\n"
	"inline int B_WRITE = 0x100; inline int B_ASYNC = 0x400;\n"
	"translator bufinfo_t < struct request *R > {\n"
	" b_flags = (R->cmd_flags & 0xff) == 1 ? B_WRITE : B_READ;\n"
	" b_bcount = R->__data_len; b_bufsize = R->__data_len;\n"
	" b_blkno = R->__sector; b_lblkno = R->__sector; b_resid = 0;\n"
	" b_addr = 0; b_iodone = 0; b_error = 0;\n"
	" b_edev = (unsigned long)R->q->disk->major << 20 | R->q->disk->first_minor;\n"
	"};\n"
	"translator devinfo_t < struct request *R > {\n"
	" dev_major = R->q->disk->major; dev_minor = R->q->disk->first_minor;\n"
	" dev_instance = 0; dev_name = stringof(R->q->disk->disk_name);\n"
	" dev_statname = stringof(R->q->disk->disk_name);\n"
	" dev_pathname = strjoin(\"/dev/\", stringof(R->q->disk->disk_name));\n"
	"};\n"
	"translator fileinfo_t < struct request *R > {\n"
	" fi_name = \"<none>\"; fi_dirname = \"<none>\"; fi_pathname = \"<none>\";\n"
	" fi_offset = 0; fi_fs = \"<none>\"; fi_mount = \"<none>\"; fi_oflags = 0;\n"
	"};\n"
	"inline bufinfo_t *__d_args_io_start_0 = xlate <bufinfo_t *> ((struct request *)arg0);\n"
	"inline devinfo_t *__d_args_io_start_1 = xlate <devinfo_t *> ((struct request *)arg0);\n"
	"inline fileinfo_t *__d_args_io_start_2 = xlate <fileinfo_t *> ((struct request *)arg0);\n"
	"inline bufinfo_t *__d_args_io_done_0 = xlate <bufinfo_t *> ((struct request *)arg0);\n"
	"inline devinfo_t *__d_args_io_done_1 = xlate <devinfo_t *> ((struct request *)arg0);\n"
	"inline fileinfo_t *__d_args_io_done_2 = xlate <fileinfo_t *> ((struct request *)arg0);\n"
	/* the args[] of proc and sched probes (lang/dlower.c) */
	/* uregs[] indexes (dtrace's regs.d for x86-64: the pt_regs
	 * order, then the 32-bit names; lang/dlower.c reads them) */
	"inline int R_R15 = 0; inline int R_R14 = 1; inline int R_R13 = 2;\n"
	"inline int R_R12 = 3; inline int R_RBP = 4; inline int R_RBX = 5;\n"
	"inline int R_R11 = 6; inline int R_R10 = 7; inline int R_R9 = 8;\n"
	"inline int R_R8 = 9; inline int R_RAX = 10; inline int R_RCX = 11;\n"
	"inline int R_RDX = 12; inline int R_RSI = 13; inline int R_RDI = 14;\n"
	"inline int R_ERR = 15; inline int R_RIP = 16; inline int R_CS = 17;\n"
	"inline int R_RFL = 18; inline int R_RSP = 19; inline int R_SS = 20;\n"
	"inline int R_DS = 21; inline int R_ES = 22; inline int R_FS = 23;\n"
	"inline int R_GS = 24; inline int R_TRAPNO = 25;\n"
	"inline int R_EBX = 25; inline int R_ECX = 26; inline int R_EDX = 27;\n"
	"inline int R_ESI = 28; inline int R_EDI = 29; inline int R_EBP = 30;\n"
	"inline int R_EAX = 31; inline int R_EIP = 37; inline int R_EFL = 39;\n"
	"inline int R_ESP = 40; inline int R_PC = 37; inline int R_FP = 30;\n"
	"inline int R_SP = 40; inline int R_PS = 39; inline int R_R0 = 31;\n"
	"inline int R_R1 = 25;\n"
	"inline int CLD_EXITED = 1; inline int CLD_KILLED = 2;\n"
	"inline int CLD_DUMPED = 3; inline int CLD_TRAPPED = 4;\n"
	"inline int CLD_STOPPED = 5; inline int CLD_CONTINUED = 6;\n"
	"inline string __d_args_proc_exec_0 = copyinstr((uintptr_t)args->filename);\n"
	"inline int __d_args_proc_exec_failure_0 = args->ret;\n"
	/* when a probe whose tracepoint fires more often fires: an
	 * exec that failed; the last thread of a process; a signal the
	 * kernel dropped (signal_generate's result TRACE_SIGNAL_IGNORED) */
	"inline int __d_when_proc_exec_failure = args->ret != 0;\n"
	"inline int __d_when_proc_exit = curthread->signal->live.counter == 0;\n"
	"inline int __d_when_proc_signal_discard = arg4 == 1;\n"
	"inline lwpsinfo_t *__d_args_proc_signal_discard_0 =\n"
	" xlate <lwpsinfo_t *> ((struct task_struct *)arg2);\n"
	"inline psinfo_t *__d_args_proc_signal_discard_1 =\n"
	" xlate <psinfo_t *> ((struct task_struct *)arg2);\n"
	"inline int __d_args_proc_signal_discard_2 = (int)arg0;\n"
	"inline int __d_args_proc_exit_0 = (curthread->exit_code & 0x7f) == 0 ?\n"
	" CLD_EXITED : (curthread->exit_code & 0x80) ? CLD_DUMPED : CLD_KILLED;\n"
	"inline psinfo_t *__d_args_proc_create_0 =\n"
	" xlate <psinfo_t *> ((struct task_struct *)arg1);\n"
	"inline lwpsinfo_t *__d_args_proc_lwp_create_0 =\n"
	" xlate <lwpsinfo_t *> ((struct task_struct *)arg1);\n"
	"inline psinfo_t *__d_args_proc_lwp_create_1 =\n"
	" xlate <psinfo_t *> ((struct task_struct *)arg1);\n"
	"inline lwpsinfo_t *__d_args_proc_signal_send_0 =\n"
	" xlate <lwpsinfo_t *> ((struct task_struct *)arg2);\n"
	"inline psinfo_t *__d_args_proc_signal_send_1 =\n"
	" xlate <psinfo_t *> ((struct task_struct *)arg2);\n"
	"inline int __d_args_proc_signal_send_2 = (int)arg0;\n"
	"inline int __d_args_proc_signal_handle_0 = (int)arg0;\n"
	"inline uintptr_t __d_args_proc_signal_handle_1 = arg1;\n"
	"inline uintptr_t __d_args_proc_signal_handle_2 =\n"
	" (uintptr_t)((struct k_sigaction *)arg2)->sa.sa_handler;\n"
	"inline lwpsinfo_t *__d_args_sched_off_cpu_0 =\n"
	" xlate <lwpsinfo_t *> ((struct task_struct *)arg2);\n"
	"inline psinfo_t *__d_args_sched_off_cpu_1 =\n"
	" xlate <psinfo_t *> ((struct task_struct *)arg2);\n"
	"inline lwpsinfo_t *__d_args_sched_wakeup_0 =\n"
	" xlate <lwpsinfo_t *> ((struct task_struct *)arg0);\n"
	"inline psinfo_t *__d_args_sched_wakeup_1 =\n"
	" xlate <psinfo_t *> ((struct task_struct *)arg0);\n"
	"inline lwpsinfo_t *__d_args_sched_change_pri_0 =\n"
	" xlate <lwpsinfo_t *> ((struct task_struct *)arg0);\n"
	"inline psinfo_t *__d_args_sched_change_pri_1 =\n"
	" xlate <psinfo_t *> ((struct task_struct *)arg0);\n"
	"inline int __d_args_sched_change_pri_2 = arg1 ?\n"
	" ((struct task_struct *)arg1)->prio : ((struct task_struct *)arg0)->normal_prio;\n"
	"inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);\n"
	"inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (curthread);\n"
	/* Solaris' processor set, chip and locality group of the CPU */
	"inline psetid_t pset = curcpu->cpu_pset;\n"
	"inline chipid_t chip = curcpu->cpu_chip;\n"
	"inline lgrp_id_t lgrp = curcpu->cpu_lgrp;\n";


static bool decl_word(const char *w)
{
	for (size_t i = 0; i < sizeof(decl_words) / sizeof(decl_words[0]); i++)
		if (!strcmp(w, decl_words[i]))
			return true;
	return false;
}

/* Skip to the ';' that ends the item (nested braces and all). */
static void skip_item(struct parser *p, struct token first)
{
	int depth = 0;

	for (;;) {
		struct token t = take(p);

		if (t.kind == T_EOF)
			diag_fatal(p->diag, first.loc, E_SYNTAX,
				   "';' expected to end the declaration");
		if (t.kind == T_LBRACE)
			depth++;
		else if (t.kind == T_RBRACE)
			depth--;
		else if (t.kind == T_SEMI && depth <= 0)
			return;
	}
}

/* The spelling of M's type, to compare two declarations of a name. */
static const char *spelling(struct parser *p, const struct node *m)
{
	const char *s = arena_printf(p->arena, "%s%.*s", m->tyname,
				     m->tyname_ptr, "********");

	for (int i = 0; i < m->nargs; i++)
		s = arena_printf(p->arena, "%s[%llu]", s,
				 (unsigned long long)m->args[i]->ival);
	return m->ival & DV_ASSOC ? arena_printf(p->arena, "%s[]", s) : s;
}

/* Record declarator M (CLASS: "", "self->" or "$this->") in
 * prog->dvars. */
static void record_var(struct parser *p, struct program *prog,
		       struct node *m, const char *class)
{
	static const char *const not_int[] = {
		"float", "double", "long double", "void", "caddr_t", "string",
	};
	bool assoc = m->ival & DV_ASSOC, integer = true;
	const struct node *t = m;

	/* through the script's typedefs to the type they name (an
	 * associative array's keys are not its elements' type) */
	for (int depth = 0; t && depth < 16; depth++) {
		integer = integer && !t->tyname_ptr &&
			  (!t->nargs || (assoc && t == m)) &&
			  !(t->a && t->a->kind == N_STRUCTDEF) &&
			  strncmp(t->tyname, "struct ", 7) &&
			  strncmp(t->tyname, "union ", 6);
		for (size_t i = 0; i < ARRAY_SIZE(not_int); i++)
			integer = integer && strcmp(t->tyname, not_int[i]);
		t = strmap_get(&p->typedefs, t->tyname);
	}
	m->ival |= integer ? (assoc ? DV_INTVAL : DV_INT) : 0;
	m->name = arena_printf(p->arena, "%s%s", class, m->name);
	for (struct node *o = prog->dvars; o; o = o->next)
		if (!strcmp(o->name, m->name) &&
		    strcmp(spelling(p, o), spelling(p, m)))
			diag_fatal_d(p->diag, m->loc, E_SCOPE, "D_DECL_IDRED",
				     "identifier redeclared: %s",
				     m->name + strlen(class));
	m->next = prog->dvars;
	prog->dvars = m;
}

/* A top-level variable declaration, from its first word FIRST to its
 * ';', as C reads one (lang/decl.c's specifiers and declarators) with
 * D's storage classes (self, this, extern) and associative arrays
 * ("string names[int];").  Each name goes into prog->dvars with its
 * type (lang/dlower.c converts what an integer gets; sema gives the
 * others their type from the start), a struct, union or enum defined
 * there into the type list at *TTAIL; "extern" declares a kernel
 * variable, whose type sonde has from BTF. */
static void var_declaration(struct parser *p, struct program *prog,
			    struct token first, struct node ***ttail)
{
	const char *class = !strcmp(first.text, "self") ? "self->" :
			    !strcmp(first.text, "this") ? "$this->" : "";
	bool ext = !strcmp(first.text, "extern");
	struct node spec;
	int n = 0;

	if (!*class) {	/* the word is the type's: give it back */
		p->tok = first;
		p->tok.kind = !strcmp(first.text, "struct") ? T_STRUCT :
			      !strcmp(first.text, "union") ? T_UNION :
			      !strcmp(first.text, "enum") ? T_ENUM : T_IDENT;
		p->have_tok = 1;
	} else if (peek(p)->kind == T_IDENT &&
		   (!strcmp(peek(p)->text, "self") ||
		    !strcmp(peek(p)->text, "this"))) {
		diag_fatal_d(p->diag, peek(p)->loc, E_SYNTAX, "D_DECL_CLASS",
			     "only one storage class (self or this) may be given");
	}
	memset(&spec, 0, sizeof(spec));
	spec.loc = peek(p)->loc;
	parse_specifiers(p, &spec);
	if (peek(p)->kind == T_STRUCT || peek(p)->kind == T_UNION ||
	    peek(p)->kind == T_ENUM || parse_is_type(p, peek(p)))
		diag_fatal_d(p->diag, peek(p)->loc, E_SYNTAX, "D_DECL_COMBO",
			     "invalid type combination");
	if (spec.a) {	/* struct s { ... } x; defines struct s too */
		**ttail = spec.a;
		*ttail = &spec.a->next;
	}
	/* "self x;", "self x, y;", "extern x;": names of implicit type
	 * int, as in old C */
	if ((peek(p)->kind == T_SEMI || peek(p)->kind == T_COMMA) &&
	    (*class || ext) && !spec.a && !strchr(spec.tyname, ' ') &&
	    !decl_word(spec.tyname) && !strmap_get(&p->typedefs, spec.tyname)) {
		struct loc at = spec.loc;
		const char *name = spec.tyname;

		for (;;) {
			struct node *m = mk(p, N_MEMBER, at);

			m->name = name;
			m->tyname = "int";
			if (!ext)
				record_var(p, prog, m, class);
			if (!accept(p, T_COMMA))
				break;
			at = peek(p)->loc;
			name = expect(p, T_IDENT, "a variable's name expected").text;
		}
		if (peek(p)->kind != T_SEMI)
			unexpected(p, "';' expected to end the declaration");
		take(p);
		return;
	}
	if (peek(p)->kind == T_SEMI) {
		take(p);
		/* struct s; declares it (cdecl.c looks it up when used) */
		if ((!spec.a && strncmp(spec.tyname, "struct ", 7) &&
		     strncmp(spec.tyname, "union ", 6) &&
		     strncmp(spec.tyname, "enum ", 5)) || *class || ext)
			diag_fatal_d(p->diag, first.loc, E_SYNTAX, "D_DECL_USELESS",
				     "useless declaration");
		return;
	}
	do {
		struct node *m = mk(p, N_MEMBER, peek(p)->loc);

		m->tyname = spec.tyname;
		m->a = n++ ? NULL : spec.a;
		parse_declarator(p, m);
		if (!m->name)
			unexpected(p, "a variable's name expected");
		if (!strcmp(m->name, "self") || !strcmp(m->name, "this"))
			diag_fatal_d(p->diag, m->loc, E_SYNTAX, "D_DECL_CLASS",
				     "only one storage class (self or this) may be given");
		if (strchr(m->name, '`'))
			diag_fatal_d(p->diag, m->loc, E_SYNTAX, "D_DECL_SCOPE",
				     "D scoping operator may not be used in a declaration name (%s)",
				     m->name);
		if (peek(p)->kind == T_LPAREN) {	/* a function */
			parse_skip_params(p);
			continue;
		}
		if ((m->ival & DV_ASSOC) && class[0] == '$')
			diag_fatal_d(p->diag, m->loc, E_SYNTAX, "D_DECL_LOCASSC",
				     "associative arrays may not be declared as local variables: %s",
				     m->name);
		if (!ext)
			record_var(p, prog, m, class);
	} while (accept(p, T_COMMA));
	if (peek(p)->kind != T_SEMI)
		unexpected(p, "';' expected to end the declaration");
	take(p);
}

/* Whether expression N names identifier NAME (an inline's value that
 * uses the inline itself). */
static bool names_ident(const struct node *n, const char *name)
{
	if (!n)
		return false;
	if (n->kind == N_BUILTIN && n->name && !strcmp(n->name, name))
		return true;
	if (names_ident(n->a, name) || names_ident(n->b, name) ||
	    names_ident(n->c, name))
		return true;
	for (int i = 0; i < n->nargs; i++)
		if (names_ident(n->args[i], name))
			return true;
	return false;
}

/* DTrace's subroutines and actions: no inline may take their names. */
static bool d_function(const char *name)
{
	static const char *const f[] = {
		"alloca", "basename", "bcopy", "breakpoint", "chill",
		"cleanpath", "clear", "commit", "copyin", "copyinstr",
		"copyinto", "copyout", "copyoutstr", "count", "denormalize",
		"dirname", "discard", "exit", "ftruncate", "htonl", "htonll",
		"htons", "index", "inet_ntoa", "inet_ntoa6", "inet_ntop",
		"jstack", "lltostr", "max", "min", "mod", "normalize", "ntohl",
		"ntohll", "ntohs", "panic", "printa", "printf", "progenyof",
		"quantize", "lquantize", "llquantize", "raise", "rand",
		"rindex", "speculate", "speculation", "stack", "stddev",
		"stop", "strchr", "strjoin", "strlen", "strrchr", "strstr",
		"strtok", "substr", "sum", "avg", "sym", "system", "tolower",
		"toupper", "trace", "tracemem", "trunc", "uaddr", "ufunc",
		"umod", "ustack", "usym", "func", "setopt", "getmajor",
		"getminor", "d_path", "link_ntop", "stringof",
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (!strcmp(f[i], name))
			return true;
	return false;
}

/* inline TYPE NAME = EXPR; : NAME is EXPR wherever it is used. */
static void inline_def(struct parser *p, struct program *prog, struct token kw)
{
	struct token name = { 0 };
	char type[64] = "";
	struct node *n, *params[16];
	int np = 0;

	while (peek(p)->kind != T_ASSIGN) {
		struct token t = take(p);

		if (t.kind == T_EOF || t.kind == T_SEMI)
			diag_fatal(p->diag, kw.loc, E_SYNTAX,
				   "'=' expected: inline TYPE NAME = VALUE;");
		/* inline int f[int x, int y] = ...: f[1, 2] is the value
		 * with x and y given */
		if (t.kind == T_LBRACKET && name.text && !np) {
			struct token last = { 0 };

			for (;;) {
				struct token q = take(p);

				if (q.kind == T_EOF || q.kind == T_SEMI)
					expect_close(p, T_RBRACKET, t.loc);
				if (q.kind == T_IDENT)
					last = q;
				if (q.kind != T_COMMA && q.kind != T_RBRACKET)
					continue;
				if (!last.text || np == 16)
					diag_fatal(p->diag, q.loc, E_SYNTAX,
						   "a parameter's name expected (at most 16)");
				params[np] = mk(p, N_BUILTIN, last.loc);
				params[np++]->name = last.text;
				last.text = NULL;
				if (q.kind == T_RBRACKET)
					break;
			}
			continue;
		}
		if (t.kind == T_IDENT && name.text && !*type)
			snprintf(type, sizeof(type), "%s", name.text);
		if (t.kind == T_IDENT)
			name = t;
	}
	take(p);
	if (!name.text)
		diag_fatal(p->diag, kw.loc, E_SYNTAX, "the inline has no name");
	if (d_function(name.text))
		diag_fatal_d(p->diag, name.loc, E_SCOPE, "D_DECL_IDRED",
			     "identifier redefined: %s\n\t current: inline definition\n\tprevious: function ",
			     name.text);
	for (struct node *o = prog->dinlines; o; o = o->next)
		if (!strcmp(o->name, name.text))
			diag_error_d(p->diag, name.loc, E_SCOPE, "D_DECL_IDRED",
				     "identifier redefined: %s\n\t current: inline definition\n\tprevious: scalar inline",
				     name.text);
	n = mk(p, N_ASSIGN, name.loc);
	n->name = name.text;
	if (np) {
		n->args = arena_alloc(p->arena, sizeof(*n->args) * (size_t)np);
		memcpy(n->args, params, sizeof(*n->args) * (size_t)np);
		n->nargs = np;
	}
	n->b = parse_expr(p);
	if (names_ident(n->b, name.text))
		diag_fatal_d(p->diag, name.loc, E_UNDEF, "D_IDENT_UNDEF",
			     "failed to resolve %s: Unknown variable name",
			     name.text);
	/* an integer inline given a string, a string one a number */
	if (*type && ((n->b->kind == N_STR && strcmp(type, "string")) ||
		      (n->b->kind == N_INT && !strcmp(type, "string"))))
		diag_fatal_d(p->diag, name.loc, E_TYPE, "D_OP_INCOMPAT",
			     "inline %s definition uses incompatible types: \"%s\" = \"%s\"",
			     name.text, type,
			     n->b->kind == N_STR ? "string" : "int");
	expect(p, T_SEMI, "';' expected after the inline's value");
	n->next = prog->dinlines;
	prog->dinlines = n;
}

/* translator OUT < IN NAME > { MEMBER = EXPR; ... }; into
 * prog->dxlators (lang/dlower.c applies them to xlate expressions). */
static void translator_def(struct parser *p, struct program *prog,
			   struct token kw)
{
	struct node *x = mk(p, N_BLOCK, kw.loc), **tail;
	struct node *in = mk(p, N_CAST, kw.loc);
	struct node **m = NULL;
	int n = 0, cap = 0;
	struct loc open;

	if ((peek(p)->kind == T_STRUCT || peek(p)->kind == T_UNION)) {
		/* struct NAME, where a body would define the type again */
		struct token kw2 = take(p), name = take(p);
		const char *w = kw2.kind == T_STRUCT ? "struct" : "union";

		if (name.kind != T_IDENT)
			unexpected(p, "a name expected after struct or union");
		if (peek(p)->kind == T_LBRACE)
			diag_fatal_d(p->diag, peek(p)->loc, E_TYPE, "D_DECL_TYPERED",
				     "type redeclared: %s %s", w, name.text);
		x->tyname = arena_printf(p->arena, "%s %s", w, name.text);
		while (accept(p, T_STAR))
			x->tyname_ptr++;
	} else {
		parse_type_name(p, x);
	}
	if (peek(p)->kind == T_LPAREN) {	/* a function's declarator */
		parse_skip_params(p);
		unexpected(p, "'<' expected before the translator's input type");
	}
	expect(p, T_LT, "'<' expected before the translator's input type");
	parse_type_name(p, in);
	if (peek(p)->kind != T_IDENT)
		unexpected(p, "the translator's input needs a name: < TYPE NAME >");
	x->name = take(p).text;
	x->a = in;
	expect(p, T_GT, "'>' expected after the translator's input");
	open = expect(p, T_LBRACE, "'{' expected to start the translator").loc;
	while (peek(p)->kind != T_RBRACE) {
		struct node *a;

		if (peek(p)->kind == T_EOF)
			expect_close(p, T_RBRACE, open);
		if (peek(p)->kind != T_IDENT)
			unexpected(p, "a member expected: MEMBER = VALUE;");
		a = mk(p, N_ASSIGN, peek(p)->loc);
		a->name = take(p).text;
		expect(p, T_ASSIGN, "'=' expected after the member's name");
		a->b = parse_expr(p);
		expect(p, T_SEMI, "';' expected after the member's value");
		if (n == cap) {
			struct node **v;

			cap = cap ? cap * 2 : 8;
			v = arena_alloc(p->arena, sizeof(*v) * (size_t)cap);
			if (n)
				memcpy(v, m, sizeof(*v) * (size_t)n);
			m = v;
		}
		m[n++] = a;
	}
	x->loc = take(p).loc;	/* its checks' place, as dtrace's */
	expect(p, T_SEMI, "';' expected after the translator's '}'");
	x->args = m;
	x->nargs = n;
	for (tail = &prog->dxlators; *tail; tail = &(*tail)->next)
		;
	*tail = x;
}

/* dtrace:::ERROR, ERROR: the probe of run-time errors. */
static bool error_probe(const char *d)
{
	return !strcmp(d, "ERROR") || !strcmp(d, ":::ERROR") ||
	       !strcmp(d, "dtrace:::ERROR") || !strcmp(d, "::ERROR") ||
	       !strcmp(d, ":ERROR");
}

/* One description's attach points into L (none for ERROR: sonde's
 * run-time errors are reported, not handed to a probe). */
static void desc(struct parser *p, struct list *l, struct token t)
{
	const char *specs[D_SPECS_MAX], *ddesc[D_SPECS_MAX], *why = NULL;
	const char *dtag;
	int n;

	if (error_probe(t.text)) {
		p->derror++;
		return;
	}
	if (d_probe_specs(p->arena, t.text, specs, ddesc, &n, &why, &dtag)) {
		int colons = 0;

		if (dtag)
			diag_fatal_d(p->diag, t.loc, E_PROBE, dtag, "%s", why);
		if (p->zdefs)	/* -Z */
			return;
		for (const char *c = t.text; *c; c++)
			colons += *c == ':';
		/* as dtrace names it: every field, the missing ones empty */
		diag_fatal(p->diag, t.loc, E_PROBE,
			   "probe description %.*s%s does not match any probes",
			   colons < 3 ? 3 - colons : 0, ":::", t.text);
	}
	for (int i = 0; i < n; i++) {
		struct node *ap = mk(p, N_ATTACH, t.loc);

		ap->name = specs[i];
		ap->tyname = ddesc[i];
		list_add(p, l, ap);
	}
}

static struct node *clause(struct parser *p, struct token first)
{
	struct node *pr = mk(p, N_PROBE, first.loc);
	struct list l = { 0 }, descs = { 0 };
	struct token t = first;
	bool file = !p->diag->dwhat || strcmp(p->diag->dwhat, "description");

	p->dclause = pr;
	for (;;) {
		struct node *d = mk(p, N_ATTACH, t.loc);

		d->name = t.text;
		list_add(p, &descs, d);
		if (p->have_tok ? peek(p)->kind != T_COMMA :
		    lex_peek_char(&p->lx) != ',')
			break;
		take(p);
		p->have_tok = 0;
		lex_probe(&p->lx, &t);
		if (t.kind != T_PROBE) {
			p->tok = t;
			p->have_tok = 1;
			unexpected(p, "probe description expected after ','");
		}
	}
	/* in a file (not -n's text), a description needs a predicate
	 * or actions after it, as dtrace's grammar says */
	if (file && (p->have_tok ? peek(p)->kind != T_SLASH &&
				   peek(p)->kind != T_LBRACE :
				   lex_peek_char(&p->lx) != '/' &&
				   lex_peek_char(&p->lx) != '{'))
		diag_fatal_d(p->diag, first.loc, E_SYNTAX, "D_SYNTAX",
			     "expected predicate and/or actions following probe description");
	for (int i = 0; i < descs.n; i++) {
		struct token d = { .kind = T_PROBE, .text = descs.v[i]->name,
				   .loc = descs.v[i]->loc };

		desc(p, &l, d);
	}
	pr->args = l.v;
	pr->nargs = l.n;
	/* without a predicate or actions, the next clause may follow:
	 * its description is no ordinary token */
	if (!p->have_tok && lex_peek_char(&p->lx) != '/' &&
	    lex_peek_char(&p->lx) != '{') {
		pr->b = mk(p, N_BLOCK, pr->loc);
		if (lex_peek_char(&p->lx) == ';')
			take(p);
		return pr;
	}
	if (peek(p)->kind == T_SLASH) {
		take(p);
		p->in_pred = 1;
		pr->a = parse_expr(p);
		p->in_pred = 0;
		expect(p, T_SLASH, "'/' expected to end the predicate");
	}
	if (peek(p)->kind == T_LBRACE) {
		pr->b = parse_block(p, "the clause");
		pr->dend = p->prev_end.line;	/* its '}' */
	} else {
		/* no actions: the default one, the probe's line */
		pr->b = mk(p, N_BLOCK, pr->loc);
		accept(p, T_SEMI);
	}
	return pr;
}
/* #pragma D attributes ATTR IDENT of an identifier the program does
 * not define as an inline: D_PRAGMA_UNUSED, as dtrace says (attributes
 * of a provider, "ATTR provider NAME ...", are taken as given). */
static void unused_attributes(struct diag *d, struct program *prog)
{
	for (struct lex_pragma *pr = prog->dpragmas; pr; pr = pr->next) {
		char w[3][64];
		bool known = false;

		if (sscanf(pr->text, "%63s %63s %63[^; \t]", w[0], w[1], w[2]) != 3 ||
		    strcmp(w[0], "attributes") || !strcmp(w[2], "provider"))
			continue;
		for (struct node *o = prog->dinlines; o; o = o->next)
			known |= !strcmp(o->name, w[2]);
		if (!known)
			diag_error_d(d, pr->loc, E_PREPROC, "D_PRAGMA_UNUSED",
				     "unused #pragma attributes");
	}
}


struct program *d_parse_program(const char *src, size_t len, struct arena *a,
				struct diag *d, const struct pp_opts *o)
{
	static const struct pp_opts none;
	struct parser p;
	struct program *prog = arena_alloc(a, sizeof(*prog));
	struct node **tail = &prog->probes, **ttail = &prog->types;
	struct node **etail = &prog->derrors;
	int errors;
	jmp_buf env, *saved = d->fatal;
	int items = 0;

	if (len > SCRIPT_MAX_SIZE) {
		diag_error(d, (struct loc){ .line = 1, .col = 1, .len = 1 },
			   E_LIMIT, "the program is larger than %d bytes",
			   SCRIPT_MAX_SIZE);
		return NULL;
	}
	memset(&p, 0, sizeof(p));
	p.arena = a;
	p.diag = d;
	p.d = true;
	p.zdefs = o && o->dzdefs;
	prog->d = true;
	lex_init(&p.lx, src, len, a, d);
	p.lx.d = true;
	d->fatal = &env;
	if (setjmp(env)) {
		d->fatal = saved;
		return NULL;
	}
	pp_start(&p.lx, o ? o : &none);
	{
		/* line -1: nobody's include, no "included here" note */
		struct loc at = { -1, 0, 0, 0, 0, 0 };
		int file = pp_add_file(&p.lx, "dtrace/prelude.d", prelude,
				       sizeof(prelude) - 1, at);

		pp_push(&p.lx, prelude, sizeof(prelude) - 1, file, ".");
	}
	for (;;) {
		struct token t;

		lex_probe(&p.lx, &t);
		if (t.kind == T_EOF)
			break;
		if (t.kind == T_SEMI)
			continue;
		items += t.loc.file == 0;	/* the program's, not the prelude's */
		if (t.kind == T_PROBE && parse_decl_start(t.text) &&
		    strcmp(t.text, "typedef")) {
			/* struct s { ... } [VAR, ...]; struct s VAR; */
			var_declaration(&p, prog, t, &ttail);
			continue;
		}
		if (t.kind == T_PROBE && parse_decl_start(t.text)) {
			*ttail = parse_decl(&p, t);
			while (*ttail)
				ttail = &(*ttail)->next;
			continue;
		}
		if (t.kind == T_PROBE && !strcmp(t.text, "inline")) {
			inline_def(&p, prog, t);
			continue;
		}
		if (t.kind == T_PROBE && (!strcmp(t.text, "register") ||
					  !strcmp(t.text, "auto") ||
					  !strcmp(t.text, "static")))
			diag_fatal_d(d, t.loc, E_SYNTAX, "D_DECL_BADCLASS",
				     "specified storage class not appropriate in D");
		if (t.kind == T_PROBE && (decl_word(t.text) ||
					  !strcmp(t.text, "extern") ||
					  strmap_get(&p.typedefs, t.text))) {
			var_declaration(&p, prog, t, &ttail);
			continue;
		}
		if (t.kind == T_PROBE && !strcmp(t.text, "translator")) {
			translator_def(&p, prog, t);
			continue;
		}
		if (t.kind == T_PROBE && !strcmp(t.text, "provider")) {
			skip_item(&p, t);
			continue;
		}
		if (t.kind != T_PROBE) {
			p.tok = t;
			p.have_tok = 1;
			if (t.kind == T_RBRACE)
				diag_fatal(d, t.loc, E_SYNTAX,
					   "'}' without a matching '{'");
			unexpected(&p, "probe description expected");
		}
		errors = p.derror;
		*tail = clause(&p, t);
		if (!(*tail)->nargs) {	/* only ERROR (run where a fault
					 * stops a clause: dlower.c), or
					 * nothing it names exists (-Z) */
			if (p.derror > errors) {
				*etail = *tail;
				etail = &(*tail)->next;
			}
			*tail = NULL;
			continue;
		}
		tail = &(*tail)->next;
		prog->nprobes++;
	}
	d->fatal = saved;
	prog->dpragmas = p.lx.pragmas;
	unused_attributes(d, prog);
	prog->derror = p.derror;
	if (!items) {
		int lines = 1;

		for (size_t i = 0; i < len; i++)
			lines += src[i] == '\n';
		/* dtrace's place for it: the line after the last */
		diag_error_d(d, (struct loc){ .line = lines, .col = 1, .len = 1 },
			     E_SYNTAX, "D_EMPTY", "empty D program translation unit");
		return NULL;
	}
	return prog;
}

/* D's (C's) a = b = c: the assignments right to left, as a block of
 * statements (D's variables are not scoped by blocks): b = c; a = b. */
struct node *d_assign_chain(struct parser *p, struct node *first)
{
	struct list l = { 0 };
	struct node *b = mk(p, N_BLOCK, first->loc);

	list_add(p, &l, first);
	while (parse_is_assign_op(peek(p)->kind)) {
		struct token op = take(p);
		struct node *n = mk(p, N_ASSIGN, op.loc);

		n->op = op.kind;
		n->a = l.v[l.n - 1]->b;
		n->b = parse_expr(p);
		n->loc = span(n->a->loc, n->b->loc);
		list_add(p, &l, n);
	}
	/* the last written is done first; each earlier takes the value
	 * its right neighbour now holds */
	for (int i = 0; i < l.n - 1; i++)
		l.v[i]->b = l.v[i + 1]->a;
	b->args = arena_alloc(p->arena, sizeof(*b->args) * (size_t)l.n);
	for (int i = 0; i < l.n; i++)
		b->args[i] = l.v[l.n - 1 - i];
	b->nargs = l.n;
	return b;
}

/* D's (C's) assignment as a value, '(' LHS read: (x = e) is the block
 * expression { x = e; x } (D's variables are not scoped by blocks). */
struct node *d_assign_value(struct parser *p, struct node *lhs)
{
	struct token op = take(p);
	struct node *as = mk(p, N_ASSIGN, op.loc);
	struct node *b = mk(p, N_BLOCKEXPR, lhs->loc);
	long made = 0;

	as->op = op.kind;
	as->a = lhs;
	d_assigned(p, lhs);
	as->b = parse_expr(p);
	as->loc = span(lhs->loc, as->b->loc);
	if (parse_is_assign_op(peek(p)->kind))
		as = d_assign_chain(p, as);
	b->args = arena_alloc(p->arena, sizeof(*b->args) * 2);
	b->args[0] = as;
	b->args[1] = ast_clone(p->arena, lhs, &made);
	b->nargs = 2;
	b->loc = span(lhs->loc, peek(p)->loc);
	return b;
}

void d_assigned(struct parser *p, const struct node *lhs)
{
	if (lhs->kind == N_FIELD && lhs->op == T_ARROW && lhs->a &&
	    lhs->a->kind == N_BUILTIN && !strcmp(lhs->a->name, "this") &&
	    p->dclause)
		strmap_put(&p->dthis, p->arena, lhs->name, p->dclause);
}

bool d_index(struct parser *p, struct node **np)
{
	struct node *n = *np;
	struct token *t = peek(p);

	if (n->kind == N_MAP && n->name[0] == '@') {
		/* @a[i][j]: sema reports it (D_AGG_MDIM), after what
		 * the rest of the statement may hold (dtrace's order) */
		struct node extra = *n;

		parse_map_keys(p, &extra);
		n->ival = 2;
		return true;
	}
	if (n->kind == N_FIELD && n->op == T_ARROW && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, "this") && p->dclause &&
	    strmap_get(&p->dthis, n->name) == p->dclause)
		return false;	/* this->p[i]: p holds a pointer */
	if (n->kind == N_FIELD && n->op == T_ARROW && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, "this"))
		diag_fatal_d(p->diag, t->loc, E_SYNTAX, "D_ARR_LOCAL",
			     "local variables may not be used as associative arrays: this->%s",
			     n->name);
	if (n->kind == N_FIELD && n->op == T_ARROW && n->a->kind == N_BUILTIN &&
	    !strcmp(n->a->name, "self")) {
		n->name = arena_printf(p->arena, "self->%s", n->name);
		n->a = NULL;
		n->op = 0;
		n->ival = 1;
	} else if (n->kind != N_BUILTIN) {
		return false;
	}
	parse_map_keys(p, n);
	n->kind = N_MAP;
	return true;
}
