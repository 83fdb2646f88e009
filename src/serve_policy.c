/* serve_policy.c - what a user may do through sonde serve: the policy
 * file (/etc/sonde/policy, docs/sonde-serve.8), the checks of the
 * command line a client sends and of the program it compiles to, and
 * the audit log. */
#include "serve.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "base/compiler.h"
#include "base/util.h"
#include "bpf/prog.h"
#include "catalog/btf.h"

/* The probe kinds a policy names, in the order of its bits. */
static const char *const kind_names[] = {
	"BEGIN", "END", "self", "test", "bench", "interval", "profile",
	"software", "hardware", "tracepoint", "uprobe", "uretprobe", "usdt",
	"kprobe", "kretprobe", "fentry", "fexit", "rawtracepoint", "iter",
	"watchpoint", "asyncwatchpoint",
};

/* Who is not root gets these: the script's own start and end, timers,
 * and the events of tasks, which the uid filter keeps to the user's. */
static const char *const user_kinds[] = {
	"BEGIN", "END", "self", "test", "bench", "interval", "profile",
	"software", "hardware", "tracepoint", "uprobe", "uretprobe", "usdt",
};

static int kind_bit(const char *name, size_t len)
{
	for (size_t i = 0; i < ARRAY_SIZE(kind_names); i++)
		if (strlen(kind_names[i]) == len &&
		    !strncmp(kind_names[i], name, len))
			return (int)i;
	return -1;
}

void serve_policy_default(struct serve_policy *p, bool root)
{
	memset(p, 0, sizeof(*p));
	p->max_sessions = 4;
	if (root) {
		p->unrestricted = true;
		p->unsafe = true;
		p->kinds = (1u << ARRAY_SIZE(kind_names)) - 1;
		p->max_sessions = 64;
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(user_kinds); i++)
		p->kinds |= 1u << kind_bit(user_kinds[i], strlen(user_kinds[i]));
	p->max_probes = 512;
	p->max_seconds = 0;
	p->max_map_bytes = 64L << 20;
	p->max_kernel_cpu = 25;
}

/* SIZE with an optional K, M or G; -1 if it is none. */
static long size_value(const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || n < 0)
		return -1;
	switch (*end | 0x20) {
	case 'k': n <<= 10; end++; break;
	case 'm': n <<= 20; end++; break;
	case 'g': n <<= 30; end++; break;
	default: break;
	}
	return *end ? -1 : n;
}

/* One KEY=VALUE of a policy line into P; false if it is not one. */
static bool setting(struct serve_policy *p, const char *kv)
{
	const char *v = strchr(kv, '=');
	size_t klen = v ? (size_t)(v - kv) : 0;
	long n;

	if (!v++)
		return false;
#define KEY(s) (klen == strlen(s) && !strncmp(kv, s, klen))
	if (KEY("probes")) {
		uint32_t kinds = 0;

		if (!strcmp(v, "all"))
			kinds = (1u << ARRAY_SIZE(kind_names)) - 1;
		else if (strcmp(v, "none"))
			for (const char *q = v; *q; q += *q == ',') {
				size_t len = strcspn(q, ",");
				int b = kind_bit(q, len);

				if (b < 0 || !len)
					return false;
				kinds |= 1u << b;
				q += len;
			}
		p->kinds = kinds;
		return true;
	}
	if (KEY("unrestricted") || KEY("unsafe")) {
		bool yes = !strcmp(v, "yes");

		if (!yes && strcmp(v, "no"))
			return false;
		if (KEY("unsafe"))
			p->unsafe = yes;
		else
			p->unrestricted = yes;
		return true;
	}
	n = size_value(v);
	if (n < 0)
		return false;
	if (KEY("max_probes") && n <= 1 << 20)
		p->max_probes = (int)n;
	else if (KEY("max_sessions") && n <= 1024)
		p->max_sessions = (int)n;
	else if (KEY("max_seconds"))
		p->max_seconds = n;
	else if (KEY("max_map_bytes"))
		p->max_map_bytes = n;
	else if (KEY("max_kernel_cpu") && n <= 100 * 1024)
		p->max_kernel_cpu = (int)n;
	else
		return false;
#undef KEY
	return true;
}

/* Is NAME (a name or a number) user UID, named USER? */
static bool is_user(const char *name, uint32_t uid, const char *user)
{
	char *end;
	unsigned long id = strtoul(name, &end, 10);

	return *name && !*end ? id == uid : !strcmp(name, user);
}

