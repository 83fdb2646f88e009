/* runtime.c - BEGIN, the event loop, END.
 *
 * BEGIN and END programs are run once each by their kind's run
 * operation (probe/special.c), so they need no attach point; other
 * probes are attached after the programs are loaded and before BEGIN
 * runs, as in bpftrace.  Iterators run once BEGIN ran, and the script
 * then ends.  The loop consumes the ring buffer until exit(), a signal,
 * or the end of -c's command or -p's process.
 */
#include "run/tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lang/dprobe.h"
#include "out/json.h"
#include "out/usyms.h"
#include "run/unwind.h"

/* -k: a checked helper call failed, at the site the record names; in
 * bpftrace's words and JSON fields (without the end column), but the
 * text goes to stderr with the other warnings, not into the output. */
static void helper_error(struct tracer *t, const uint8_t *rec)
{
	struct compiler *c = t->c;
	uint64_t site;
	int64_t err;
	struct helper_site *h;

	memcpy(&site, rec + 8, 8);
	memcpy(&err, rec + 16, 8);
	if (site >= (uint64_t)c->nhelper_sites)
		return;
	h = &c->helper_sites[site];
	if (!strcmp(h->helper, "divide")) {	/* x / 0 or x % 0 */
		diag_warn(&c->diag, h->loc,
			  "Divide or modulo by 0 detected. This can lead to unexpected results. 1 is being used as the result.");
		return;
	}
	if (t->pr.format == OUT_JSON)
		fprintf(t->pr.out, "{\"type\": \"helper_error\", \"helper\": \"%s\", \"retcode\": %lld, \"line\": %d, \"col\": %d}\n",
			h->helper, (long long)err, h->loc.line, h->loc.col);
	else
		diag_warn(&c->diag, h->loc, "Failed to %s: %s (%lld)",
			  h->helper, strerror(err < 0 ? (int)-err : (int)err),
			  (long long)err);
}

/* D: a fault stopped a clause (EVID_D_FAULT, bpf/cg.c): said as dtrace
 * says it, "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN):
 * invalid address (0x0) in action #1". */
static void d_fault(struct tracer *t, const uint8_t *rec)
{
	struct compiler *c = t->c;
	uint64_t w[3];
	unsigned prog, id;
	const struct probe_spec *ps;
	const char *f[4];

	memcpy(w, rec + 8, sizeof(w));
	prog = (unsigned)(w[0] >> 32);
	id = (unsigned)w[0];
	if (prog >= (unsigned)c->nprogs)
		return;
	ps = &c->progs[prog].probe;
	for (int i = 0; i < 4; i++)
		f[i] = probe_d_field(&c->arena, ps, i);
	fprintf(stderr, "dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): ",
		id, id, f[0], f[1], f[2], f[3]);
	if ((w[1] & 0xff) == DFLT_DIVZERO)
		fprintf(stderr, "divide-by-zero");
	else if ((w[1] & 0xff) == DFLT_NOSCRATCH)
		fprintf(stderr, "out of scratch space");
	else if ((w[1] & 0xff) == DFLT_ILLOP)
		fprintf(stderr, "illegal operation");
	else
		fprintf(stderr, "invalid address (0x%llx)", (unsigned long long)w[2]);
	fprintf(stderr, " in action #%u\n", (unsigned)(w[1] >> 8));
}

/* One record of the ring buffer: an event of the script, a process
 * BPF saw first (usyms.c reads its mappings), or an address to watch
 * (watch.c).  In the event loop, a stop signal (or SIGUSR1) ends the
 * batch after this record: the kernel goes on filling the ring while
 * sonde reads, and a probe that system() feeds (sched_switch) would
 * never let a batch end. */
