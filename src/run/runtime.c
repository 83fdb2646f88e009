/* runtime.c - BEGIN, the event loop, END.
 *
 * BEGIN and END are raw-tracepoint programs run once each with
 * BPF_PROG_TEST_RUN, so they need no attach point; other probes are
 * attached after BEGIN's programs are loaded and before they run, as in
 * bpftrace.  The loop consumes the ring buffer until exit(), a signal,
 * or (later) the end of -c's command.
 */
#include "run/tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "out/format.h"
#include "out/json.h"
#include "out/usyms.h"

/* The only global: set by SIGINT/SIGTERM. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (stop_signal) {
		/* A second Ctrl-C: leave now.  Probes go with our fds. */
		_exit(128 + sig);
	}
	stop_signal = sig;
}

void rt_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static void print_time(struct tracer *t, const char *fmt, uint64_t epoch_ns)
{
	char buf[512];
	size_t n = fmt_time(buf, sizeof(buf), fmt, epoch_ns);

	if (t->format == OUT_JSON)
		js_text(t->out, "time", buf, n);
	else
		fwrite(buf, 1, n, t->out);
}

static uint64_t now_epoch_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* printf's arguments from record REC, formatted onto F. */
static void format_record(struct tracer *t, FILE *f, struct event_spec *e,
			  const uint8_t *rec)
{
	struct fmt_arg args[64] = { { 0 } };
	char tbuf[64][128];	/* strftime, ntop, macaddr text */
	char *stacks[64] = { NULL };
	int n = e->nargs < 64 ? e->nargs : 64;

	for (int i = 0; i < n; i++) {
		const struct ev_arg *a = &e->args[i];
		const uint8_t *p = rec + a->off;

		memset(&args[i], 0, sizeof(args[i]));
		if (a->ty->kind == TY_STR) {
			args[i].is_str = 1;
			args[i].s = (const char *)p;
			args[i].slen = (size_t)a->ty->size;
		} else if (a->ty->kind == TY_TSTAMP) {
			uint64_t ns;

			memcpy(&ns, p, 8);
			args[i].is_str = 1;
			args[i].slen = fmt_time(tbuf[i], sizeof(tbuf[i]), a->tfmt,
						ns + (uint64_t)t->mono_to_epoch);
			args[i].s = tbuf[i];
		} else if (a->ty->kind == TY_USERNAME) {
			uint64_t uid;

			memcpy(&uid, p, 8);
			args[i].is_str = 1;
			args[i].s = usr_name(t, (uint32_t)uid);
			args[i].slen = strlen(args[i].s);
		} else if (a->ty->kind == TY_INET || a->ty->kind == TY_MAC) {
			args[i].is_str = 1;
			if (a->ty->kind == TY_INET)
				fmt_inet(tbuf[i], sizeof(tbuf[i]), p);
			else
				fmt_mac(tbuf[i], sizeof(tbuf[i]), p);
			args[i].s = tbuf[i];
			args[i].slen = strlen(tbuf[i]);
		} else if (a->ty->kind == TY_BUF) {
			uint64_t len;

			memcpy(&len, p, 8);
			args[i].is_str = 1;
			args[i].is_buf = 1;
			args[i].s = (const char *)p + 8;
			args[i].slen = len < (uint64_t)a->ty->size ? (size_t)len
				       : (size_t)a->ty->size;
		} else if (a->ty->kind == TY_KSTACK || a->ty->kind == TY_KSYM ||
			   a->ty->kind == TY_USYM) {
			args[i].is_str = 1;
			stacks[i] = stk_string(t, a->ty, p, 8, &args[i].slen);
			args[i].s = stacks[i];
		} else {
			memcpy(&args[i].i, p, 8);
			args[i].is_signed = a->ty->is_signed;
		}
	}
	fmt_print(f, e->fmt, e->fmt_len, args, n);
	for (int i = 0; i < n; i++)
		free(stacks[i]);
}

/* system(): the formatted command runs by /bin/sh, its output going
 * where sonde's goes, and sonde waits for it (as bpftrace does). */
