/* proginsns [-t] PID: the BPF programs process PID holds, one "id name
 * insns" line each, where insns is the verifier's (xlated) instruction
 * count, what bpftool shows; with -t also the runs and the nanoseconds
 * they took (kernel.bpf_stats_enabled=1 counts them).  A program is found through the prog_id line of
 * the fdinfo of each fd naming it: its own fd and any BPF link to it,
 * so a program is listed once per id, not once per fd. */
#include <dirent.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_PROGS 4096

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static int times;

static void show(unsigned id)
{
	union bpf_attr a;
	struct bpf_prog_info info;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_id = id;
	fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (unsigned)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (unsigned long)&info;
	if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a)) {
		printf("%u %s %u", id, info.name[0] ? info.name : "-",
		       info.xlated_prog_len / 8);
		if (times)
			printf(" %llu %llu", (unsigned long long)info.run_cnt,
			       (unsigned long long)info.run_time_ns);
		putchar('\n');
	}
	close(fd);
}

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* in the order of their ids, which is the order they were loaded */
int main(int argc, char **argv)
{
	static unsigned ids[MAX_PROGS];
	char dir[64], path[512], line[256];
	int n = 0;
	DIR *d;
	struct dirent *e;

	if (argc == 3 && !strcmp(argv[1], "-t")) {
		times = 1;
		argv++;
		argc--;
	}
	if (argc != 2)
		return 2;
	snprintf(dir, sizeof(dir), "/proc/%s/fdinfo", argv[1]);
	d = opendir(dir);
	if (!d)
		return 1;
	while ((e = readdir(d))) {
		FILE *f;
		unsigned id = 0;
		int i;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "prog_id: %u", &id) == 1)
				break;
		fclose(f);
		for (i = 0; i < n && ids[i] != id; i++)
			;
		if (id && i == n && n < MAX_PROGS)
			ids[n++] = id;
	}
	closedir(d);
	qsort(ids, (size_t)n, sizeof(ids[0]), cmp);
	for (int i = 0; i < n; i++)
		show(ids[i]);
	return 0;
}