static int on_event(void *ctx, void *data, size_t size)
{
	struct tracer *t = ctx;
	struct compiler *c = t->c;
	const uint8_t *rec = data;
	struct event_spec *e;
	uint64_t id;

	if (size < 8)
		return 0;
	memcpy(&id, data, 8);
	if (id == EVID_HELPER_ERROR && size >= 24) {
		helper_error(t, rec);
		return 0;
	}
	if (id == EVID_D_FAULT && size >= 32) {
		d_fault(t, rec);
		return 0;
	}
	if (id == EVID_USYM_PID && size >= 16) {
		uint64_t pid;

		memcpy(&pid, rec + 8, 8);
		us_note(t->pr.usyms, (int)pid);
		return 0;
	}
	if (id == EVID_UNW_FILE) {
		unw_missed(t->unw, rec, (uint32_t)size);
		return 0;
	}
	if (id == EVID_WATCH) {
		rt_watch(t, rec, size);
		return 0;
	}
	if (rt_spec_event(t, id, rec, size, on_event))
		return 0;
	if (id >= (uint64_t)c->nevents)
		return 0;
	e = &c->events[id];
	if ((int)size < e->size)
		return 0;
	/* bufpolicy=fill: a full buffer stops tracing, as exit() does;
	 * the record that did not fit and those after it are dropped,
	 * END's are not (t->exiting is off while END runs) */
	if (t->dt_filled && t->exiting)
		return 0;
	if (t->dt_fill_left > 0 && !t->dt_filled && !t->exiting) {
		t->dt_fill_left -= (long)size;
		if (t->dt_fill_left <= 0) {
			t->dt_filled = true;
			t->exiting = true;
			t->exit_called = true;
			return -EINTR;
		}
	}
	/* bpftrace prints nothing a probe sends after an exit() (the
	 * kernel's buffer may hold more firings of a fast probe); END's
	 * output comes after, D's clause goes on after its exit() */
	if (t->exit_called && t->exiting && !t->pr.dtrace && e->kind != EV_EXIT)
		return 0;
	if (e->kind == EV_SYSTEM)
		rt_system(t, e, rec);
	else if (e->kind == EV_FREOPEN)
		rt_freopen(t, e, rec);
	else if (e->kind == EV_EXIT) {
		if (!t->exiting && e->nargs) {
			int64_t code;

			memcpy(&code, rec + e->args[0].off, 8);
			t->exit_code = (int)(code & 0xff);
		}
		t->exiting = true;
		t->exit_called = true;
	}
	else if (e->kind == EV_UNWATCH) {
		uint64_t addr;

		memcpy(&addr, rec + e->args[0].off, 8);
		rt_unwatch(t, addr);
	}
	else
		pr_event(&t->pr, e, rec);
	return t->polling && (rt_stop_signal() || rt_print_requested()) ?
	       -EINTR : 0;
}

void rt_ringbuf_start(struct tracer *t, bool quiet, long bytes,
		      long pages)
{
	int ncpus = libbpf_num_possible_cpus();

	t->skb_pages = pages;
	rb_start(&t->rb, rb_size(quiet, ncpus > 0 ? ncpus : 1, bytes,
				 pages), on_event, t);
}

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

/* D: the clauses' exit flag (STATS_DEXIT) as a gate.  DTrace enables
 * every probe at once: while sonde attaches one by one, the flag holds
 * 2, and the probes already attached return at once, so that no event
 * of a half-enabled program is seen (a clause that raise()s a signal
 * before the pid probe that catches it is attached).  CLOSED false
 * opens it, unless a clause has called exit() meanwhile (1). */
static void d_gate(struct tracer *t, bool closed)
{
	int n = t->c->nstats > 0 ? t->c->nstats : 1;
	uint64_t *v = xcalloc((size_t)n, sizeof(uint64_t));
	uint32_t key = 0, slot = (uint32_t)STATS_DEXIT(t->c);

	if (slot < (uint32_t)n && bpf_map_lookup_elem(t->stats_fd, &key, v) == 0 &&
	    v[slot] == (closed ? 0 : 2)) {
		v[slot] = closed ? 2 : 0;
		bpf_map_update_elem(t->stats_fd, &key, v, BPF_ANY);
	}
	free(v);
}

