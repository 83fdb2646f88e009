/* skbout.c - skboutput()'s packets: the perf event array the programs
 * write them to (bpf_skb_output has no ring buffer form), read with
 * libbpf's perf buffer beside the ring buffer, and each packet written
 * to its pcap file (out/pcap.c).  A sample is the header cg_skboutput()
 * builds, {u64 path index, u64 offset, u64 ktime ns, u64 length}, then
 * LENGTH bytes of the packet (and the kernel's padding to 8 bytes). */
#include "run/tracer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/pcap.h"

#define SKB_HEADER 32
#define SKB_PAGES 64	/* bpftrace's pages per CPU by default */

static void on_sample(void *ctx, int cpu, void *data, __u32 size)
{
	struct tracer *t = ctx;
	const uint8_t *p = data;
	uint64_t h[4];

	(void)cpu;
	if (size < SKB_HEADER)
		return;
	memcpy(h, p, sizeof(h));
	if (h[0] >= (uint64_t)t->c->nskb_paths || !t->pcaps[h[0]])
		return;
	if (h[3] > size - SKB_HEADER)	/* never: the kernel copied it */
		h[3] = size - SKB_HEADER;
	if (h[1] > h[3])
		h[1] = h[3];
	if (pcap_write(t->pcaps[h[0]], h[2] + (uint64_t)t->pr.mono_to_epoch,
		       p + SKB_HEADER + h[1], (uint32_t)(h[3] - h[1])))
		t->skb_failed++;
}

static void on_lost(void *ctx, int cpu, __u64 n)
{
	struct tracer *t = ctx;

	(void)cpu;
	t->skb_lost += n;
}

/* Perf buffers take a power of two of pages per CPU. */
static size_t pow2_pages(long pages)
{
	size_t n = 1;

	if (pages <= 0)
		return SKB_PAGES;
	while (n < (size_t)pages)
		n <<= 1;
	return n;
}

int rt_skb_start(struct tracer *t)
{
	struct compiler *c = t->c;

	if (!c->nskb_paths)
		return 0;
	t->pcaps = xcalloc((size_t)c->nskb_paths, sizeof(*t->pcaps));
	for (int i = 0; i < c->nskb_paths; i++) {
		t->pcaps[i] = pcap_open(c->skb_paths[i]);
		if (!t->pcaps[i])
			return rt_fail(t, -errno, "skboutput(): cannot write %s: %s",
				       c->skb_paths[i], strerror(errno));
	}
	t->skb_pb = perf_buffer__new(t->skb_fd, pow2_pages(t->skb_pages),
				     on_sample, on_lost, t, NULL);
	if (!t->skb_pb) {
		int err = errno;

		return rt_fail(t, -err, "skboutput(): cannot open the perf buffer: %s",
			       strerror(err));
	}
	return 0;
}

void rt_skb_consume(struct tracer *t)
{
	if (!t->skb_pb)
		return;
	perf_buffer__consume(t->skb_pb);
	for (int i = 0; i < t->c->nskb_paths; i++)
		if (t->pcaps[i])
			fflush(t->pcaps[i]);
}

void rt_skb_close(struct tracer *t)
{
	perf_buffer__free(t->skb_pb);
	t->skb_pb = NULL;
	for (int i = 0; t->pcaps && i < t->c->nskb_paths; i++)
		if (t->pcaps[i] && fclose(t->pcaps[i]))
			t->skb_failed++;
	free(t->pcaps);
	t->pcaps = NULL;
	if (t->skb_lost)
		rt_warn(t, "skboutput(): %llu packets lost (raise BPFTRACE_PERF_RB_PAGES)",
			(unsigned long long)t->skb_lost);
	if (t->skb_failed)
		rt_warn(t, "skboutput(): %llu packets not written to their files",
			(unsigned long long)t->skb_failed);
	t->skb_lost = t->skb_failed = 0;
	if (t->skb_fd >= 0)
		close(t->skb_fd);
	t->skb_fd = -1;
}
