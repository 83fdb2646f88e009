/* bpfprogs: print the name of every BPF program loaded in the kernel,
 * one per line (what `bpftool prog list` shows), with the raw bpf()
 * system call so that it needs no library. */
#include <linux/bpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int main(void)
{
	unsigned int id = 0;

	for (;;) {
		union bpf_attr a;
		struct bpf_prog_info info;
		int fd;

		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (sys_bpf(BPF_PROG_GET_NEXT_ID, &a))
			break;
		id = a.next_id;
		memset(&a, 0, sizeof(a));
		a.prog_id = id;
		fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		memset(&a, 0, sizeof(a));
		a.info.bpf_fd = (unsigned int)fd;
		a.info.info_len = sizeof(info);
		a.info.info = (unsigned long)&info;
		if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a))
			printf("%u %s\n", id, info.name);
		close(fd);
	}
	return 0;
}
