/* zipcall.c - runs code of a library stored in a ZIP archive where it
 * lies, as Android runs an APK's libraries: maps the archive from
 * OFFSET (the member's first byte, page-aligned) executable and calls
 * int FUNC(int) at FUNCOFF in it (a function that needs no relocation)
 * N times, for uprobe:ARCHIVE!/LIB:FUNC (tests/run/uprobe_zip.sh).
 *
 * usage: zipcall ARCHIVE OFFSET FUNCOFF N
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long off, foff, n, sum = 0;
	int (*fn)(int);
	char *base;
	int fd;

	if (argc != 5) {
		fputs("usage: zipcall ARCHIVE OFFSET FUNCOFF N\n", stderr);
		return 2;
	}
	off = strtol(argv[2], NULL, 0);
	foff = strtol(argv[3], NULL, 0);
	n = strtol(argv[4], NULL, 0);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	base = mmap(NULL, (size_t)foff + 4096, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE, fd, off);
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	fn = (int (*)(int))(void *)(base + foff);
	for (long i = 0; i < n; i++)
		sum += fn((int)i);
	printf("%ld\n", sum);
	return 0;
}
