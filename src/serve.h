/* serve.h - sonde serve: a root service that runs scripts for users
 * who may not load BPF themselves (docs/sonde-serve.8, docs/internals.md
 * "sonde serve").  serve.c is the service and its sessions,
 * serve_policy.c what a user may do, client.c the other end. */
#ifndef SONDE_SERVE_H
#define SONDE_SERVE_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>

struct compiler;

#define SERVE_SOCKET "/run/sonde.sock"
#define SERVE_POLICY "/etc/sonde/policy"
#define SERVE_METRICS_DIR "/etc/sonde/metrics.d"

struct serve_metrics;

/* What one user may do through the service. */
struct serve_policy {
	bool unrestricted;	/* as root: every probe, no filter */
	uint32_t kinds;		/* probe kinds allowed: bits of
				 * serve_kind_names' order */
	bool unsafe;		/* --unsafe (system(), signal(), ...) */
	int max_probes;		/* probes attached at once (0: none) */
	int max_sessions;	/* sessions of the user at once */
	long max_seconds;	/* a session's run time (0: no limit) */
	long max_map_bytes;	/* memory of the maps of a session */
	int max_kernel_cpu;	/* percent of one CPU the programs may take
				 * in the kernel, over 5 s (0: no limit) */
};

/* The session a service child runs for: who, and what they may do. */
struct serve_session {
	uint32_t uid, gid;
	const char *user;	/* the user's name (or the uid as text) */
	struct serve_policy pol;
	int client_pid;		/* SO_PEERCRED's, for the audit log */
	int audit_fd;		/* --audit-file, or -1 */
	unsigned long id;	/* the service's number for the session */
};

/* serve_policy.c */
/* The policy of root (ROOT) or of any other user, before the file. */
void serve_policy_default(struct serve_policy *p, bool root);
/* The lines of policy file PATH that apply to user UID (name USER,
 * groups GIDS) over P; 0, or -1 after saying what is wrong with
 * file:line. */
int serve_policy_read(const char *path, uint32_t uid, const char *user,
		      const uint32_t *gids, int ngids, struct serve_policy *p);
/* The command line a client sent (ARGV[0] is "sonde"): 0 if the
 * policy lets it run, else -1 with the reason in ERR. */
int serve_vet_args(const struct serve_policy *p, int argc, char **argv,
		   char *err, size_t errlen);
/* After the compile: the probes and maps against the policy; 0, or -1
 * after an error on stderr. */
int serve_check_program(const struct serve_session *s, struct compiler *c);
/* A session's compile restrictions (a uid filter, no kernel memory)
 * on C; 0, or -1 after an error on stderr. */
int serve_setup_compiler(const struct serve_session *s, struct compiler *c);
/* In a process forked from the service: close every descriptor above 2
 * but the NKEEP of KEEP (the service's sockets, other sessions'). */
void serve_close_fds(const int *keep, int nkeep);
/* One line of the audit log: syslog(3), and --audit-file when given. */
void serve_audit(int audit_fd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* serve.c: `sonde serve [--socket PATH] [--policy FILE]
 * [--audit-file FILE]`; the exit status. */
int serve_main(int argc, char **argv);

/* serve_metrics.c: serve ADDR's /metrics from the scripts of DIR, each
 * started now in a process of its own (with none of the service's
 * descriptors, signal mask OLD); 0, or -1 after a message. */
int serve_metrics_start(struct serve_metrics **m, const char *addr,
			const char *dir, int audit_fd, const sigset_t *old);
/* Child PID ended with STATUS: one of M's scripts (logged)? */
bool serve_metrics_reaped(struct serve_metrics *m, pid_t pid, int status);
/* Stop serving; SIGTERM to the scripts (the service reaps them, then
 * frees M). */
void serve_metrics_stop(struct serve_metrics *m);
void serve_metrics_free(struct serve_metrics *m);

/* client.c: run ARGV (ARGV[0] the program) through the service at
 * SOCK; the exit status. */
int client_run(const char *sock, int argc, char **argv);
/* Should this command line go through the service at SOCK: the user
 * cannot load BPF and the socket is there?  *SOCK is --connect's
 * path (removed from ARGV, *ARGC updated) or SERVE_SOCKET. */
bool client_wanted(int *argc, char **argv, const char **sock);
/* client_run of dtrace(1)'s ARGV (sonde run as dtrace): the service
 * gets "dtrace" before its arguments, as from `sonde dtrace`. */
int client_run_dtrace(const char *sock, int argc, char **argv);

#endif