/* Say once per map when it filled up and dropped keys. */
static void check_drops(struct tracer *t, bool final)
{
	struct compiler *c = t->c;

	for (int i = 0; i < c->nmaps; i++) {
		uint64_t d = stat_sum(t, (uint32_t)(STATS_MAP_DROPS + i));
		/* a declared map's size is its declaration's */
		const char *raise = c->maps[i]->decl_type ?
				    "its declared size" : "BPFTRACE_MAP_KEYS_MAX";

		/* said once, while running or at the end; today's words
		 * as bpftrace 0.26 puts them */
		if (d && !t->drops_seen[i] && !t->no_warnings &&
		    (!final || !c->dialect_017))
			fprintf(stderr, c->dialect_017 ?
				"sonde: warning: map %s is full (%d keys); new keys are dropped (raise %s)\n" :
				"sonde: WARNING: Map full; can't update element of %s (%d keys; new keys are dropped: raise %s)\n",
				c->maps[i]->name, c->maps[i]->max_entries,
				raise);
		if (final && d)
			fprintf(stderr, "%s: %llu keys dropped, map full (raise with %s)\n",
				c->maps[i]->name, (unsigned long long)d, raise);
		t->drops_seen[i] = d;
	}
	if (final) {
		uint64_t lost = stat_sum(t, STATS_LOST);

		if (lost && t->pr.format == OUT_JSON)
			js_count(t->pr.out, "lost_events", "events", lost,
				 !t->c->dialect_017);
		else if (lost)
			fprintf(stderr, "Lost %llu events\n", (unsigned long long)lost);
		/* D: speculation() found none free, in dtrace's words */
		lost = c->uses_spec ? stat_sum(t, (uint32_t)STATS_SPEC(c)) : 0;
		if (lost && !t->no_warnings)
			fprintf(stderr, "dtrace: %s%llu failed speculation%s (no speculative buffer available)\n",
				t->dt_droptags ? "[DTRACEDROP_SPECUNAVAIL] " : "",
				(unsigned long long)lost, lost == 1 ? "" : "s");
		lost = c->nstack_maps ? stat_sum(t, (uint32_t)STATS_STACKS(c)) : 0;
		if (lost)
			fprintf(stderr, "stacks: %llu stacks lost (stack map full, or another stack in their hash bucket); they print as empty stacks\n",
				(unsigned long long)lost);
	}
}

/* Wait for and handle ring buffer events; with user symbols, also the
 * kernel's records of mappings (usyms.c), applied before the events
 * that may print stacks of those mappings. */
static int poll_events(struct tracer *t, int timeout_ms)
{
	int rc;

	/* --metrics: wait unlocked, print (below) under the lock */
	if (t->metrics && timeout_ms) {
		struct pollfd p = { ring_buffer__epoll_fd(t->rb.rb), POLLIN, 0 };

		if (poll(&p, 1, timeout_ms) < 0 && errno != EINTR)
			return -errno;
		pthread_mutex_lock(&t->print_lock);
		rc = poll_events(t, 0);
		pthread_mutex_unlock(&t->print_lock);
		return rc;
	}

	if (!t->pr.usyms)
		return ring_buffer__poll(t->rb.rb, timeout_ms);
	rc = us_wait(t->pr.usyms, ring_buffer__epoll_fd(t->rb.rb), timeout_ms);
	if (rc < 0)
		return rc;
	return ring_buffer__consume(t->rb.rb);
}

static void drain(void *arg)
{
	struct tracer *t = arg;

	/* D: BEGIN's records wait in the ring until every probe is
	 * enabled (rt_run) */
	if (t->pr.dtrace && t->d_begin)
		return;
	ring_buffer__consume(t->rb.rb);
}

/* Run the programs of STAGE (BEGIN, END, iter) once each, in order;
 * BEGIN stops at an exit(), iterators end the script. */
