/* ringbuf.h - the BPF ring buffer the programs send their records
 * through.  It is made and mapped by a second thread, started as soon
 * as a script that will run is parsed, so that its cost overlaps the
 * compile: the loader waits only for its fd, the event loop for its
 * mapping. */
#ifndef SONDE_RINGBUF_H
#define SONDE_RINGBUF_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct ring_buffer;

/* Called for each record, with the CTX given to rb_start. */
typedef int (*rb_sample_fn)(void *ctx, void *data, size_t size);

struct ringbuf {
	int fd;			/* the map; -1 until made */
	int size;		/* bytes */
	int err;		/* making it failed: -errno */
	int map_err;		/* mapping it failed: -errno */
	struct ring_buffer *rb;	/* the mapping the event loop reads */
	rb_sample_fn fn;
	void *ctx;
	bool started, threaded, made;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* The largest ring buffer sonde makes (1 GiB). */
#define RB_SIZE_MAX (1L << 30)

/* The size for a script: BYTES (--ringbuf-size) or else PAGES per CPU
 * (BPFTRACE_PERF_RB_PAGES), rounded up to a power of two, when given
 * (> 0); else small when its probes send few events (QUIET: timers, or
 * blocks that only aggregate), else enough for NCPUS busy CPUs. */
int rb_size(bool quiet, int ncpus, long bytes, long pages);
/* Start making and mapping a ring buffer of SIZE bytes whose records
 * go to FN(CTX); a second call does nothing. */
void rb_start(struct ringbuf *r, int size, rb_sample_fn fn, void *ctx);
/* Wait until the map exists: its fd, or -errno. */
int rb_fd(struct ringbuf *r);
/* Wait until it is mapped for reading: 0 or -errno. */
int rb_ready(struct ringbuf *r);
/* Join the thread and free the mapping and the map (any state). */
void rb_close(struct ringbuf *r);

#endif