/* system(): the formatted command runs by /bin/sh, its output going
 * where sonde's goes, and sonde waits for it (as bpftrace does).  In
 * JSON its output becomes a "syscall" message, as in bpftrace. */
static void do_system(struct tracer *t, struct event_spec *e,
		      const uint8_t *rec)
{
	char *cmd = NULL, *got = NULL;
	size_t len = 0, glen = 0;
	FILE *f = open_memstream(&cmd, &len);
	int pipefd[2] = { -1, -1 };
	pid_t pid;

	if (!f)
		return;
	format_record(t, f, e, rec);
	fclose(f);
	fflush(t->out);
	if (t->format == OUT_JSON && pipe2(pipefd, O_CLOEXEC) < 0) {
		free(cmd);
		return;
	}
	pid = fork();
	if (pid == 0) {
		int to = pipefd[1] >= 0 ? pipefd[1] : fileno(t->out);

		if (to != STDOUT_FILENO)
			dup2(to, STDOUT_FILENO);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	if (pipefd[1] >= 0)
		close(pipefd[1]);
	if (pid < 0) {
		fprintf(stderr, "sonde: system(\"%s\"): cannot fork: %s\n", cmd,
			strerror(errno));
	} else {
		if (pipefd[0] >= 0) {
			FILE *m = open_memstream(&got, &glen);
			char buf[4096];
			ssize_t n;

			while ((n = read(pipefd[0], buf, sizeof(buf))) != 0) {
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0)
					break;
				if (m)
					fwrite(buf, 1, (size_t)n, m);
			}
			if (m) {
				fclose(m);
				js_text(t->out, "syscall", got ? got : "", glen);
			}
			free(got);
		}
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (pipefd[0] >= 0)
		close(pipefd[0]);
	free(cmd);
}

/* An event's record, for the writers js_capture calls. */
struct ev_out {
	struct tracer *t;
	struct event_spec *e;
	const uint8_t *rec;
};

static void write_printf(void *arg, FILE *f)
{
	struct ev_out *o = arg;

	format_record(o->t, f, o->e, o->rec);
}

/* join(): the strings of the record, separated; NL ends the line. */
static void write_join(struct ev_out *o, FILE *f, bool nl)
{
	size_t ssize = (size_t)ALIGN_UP(o->t->c->strlen_, 8);
	uint64_t n;

	memcpy(&n, o->rec + 8, 8);
	for (uint64_t i = 0; i < n && i < JOIN_MAX; i++) {
		const char *str = (const char *)o->rec + 16 + i * ssize;

		if (i)
			fwrite(o->e->fmt, 1, o->e->fmt_len, f);
		fprintf(f, "%.*s", (int)ssize, str);
	}
	if (nl)
		fputc('\n', f);
}

static void write_join_json(void *arg, FILE *f)
{
	write_join(arg, f, false);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct tracer *t = ctx;
	struct compiler *c = t->c;
	uint64_t id;
	struct event_spec *e;
	const uint8_t *rec = data;

	if (size < 8)
		return 0;
	memcpy(&id, data, 8);
	if (id == EVID_USYM_PID && size >= 16) {
		uint64_t pid;

		memcpy(&pid, rec + 8, 8);
		us_note(t->usyms, (int)pid);
		return 0;
	}
	if (id >= (uint64_t)c->nevents)
		return 0;
	e = &c->events[id];
	if ((int)size < e->size)
		return 0;
	switch (e->kind) {
	case EV_PRINTF:
		if (t->format == OUT_JSON) {
			struct ev_out o = { t, e, rec };

			js_capture(t->out, "printf", write_printf, &o);
		} else {
			format_record(t, t->out, e, rec);
		}
		break;
	case EV_SYSTEM:
		do_system(t, e, rec);
		break;
	case EV_PRINT_VAL:
		pr_value(t, e->args[0].ty, rec + e->args[0].off);
		break;
	case EV_PRINT_MAP: {
		uint64_t top, div;

		memcpy(&top, rec + 8, 8);
		memcpy(&div, rec + 16, 8);
		pr_map(t, e->map, top, div);
		break;
	}
	case EV_CLEAR:
		pr_clear(t, e->map);
		break;
	case EV_ZERO:
		pr_zero(t, e->map);
		break;
	case EV_TIME:
		print_time(t, e->fmt, now_epoch_ns());
		break;
	case EV_JOIN: {
		struct ev_out o = { t, e, rec };

		if (t->format == OUT_JSON)
			js_capture(t->out, "join", write_join_json, &o);
		else
			write_join(&o, t->out, true);
		break;
	}
	case EV_EXIT:
		t->exiting = true;
		break;
	}
	return 0;
}

int rt_spawn(struct tracer *t, const char *cmd)
{
	int pipefd[2];
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(pipefd[0]);
		close(pipefd[1]);
		fprintf(stderr, "sonde: cannot start '%s': %s\n", cmd, strerror(err));
		return -err;
	}
	if (pid == 0) {
		char go;

		close(pipefd[1]);
		/* Held here until the probes are attached; a closed pipe
		 * means sonde gave up. */
		if (read(pipefd[0], &go, 1) != 1)
			_exit(127);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* A simple command replaces the shell, so cpid is its pid. */
		if (!strpbrk(cmd, ";&|<>()`$\n")) {
			char *ex = xmalloc(strlen(cmd) + 6);

			strcpy(ex, "exec ");
			strcat(ex, cmd);
			execl("/bin/sh", "sh", "-c", ex, (char *)NULL);
		} else {
			execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		}
		_exit(127);
	}
	close(pipefd[0]);
	t->child_pid = pid;
	t->child_go = pipefd[1];
	return 0;
}