/* Is NAME (a name or a number) one of the groups GIDS? */
static bool in_group(const char *name, const uint32_t *gids, int ngids)
{
	char *end;
	unsigned long id = strtoul(name, &end, 10);
	struct group *g = NULL;

	if (!*name || *end) {
		g = getgrnam(name);
		if (!g)
			return false;
		id = g->gr_gid;
	}
	for (int i = 0; i < ngids; i++)
		if (gids[i] == id)
			return true;
	return false;
}

int serve_policy_read(const char *path, uint32_t uid, const char *user,
		      const uint32_t *gids, int ngids, struct serve_policy *p)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int lineno = 0, rc = 0;

	if (!f)
		return errno == ENOENT ? 0 : -1;
	/* default lines, then group lines, then user lines: the most
	 * particular wins */
	for (int pass = 0; pass < 3 && !rc; pass++) {
		rewind(f);
		lineno = 0;
		while (fgets(line, sizeof(line), f)) {
			char *tok[32], *save = NULL, *w;
			int n = 0, first;
			bool use;

			lineno++;
			line[strcspn(line, "#\n")] = 0;
			for (w = strtok_r(line, " \t", &save); w && n < 32;
			     w = strtok_r(NULL, " \t", &save))
				tok[n++] = w;
			if (!n)
				continue;
			if (!strcmp(tok[0], "default")) {
				use = pass == 0;
				first = 1;
			} else if ((!strcmp(tok[0], "user") ||
				    !strcmp(tok[0], "group")) && n >= 2) {
				use = (pass == 1 && tok[0][0] == 'g' &&
				       in_group(tok[1], gids, ngids)) ||
				      (pass == 2 && tok[0][0] == 'u' &&
				       is_user(tok[1], uid, user));
				first = 2;
			} else {
				fprintf(stderr, "sonde serve: %s:%d: a line starts with default, user NAME or group NAME\n",
					path, lineno);
				rc = -1;
				break;
			}
			for (int i = first; i < n; i++) {
				struct serve_policy scratch = *p;

				if (!setting(use ? p : &scratch, tok[i])) {
					fprintf(stderr, "sonde serve: %s:%d: '%s' is not a setting (probes=LIST, unrestricted=yes|no, unsafe=yes|no, max_probes=N, max_sessions=N, max_seconds=N, max_map_bytes=SIZE, max_kernel_cpu=PERCENT)\n",
						path, lineno, tok[i]);
					rc = -1;
					break;
				}
			}
			if (rc)
				break;
		}
	}
	fclose(f);
	return rc;
}

/* Does dtrace(1)'s argument A hold -w among its flags (-qw), before a
 * flag that takes the rest as its value (-n, -s, -x, ...)? */
static bool dtrace_w(const char *a)
{
	if (a[0] != '-' || a[1] == '-')
		return false;
	for (const char *q = a + 1; *q; q++) {
		if (*q == 'w')
			return true;
		if (strchr("bcDfiILmnopPsUxX", *q))
			return false;
	}
	return false;
}

int serve_vet_args(const struct serve_policy *p, int argc, char **argv,
		   char *err, size_t errlen)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--unsafe") && !p->unsafe) {
			snprintf(err, errlen, "--unsafe is not allowed through sonde serve for this user");
			return -1;
		}
		/* dtrace's -w and -x destructive */
		if (!p->unsafe && argc > 1 && !strcmp(argv[1], "dtrace") &&
		    (dtrace_w(a) || !strcmp(a, "-xdestructive") ||
		     (!strcmp(a, "-x") && i + 1 < argc &&
		      !strcmp(argv[i + 1], "destructive")))) {
			snprintf(err, errlen, "destructive actions (-w) are not allowed through sonde serve for this user");
			return -1;
		}
		if (!strncmp(a, "--metrics", 9) && !p->unrestricted) {
			const char *v = a[9] == '=' ? a + 10 :
					!a[9] && i + 1 < argc ? argv[i + 1] : "";
			const char *colon = strrchr(v, ':');
			long port = strtol(colon ? colon + 1 : v, NULL, 10);

			if (a[9] && a[9] != '=')
				continue;
			if (!strncmp(v, "fd:", 3)) {	/* the service's fds */
				snprintf(err, errlen, "--metrics fd:N is not allowed through sonde serve");
				return -1;
			}
			if (port > 0 && port < 1024) {
				snprintf(err, errlen, "--metrics: port %ld is below 1024, which only root may serve", port);
				return -1;
			}
		}
	}
	return 0;
}

