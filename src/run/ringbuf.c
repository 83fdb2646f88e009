/* ringbuf.c - the ring buffer and the thread that makes it.
 *
 * Its pages are mapped (and count as resident) twice, and making and
 * mapping them is most of a script's start (8 MiB: 3.3 ms to make,
 * 1.4 ms to map here), so its size follows need.  Scripts driven
 * only by BEGIN, END, interval and iter get a small one; scripts on
 * kernel events 512 KiB per CPU, as many CPUs fill it at once
 * (bpftrace gives each CPU 256 KiB of perf buffer), at least 16 MiB
 * and at most 64 MiB, a power of two as the kernel wants.  16 MiB is
 * what a burst of a million printf events from one busy core needs
 * for none to be lost while the reader shares two busy CPUs with
 * other work (8 MiB lost some in half the runs, docs/performance.md).  What a stalled reader
 * loses is counted and reported.  --ringbuf-size and
 * BPFTRACE_PERF_RB_PAGES choose another size.
 *
 * It is made, then mapped (ring_buffer__new), by a second thread
 * started as soon as the script is parsed: making it overlaps the
 * compile and the making of the script's maps, mapping it the loading
 * and attaching of the programs, so that most of its cost (1.5 ms for
 * 4 MiB here) is off the path to the first event.  The thread says
 * nothing: the loader reports a failure once the script's maps are
 * made, so that a failure common to all (not root) is said once.
 */
#include "run/ringbuf.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <unistd.h>

#define RINGBUF_SMALL (1 << 18)
#define RINGBUF_PER_CPU (1 << 19)
#define RINGBUF_MIN (1 << 24)
#define RINGBUF_MAX (1 << 26)

/* WANT bytes rounded up to a power of two, at least a page and at most
 * RB_SIZE_MAX. */
static int round_size(long want)
{
	long page = sysconf(_SC_PAGESIZE), n = page > 0 ? page : 4096;

	while (n < want && n < RB_SIZE_MAX)
		n *= 2;
	return (int)n;
}

int rb_size(bool quiet, int ncpus, long bytes, long pages)
{
	long want = (long)ncpus * RINGBUF_PER_CPU;
	int n = RINGBUF_MIN;

	if (bytes > 0)
		return round_size(bytes);
	if (pages > 0)
		return round_size(pages * sysconf(_SC_PAGESIZE) * ncpus);
	if (quiet)
		return RINGBUF_SMALL;
	while (n < want && n < RINGBUF_MAX)
		n *= 2;
	return n;
}

static void *make(void *arg)
{
	struct ringbuf *r = arg;
	int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "sonde_events", 0, 0,
				(uint32_t)r->size, NULL);
	int err = fd < 0 ? -errno : 0;

	pthread_mutex_lock(&r->lock);
	r->fd = fd;
	r->err = err;
	r->made = true;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->lock);
	if (fd >= 0) {
		r->rb = ring_buffer__new(fd, r->fn, r->ctx, NULL);
		if (!r->rb)
			r->map_err = -errno;
	}
	return NULL;
}

void rb_start(struct ringbuf *r, int size, rb_sample_fn fn, void *ctx)
{
	if (r->started)
		return;
	r->fd = -1;
	r->size = size;
	r->fn = fn;
	r->ctx = ctx;
	r->started = true;
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	r->threaded = !pthread_create(&r->thread, NULL, make, r);
	if (!r->threaded)
		make(r);
}

int rb_fd(struct ringbuf *r)
{
	if (!r->started)
		return -EINVAL;
	pthread_mutex_lock(&r->lock);
	while (!r->made)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	return r->err ? r->err : r->fd;
}

int rb_ready(struct ringbuf *r)
{
	if (!r->started)
		return -EINVAL;
	if (r->threaded) {
		pthread_join(r->thread, NULL);
		r->threaded = false;
	}
	return r->err ? r->err : r->map_err;
}

void rb_close(struct ringbuf *r)
{
	if (!r->started)
		return;
	rb_ready(r);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	if (r->rb)
		ring_buffer__free(r->rb);
	r->rb = NULL;
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
	r->started = false;
}