static int run_stage(struct tracer *t, enum probe_stage stage)
{
	struct compiler *c = t->c;

	for (int i = 0; i < c->nprogs; i++) {
		struct prog_spec *ps = &c->progs[i];
		const char *what = "cannot run";
		int rc;

		if (ps->probe.ops->stage != stage)
			continue;
		if (stage == STAGE_ITER && t->exiting)
			break;
		rc = ps->probe.ops->run(&ps->probe, ps->fd, drain, t, &what);
		if (rc)
			return rt_fail(t, rc, "probe %s: %s: %s", ps->probe.name,
				       what, strerror(-rc));
		if (stage == STAGE_ITER)
			t->exiting = true;
		if (stage == STAGE_BEGIN && t->exiting)
			break;
	}
	return 0;
}

/* Output goes out after each batch of events, unless -B chose stdio's
 * own buffering. */
static void flush(struct tracer *t)
{
	if (!t->buffered)
		fflush(t->pr.out);
}

/* bpftrace 0.17's "Attaching N probes..." on the output before it
 * attaches, or today's "Attached N probes" on stderr once it has
 * (AFTER), where the output format wants it. */
static void attaching(struct tracer *t, int nprobes, bool after)
{
	bool v017 = t->c->dialect_017;

	if (t->quiet || after == v017)
		;
	else if (t->pr.dtrace)
		fprintf(stderr, "dtrace: %s '%s' matched %d probe%s\n",
			t->dt_what, t->dt_name, nprobes + t->dt_extra,
			nprobes + t->dt_extra == 1 ? "" : "s");
	else if (t->pr.format == OUT_JSON)
		js_count(t->pr.out, "attached_probes", "probes",
			 (uint64_t)nprobes, !v017);
	else if (!v017)
		fprintf(stderr, "Attached %d probe%s\n", nprobes,
			nprobes == 1 ? "" : "s");
	else	/* folded output holds nothing but stacks */
		fprintf(t->pr.format == OUT_FOLDED ? stderr : t->pr.out,
			"Attaching %d probe%s...\n", nprobes,
			nprobes == 1 ? "" : "s");
	flush(t);
}

/* Today's bpftrace ends a script whose probes are only begin and end
 * (and iterators, which end it anyway) once begin has run. */
static bool nothing_to_wait_for(const struct tracer *t)
{
	const struct compiler *c = t->c;

	if (c->dialect_017 || t->child_pid > 0 || t->target_pid)
		return false;
	for (int i = 0; i < c->nprogs; i++)
		if (c->progs[i].probe.ops->stage == STAGE_ATTACH ||
		    c->progs[i].probe.ops->stage == STAGE_WATCH ||
		    c->progs[i].probe.ops->stage == STAGE_SIGNAL)
			return false;
	return true;
}

/* SIGUSR1: the self:signal:SIGUSR1 probes, in order; bpftrace 0.17
 * printed every map instead, which 0.26 left to the script. */
static void on_usr1(struct tracer *t)
{
	if (t->c->dialect_017)
		pr_maps(&t->pr);
	if (run_stage(t, STAGE_SIGNAL))
		t->exiting = true;	/* t->err says why */
}

/* The events, until exit(), a signal, or the end of the traced process. */
static void event_loop(struct tracer *t)
{
	struct timespec last, now;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &last);
	t->polling = true;
	while (!t->exiting && !rt_stop_signal()) {
		if (rt_target_gone(t)) {
			ring_buffer__consume(t->rb.rb);
			rt_skb_consume(t);
			break;
		}
		rc = poll_events(t, 100);
		rt_skb_consume(t);
		if (rt_take_print_request()) {
			pthread_mutex_lock(&t->print_lock);
			on_usr1(t);
			pthread_mutex_unlock(&t->print_lock);
		}
		flush(t);
		if (rc < 0 && rc != -EINTR) {
			rt_warn(t, "reading events: %s", strerror(-rc));
			break;
		}
		/* After a batch, let the next events gather for a
		 * millisecond: the kernel wakes a reader that has caught up
		 * on every event it commits (an irq_work and a wake-up, a
		 * microsecond of the traced task's time each), so a reader
		 * that polls at once doubled the cost of a busy printf
		 * probe.  Events come at most 1 ms later, and a
		 * millisecond of the fastest stream measured here (1.4
		 * million events a second) is 50 KiB of a 16 MiB ring. */
		if (rc > 0 && !t->exiting && !rt_stop_signal()) {
			struct timespec nap = { 0, 1000000 };
			nanosleep(&nap, NULL);
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec != last.tv_sec) {
			check_drops(t, false);
			last = now;
		}
	}
	t->polling = false;
}

