/* debuginfo.c - debug information that is not beside the file: the
 * MiniDebugInfo a file carries in .gnu_debugdata, and debuginfod
 * servers.
 *
 * MiniDebugInfo (Fedora's and others' find-debuginfo): an xz-compressed
 * ELF file holding the .symtab of the functions .dynsym lacks, in a
 * section of the stripped file itself; liblzma decompresses it.
 *
 * debuginfod: elfutils' protocol, a server that hands out a file's
 * debug information by its build id.  The user allows it by setting
 * DEBUGINFOD_URLS, as for every elfutils tool; the client's cache
 * (DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client) keeps what
 * was fetched.  The dynamic build links libdebuginfod, weakly: the
 * static one has no libdebuginfod (it needs libcurl, which does not
 * link statically here), so there the symbols are NULL and sonde runs
 * elfutils' debuginfod-find instead, where it is installed.
 */
#include "catalog/debuginfo.h"

#include <elfutils/debuginfod.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <lzma.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"

#pragma weak debuginfod_begin
#pragma weak debuginfod_end
#pragma weak debuginfod_find_debuginfo

extern char **environ;

/* Run "debuginfod-find debuginfo HEX": the path it prints, or NULL. */
static char *find_by_program(const char *hex)
{
	char *argv[] = { "debuginfod-find", "debuginfo", (char *)hex, NULL };
	posix_spawn_file_actions_t fa;
	char buf[4096];
	size_t n = 0;
	ssize_t r;
	int p[2], status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) != 0)
		return NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "debuginfod-find", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(p[0]);
		close(p[1]);
		return NULL;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	while (n < sizeof(buf) - 1 &&
	       (r = read(p[0], buf + n, sizeof(buf) - 1 - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += (size_t)r;
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) || buf[0] != '/')
		return NULL;
	return xstrdup(buf);
}

char *debuginfod_path(const char *hex)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	debuginfod_client *c;
	char *path = NULL;
	int fd;

	if (!urls || !*urls || !hex || !*hex)
		return NULL;
	if (!debuginfod_begin)
		return find_by_program(hex);
	c = debuginfod_begin();
	if (!c)
		return NULL;
	fd = debuginfod_find_debuginfo(c, (const unsigned char *)hex, 0, &path);
	debuginfod_end(c);
	if (fd < 0)
		return NULL;
	close(fd);
	return path;
}

Elf *minidebuginfo(Elf *e, void **image)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	*image = NULL;
	if (elf_getshdrstrndx(e, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;
		uint64_t limit = UINT64_MAX;
		size_t in = 0, out = 0, cap;
		uint8_t *buf;
		lzma_ret rc;
		Elf *m;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".gnu_debugdata"))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || !d->d_size)
			return NULL;
		cap = d->d_size * 8 + 4096;
		buf = xmalloc(cap);
		for (;;) {
			in = out = 0;
			rc = lzma_stream_buffer_decode(&limit, 0, NULL, d->d_buf,
						       &in, d->d_size, buf, &out,
						       cap);
			if (rc != LZMA_BUF_ERROR || cap > (256u << 20))
				break;
			cap *= 2;	/* too small: again, larger */
			buf = xrealloc(buf, cap);
		}
		if (rc != LZMA_OK) {
			free(buf);
			return NULL;
		}
		m = elf_memory((char *)buf, out);
		if (!m || elf_kind(m) != ELF_K_ELF) {
			if (m)
				elf_end(m);
			free(buf);
			return NULL;
		}
		*image = buf;
		return m;
	}
	return NULL;
}
