/* proginsns PID: the BPF programs process PID holds (from the prog_id
 * lines of its fds' fdinfo), one "name insns" line each, where insns
 * is the verifier's (xlated) instruction count, what bpftool shows. */
#include <dirent.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char **argv)
{
	char dir[64], path[512], line[256];
	DIR *d;
	struct dirent *e;

	if (argc != 2)
		return 2;
	snprintf(dir, sizeof(dir), "/proc/%s/fdinfo", argv[1]);
	d = opendir(dir);
	if (!d)
		return 1;
	while ((e = readdir(d))) {
		FILE *f;
		unsigned id = 0;

		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "prog_id: %u", &id) == 1)
				break;
		fclose(f);
		if (id) {
			union bpf_attr a;
			struct bpf_prog_info info;
			int fd;

			memset(&a, 0, sizeof(a));
			a.prog_id = id;
			fd = (int)sys_bpf(BPF_PROG_GET_FD_BY_ID, &a);
			if (fd < 0)
				continue;
			memset(&info, 0, sizeof(info));
			memset(&a, 0, sizeof(a));
			a.info.bpf_fd = (unsigned)fd;
			a.info.info_len = sizeof(info);
			a.info.info = (unsigned long)&info;
			if (!sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a))
				printf("%s %u\n", info.name, info.xlated_prog_len / 8);
			close(fd);
		}
	}
	closedir(d);
	return 0;
}
