/* info.c - what this kernel offers, one "name: yes|no" per line. */
#include "info.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int map_ok(enum bpf_map_type type, int k, int v, int n)
{
	int fd = bpf_map_create(type, NULL, (uint32_t)k, (uint32_t)v,
				(uint32_t)n, NULL);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static const char *yn(int b)
{
	return b ? "yes" : "no";
}

int info_print(FILE *f)
{
	int bpf = map_ok(BPF_MAP_TYPE_ARRAY, 4, 8, 1);

	fprintf(f, "version: sonde 0.1.0, libbpf %d.%d\n",
		LIBBPF_MAJOR_VERSION, LIBBPF_MINOR_VERSION);
	fprintf(f, "bpf: %s\n", yn(bpf));
	fprintf(f, "ringbuf: %s\n", yn(bpf && map_ok(BPF_MAP_TYPE_RINGBUF, 0, 0, 4096)));
	fprintf(f, "percpu_hash: %s\n", yn(bpf && map_ok(BPF_MAP_TYPE_PERCPU_HASH, 8, 8, 16)));
	fprintf(f, "btf: %s\n", yn(exists("/sys/kernel/btf/vmlinux")));
	fprintf(f, "kprobe: %s\n", yn(exists("/sys/bus/event_source/devices/kprobe")));
	fprintf(f, "uprobe: %s\n", yn(exists("/sys/bus/event_source/devices/uprobe")));
	/* usdt semaphores through the uprobe reference counter */
	fprintf(f, "uprobe_ref_ctr: %s\n",
		yn(exists("/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset")));
	fprintf(f, "perf_event: %s\n", yn(exists("/proc/sys/kernel/perf_event_paranoid")));
	fprintf(f, "tracefs: %s\n", yn(exists("/sys/kernel/tracing/events") ||
				       exists("/sys/kernel/debug/tracing/events")));
	return 0;
}