/* -c: let the command run (exec) now that everything is attached. */
static void release_child(struct tracer *t)
{
	if (t->child_go < 0)
		return;
	if (write(t->child_go, "g", 1) != 1)
		fprintf(stderr, "sonde: cannot start the command: %s\n",
			strerror(errno));
	close(t->child_go);
	t->child_go = -1;
}

/* Alive and not a zombie (a zombie still answers kill(pid, 0)). */
static bool process_alive(int pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');	/* "pid (comm) S ..." */
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* Has the command (-c) or the traced process (-p) gone? */
static bool target_gone(struct tracer *t)
{
	if (t->child_pid > 0 && !t->child_done) {
		int st;

		if (waitpid(t->child_pid, &st, WNOHANG) == t->child_pid) {
			t->child_done = true;
			t->child_status = st;
			return true;
		}
	}
	if (t->target_pid > 0)
		return !process_alive(t->target_pid);
	return false;
}

/* iter: create the iterator and read it to its end; the program runs
 * once per element and reports through the ring buffer. */
static int run_iter(struct tracer *t, struct prog_spec *ps)
{
	int link = bpf_link_create(ps->fd, 0, BPF_TRACE_ITER, NULL), fd;
	char buf[4096];
	ssize_t n;

	if (link < 0) {
		fprintf(stderr, "sonde: probe %s: attach failed: %s\n",
			ps->probe.name, strerror(errno));
		return -errno;
	}
	fd = bpf_iter_create(link);
	if (fd < 0) {
		int err = errno;

		fprintf(stderr, "sonde: probe %s: cannot start the iterator: %s\n",
			ps->probe.name, strerror(err));
		close(link);
		return -err;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		ring_buffer__consume(t->rb);
	close(fd);
	close(link);
	ring_buffer__consume(t->rb);
	return 0;
}

/* Run a BEGIN or END program once on this CPU. */
static int run_once(struct tracer *t, struct prog_spec *ps)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	uint64_t ctx[1] = { 0 };

	opts.ctx_in = ctx;
	opts.ctx_size_in = sizeof(ctx);
	if (bpf_prog_test_run_opts(ps->fd, &opts) < 0) {
		int err = errno;

		fprintf(stderr, "sonde: probe %s: cannot run: %s\n",
			ps->probe.name, strerror(err));
		return -err;
	}
	return 0;
}

/* The stats map is one array element of nstats u64 counters. */
static uint64_t stat_sum(struct tracer *t, uint32_t slot)
{
	int n = t->c->nstats > 0 ? t->c->nstats : 1;
	uint64_t *v = xcalloc((size_t)n, sizeof(uint64_t));
	uint32_t key = 0;
	uint64_t val = 0;

	if (slot < (uint32_t)n && bpf_map_lookup_elem(t->stats_fd, &key, v) == 0)
		val = v[slot];
	free(v);
	return val;
}

/* Say once per map when it filled up and dropped keys. */
static void check_drops(struct tracer *t, bool final)
{
	struct compiler *c = t->c;

	for (int i = 0; i < c->nmaps; i++) {
		uint64_t d = stat_sum(t, (uint32_t)(STATS_MAP_DROPS + i));

		if (d && !t->drops_seen[i] && !final)
			fprintf(stderr, "sonde: warning: map %s is full (%d keys); new keys are dropped (raise BPFTRACE_MAP_KEYS_MAX)\n",
				c->maps[i]->name, c->maps[i]->max_entries);
		if (final && d)
			fprintf(stderr, "%s: %llu keys dropped, map full (raise with BPFTRACE_MAP_KEYS_MAX)\n",
				c->maps[i]->name, (unsigned long long)d);
		t->drops_seen[i] = d;
	}
	if (final) {
		uint64_t lost = stat_sum(t, STATS_LOST);

		if (lost && t->format == OUT_JSON)
			js_count(t->out, "lost_events", "events", lost);
		else if (lost)
			fprintf(stderr, "Lost %llu events\n", (unsigned long long)lost);
		lost = c->nstack_maps ? stat_sum(t, (uint32_t)STATS_STACKS(c)) : 0;
		if (lost)
			fprintf(stderr, "stacks: %llu stacks lost (stack map full, or another stack in their hash bucket); they print as empty stacks\n",
				(unsigned long long)lost);
		for (int i = 0; i < c->nread_sites; i++) {
			struct read_site *r = &c->read_sites[i];
			uint64_t n = stat_sum(t, (uint32_t)(STATS_READS(c) + 2 * i));
			int64_t err = (int64_t)stat_sum(t, (uint32_t)(STATS_READS(c) + 2 * i + 1));

			if (!n)
				continue;
			if (t->format == OUT_JSON)
				fprintf(t->out, "{\"type\": \"helper_error\", \"helper\": \"%s\", \"retcode\": %lld, \"line\": %d, \"col\": %d, \"count\": %llu}\n",
					r->helper, (long long)err, r->loc.line,
					r->loc.col, (unsigned long long)n);
			else
				diag_warn(&c->diag, r->loc,
					  "bpf_%s() failed %llu time%s (last: %s); what it read is empty or zero",
					  r->helper, (unsigned long long)n,
					  n == 1 ? "" : "s",
					  strerror(err < 0 ? (int)-err : (int)err));
		}
	}
}

/* Wait for and handle ring buffer events; with user symbols, also the
 * kernel's records of mappings (usyms.c), applied before the events
 * that may print stacks of those mappings. */
static int poll_events(struct tracer *t, int timeout_ms)
{
	int rc;

	if (!t->usyms)
		return ring_buffer__poll(t->rb, timeout_ms);
	rc = us_wait(t->usyms, ring_buffer__epoll_fd(t->rb), timeout_ms);
	if (rc < 0)
		return rc;
	return ring_buffer__consume(t->rb);
}

static int run_kind(struct tracer *t, enum probe_kind k)
{
	struct compiler *c = t->c;

	for (int i = 0; i < c->nprogs; i++) {
		if (c->progs[i].probe.kind != k)
			continue;
		int rc = run_once(t, &c->progs[i]);

		if (rc)
			return rc;
		ring_buffer__consume(t->rb);
		if (k == PK_BEGIN && t->exiting)
			break;
	}
	return 0;
}

/* Output goes out after each batch of events, unless -B chose stdio's
 * own buffering. */
static void flush(struct tracer *t)
{
	if (!t->buffered)
		fflush(t->out);
}

struct ring_buffer *rt_ringbuf_open(struct tracer *t)
{
	return ring_buffer__new(t->ringbuf_fd, on_event, t, NULL);
}

int rt_run(struct tracer *t)
{
	struct compiler *c = t->c;
	int nprobes = 0, nskipped = 0, rc;
	struct timespec last, now;

	rc = ld_ringbuf_ready(t);
	if (rc || !t->rb) {
		rc = rc ? rc : -EINVAL;
		fprintf(stderr, "sonde: cannot read the ring buffer: %s\n",
			strerror(-rc));
		return rc;
	}
	/* a kprobe_multi or uprobe_multi program counts each function */
	for (int i = 0; i < c->nprogs; i++)
		nprobes += c->progs[i].probe.nmulti ? c->progs[i].probe.nmulti : 1;
	if (t->quiet)
		;
	else if (t->format == OUT_JSON)
		js_count(t->out, "attached_probes", "probes", (uint64_t)nprobes);
	else	/* folded output holds nothing but stacks */
		fprintf(t->format == OUT_FOLDED ? stderr : t->out,
			"Attaching %d probe%s...\n", nprobes,
			nprobes == 1 ? "" : "s");
	flush(t);
	for (int i = 0; i < c->nprogs; i++) {
		rc = at_attach(t, &c->progs[i]);
		/* one tracepoint of a wildcard the kernel refuses is skipped,
		 * as bpftrace does; the script runs on the others */
		if (rc && c->progs[i].probe.wild) {
			fprintf(stderr, "sonde: warning: skipping %s\n",
				c->progs[i].probe.name);
			nskipped += c->progs[i].probe.nmulti ?
				    c->progs[i].probe.nmulti : 1;
			continue;
		}
		if (rc)
			return rc;
	}
	if (nskipped && nskipped == nprobes) {
		fprintf(stderr, "sonde: no probe could be attached\n");
		return -ENOENT;
	}
	rc = run_kind(t, PK_BEGIN);
	flush(t);
	if (rc)
		return rc;
	/* The command starts once BEGIN ran, as in bpftrace; a sh -c
	 * "exec CMD" keeps cpid the command's own pid. */
	release_child(t);
	/* Iterators run once, after BEGIN; the script ends after them. */
	for (int i = 0; i < c->nprogs && !t->exiting; i++) {
		if (c->progs[i].probe.kind != PK_ITER)
			continue;
		rc = run_iter(t, &c->progs[i]);
		flush(t);
		if (rc)
			return rc;
		t->exiting = true;
	}
	clock_gettime(CLOCK_MONOTONIC, &last);
	while (!t->exiting && !stop_signal) {
		if (target_gone(t)) {
			ring_buffer__consume(t->rb);
			break;
		}
		rc = poll_events(t, 100);
		flush(t);
		if (rc < 0 && rc != -EINTR) {
			fprintf(stderr, "sonde: reading events: %s\n", strerror(-rc));
			break;
		}
		/* After a batch, let the next events gather for a
		 * millisecond: the kernel wakes a reader that has caught up
		 * on every event it commits (an irq_work and a wake-up, a
		 * microsecond of the traced task's time each), so a reader
		 * that polls at once doubled the cost of a busy printf
		 * probe.  Events come at most 1 ms later, and a
		 * millisecond of the fastest stream measured here (1.4
		 * million events a second) is 50 KiB of a 1 MiB ring. */
		if (rc > 0 && !t->exiting && !stop_signal) {
			struct timespec nap = { 0, 1000000 };
			nanosleep(&nap, NULL);
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec != last.tv_sec) {
			check_drops(t, false);
			last = now;
		}
	}
	/* No more events from attached probes, then END. */
	at_detach_all(t);
	ring_buffer__consume(t->rb);
	t->exiting = false;
	rc = run_kind(t, PK_END);
	t->exiting = true;
	fflush(t->out);
	pr_all_maps(t);
	fflush(t->out);
	if (t->flame) {
		int err = pr_flamegraph(t, t->flame);

		if (err) {
			fprintf(stderr, "sonde: writing the flame graph: %s\n",
				strerror(-err));
			rc = rc ? rc : err;
		}
	}
	check_drops(t, true);
	return rc;
}