/* The audit line of what a session runs: the script's hash (FNV-1a,
 * 64 bits, of its text), its probes (the first of them by name). */
static void audit_program(const struct serve_session *s,
			  const struct compiler *c, int nprobes, long bytes)
{
	uint64_t h = 0xcbf29ce484222325ull;
	char names[400];
	size_t len = 0;

	for (size_t i = 0; i < c->srclen; i++)
		h = (h ^ (unsigned char)c->src[i]) * 0x100000001b3ull;
	names[0] = 0;
	for (int i = 0; i < c->nprogs && len < sizeof(names) - 1; i++) {
		int n = snprintf(names + len, sizeof(names) - len, "%s%s",
				 i ? "," : "", c->progs[i].probe.name);

		if (n < 0 || (size_t)n >= sizeof(names) - len) {
			snprintf(names + (len > sizeof(names) - 5 ? sizeof(names) - 5 : len),
				 5, ",...");
			break;
		}
		len += (size_t)n;
	}
	serve_audit(s->audit_fd, "session=%lu uid=%u user=%s program script=fnv1a64:%016llx probes=%d map_bytes=%ld attach=%s",
		    s->id, s->uid, s->user, (unsigned long long)h, nprobes, bytes,
		    names);
}

int serve_check_program(const struct serve_session *s, struct compiler *c)
{
	const struct serve_policy *p = &s->pol;
	long bytes = 0;
	int nprobes = 0;

	for (int i = 0; i < c->nprogs; i++) {
		const char *kind = c->progs[i].probe.ops->name;
		int b = kind_bit(kind, strlen(kind));

		if (b < 0 || !(p->kinds & (1u << b))) {
			fprintf(stderr, "sonde: %s: %s probes are not allowed through sonde serve for user %s\n",
				c->progs[i].probe.name, kind, s->user);
			return -1;
		}
		nprobes += c->progs[i].probe.nmulti ? c->progs[i].probe.nmulti : 1;
	}
	if (p->max_probes && nprobes > p->max_probes) {
		fprintf(stderr, "sonde: the script attaches %d probes; sonde serve allows user %s %d at once\n",
			nprobes, s->user, p->max_probes);
		return -1;
	}
	for (int i = 0; i < c->nmaps; i++) {
		const struct mapinfo *m = c->maps[i];
		long ncpu = map_percpu(m) ? sysconf(_SC_NPROCESSORS_CONF) : 1;

		bytes += ((long)m->key_size + (long)ALIGN_UP(m->value_size, 8) * ncpu) *
			 m->max_entries;
	}
	if (p->max_map_bytes && bytes > p->max_map_bytes) {
		fprintf(stderr, "sonde: the script's maps take %ld KiB; sonde serve allows user %s %ld KiB\n",
			bytes >> 10, s->user, p->max_map_bytes >> 10);
		return -1;
	}
	audit_program(s, c, nprobes, bytes);
	return 0;
}

int serve_setup_compiler(const struct serve_session *s, struct compiler *c)
{
	struct btf_member_info cred, euid;
	struct type *task, *cr;

	if (s->pol.unrestricted)
		return 0;
	c->restricted = true;
	task = btf_type_by_name(c, "struct task_struct");
	cr = btf_type_by_name(c, "struct cred");
	if (!task || !cr || btf_member(c, task, "cred", &cred) ||
	    btf_member(c, cr, "euid", &euid)) {
		fprintf(stderr, "sonde: sonde serve needs the kernel's BTF (task_struct.cred, cred.euid) to keep a user's probes to that user's processes\n");
		return -1;
	}
	c->filter_uid_on = true;
	c->filter_uid = s->uid;
	c->cred_off = cred.offset;
	c->euid_off = euid.offset;
	return 0;
}

void serve_audit(int audit_fd, const char *fmt, ...)
{
	char msg[1024], line[1200];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	syslog(LOG_AUTHPRIV | LOG_INFO, "%s", msg);
	if (audit_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "sonde-serve[%d]: %s\n", (int)getpid(), msg);
	if (n > 0 && write(audit_fd, line, (size_t)n) < 0)
		return;
}

void serve_close_fds(const int *keep, int nkeep)
{
	long max = sysconf(_SC_OPEN_MAX);

	if (max < 0 || max > 65536)
		max = 65536;
	for (int fd = 3; fd < max; fd++) {
		bool kept = false;

		for (int i = 0; i < nkeep; i++)
			kept |= keep[i] == fd;
		if (!kept)
			close(fd);
	}
}