/* After the events: END, the maps, the flame graph, the losses. */
static int finish(struct tracer *t)
{
	int rc;

	/* No more scrapes (the main thread prints alone from here), no
	 * more events from attached probes, then END. */
	rt_metrics_stop(t);
	at_detach_all(t);
	ring_buffer__consume(t->rb.rb);
	rt_skb_consume(t);
	t->exiting = false;
	rc = run_stage(t, STAGE_END);
	t->exiting = true;
	fflush(t->pr.out);
	if (t->c->print_maps && t->c->run_mode == RUN_TRACE && t->pr.dtrace)
		pr_dt_all_aggs(&t->pr);
	else if (t->c->print_maps && t->c->run_mode == RUN_TRACE)
		pr_all_maps(&t->pr);
	fflush(t->pr.out);
	if (t->flame) {
		int err = pr_flamegraph(&t->pr, t->flame);

		if (err && !rc)
			rc = rt_fail(t, err, "writing the flame graph: %s",
				     strerror(-err));
	}
	check_drops(t, true);
	rt_spec_close(t);
	return rc;
}

int rt_run(struct tracer *t)
{
	int nprobes, rc = rb_ready(&t->rb);

	if (rc || !t->rb.rb)
		return rt_fail(t, rc ? rc : -EINVAL,
			       "cannot read the ring buffer: %s",
			       strerror(rc ? -rc : EINVAL));
	rc = rt_skb_start(t);
	if (rc)
		return rc;
	nprobes = at_count(t);
	attaching(t, nprobes, false);
	/* D's BEGIN fires before any other probe is enabled: an event
	 * of another clause (or its exit()) cannot come first */
	if (t->pr.dtrace && t->dt_buftoosmall) {
		attaching(t, nprobes, true);
		return rt_fail(t, -ENOSPC, "could not enable tracing: Enabling exceeds size of buffer");
	}
	if (t->pr.dtrace && !t->dry_run) {
		/* BEGIN's records are read once every probe is enabled:
		 * a command its system() starts is then seen (its exec by
		 * proc:::exec-success), as DTrace's consumer runs it after
		 * tracing began; an exit() there keeps the others off */
		t->d_begin = true;
		rc = run_stage(t, STAGE_BEGIN);
		t->d_begin = false;
		if (!rc && !stat_sum(t, (uint32_t)STATS_DEXIT(t->c))) {
			d_gate(t, true);
			rc = at_attach_all(t, nprobes);
			d_gate(t, false);
		}
		drain(t);
		flush(t);
		if (rc)
			return rc;
		attaching(t, nprobes, true);
	} else {
		rc = at_attach_all(t, nprobes);
		if (rc)
			return rc;
		attaching(t, nprobes, true);
		if (t->dry_run)
			return 0;
		rc = run_stage(t, STAGE_BEGIN);
		flush(t);
		if (rc)
			return rc;
	}
	/* The command starts once BEGIN ran, as in bpftrace; a sh -c
	 * "exec CMD" keeps cpid the command's own pid. */
	rt_release_child(t);
	if (t->c->run_mode != RUN_TRACE) {	/* --test, --bench */
		rc = t->c->run_mode == RUN_TEST ? rt_run_tests(t) :
		     rt_run_benches(t);
		flush(t);
		return rc ? rc : finish(t);
	}
	rc = run_stage(t, STAGE_ITER);
	flush(t);
	if (rc)
		return rc;
	if (nothing_to_wait_for(t))
		t->exiting = true;
	event_loop(t);
	return finish(t);
}
