/* zip.c - a member of a ZIP archive, found through the archive's
 * central directory: where its bytes are, for an ELF library stored
 * (not compressed) in an archive and mapped from it in place, as
 * Android maps the libraries of an APK (uprobe:APP.apk!/lib/x.so:f). */
#include "catalog/zip.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EOCD_SIG 0x06054b50u
#define CDIR_SIG 0x02014b50u
#define LOCAL_SIG 0x04034b50u

static uint32_t u16(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t u32(const unsigned char *p)
{
	return u16(p) | u16(p + 2) << 16;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	ssize_t r = pread(fd, buf, n, (off_t)off);

	return r == (ssize_t)n ? 0 : -ENOEXEC;
}

/* The end of central directory record: its offset in the last 64 KiB
 * and 22 bytes of the file (a comment may follow it), or -ENOEXEC. */
static int64_t find_eocd(int fd, uint64_t fsize, unsigned char *rec)
{
	size_t n = fsize < 65557 ? (size_t)fsize : 65557;
	unsigned char *tail = malloc(n ? n : 1);
	int64_t at = -ENOEXEC;

	if (n < 22 || read_at(fd, tail, n, fsize - n)) {
		free(tail);
		return -ENOEXEC;
	}
	for (size_t i = n - 22 + 1; i-- > 0;) {
		if (u32(tail + i) == EOCD_SIG) {
			memcpy(rec, tail + i, 22);
			at = (int64_t)(fsize - n + i);
			break;
		}
	}
	free(tail);
	return at;
}

int zip_member(const char *archive, const char *name, uint64_t *off,
	       uint64_t *size)
{
	unsigned char eocd[22], h[46], local[30];
	size_t nlen = strlen(name);
	uint64_t at, end;
	uint32_t count;
	char *ename = malloc(nlen + 1);
	struct stat sb;
	int fd, rc = -ENOENT;

	fd = open(archive, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !ename) {
		rc = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	if (fstat(fd, &sb) || find_eocd(fd, (uint64_t)sb.st_size, eocd) < 0) {
		rc = -ENOEXEC;
		goto out;
	}
	count = u16(eocd + 10);
	at = u32(eocd + 16);
	end = at + u32(eocd + 12);
	for (uint32_t i = 0; i < count && at < end; i++) {
		uint32_t method, elen, clen, len;

		if (read_at(fd, h, sizeof(h), at) || u32(h) != CDIR_SIG) {
			rc = -ENOEXEC;
			goto out;
		}
		method = u16(h + 10);
		len = u16(h + 28);
		elen = u16(h + 30);
		clen = u16(h + 32);
		if (len == nlen && !read_at(fd, ename, len, at + 46) &&
		    !memcmp(ename, name, len)) {
			uint64_t lho = u32(h + 42);

			if (method != 0) {
				rc = -ENOTSUP;	/* compressed */
				goto out;
			}
			if (read_at(fd, local, sizeof(local), lho) ||
			    u32(local) != LOCAL_SIG) {
				rc = -ENOEXEC;
				goto out;
			}
			*off = lho + 30 + u16(local + 26) + u16(local + 28);
			*size = u32(h + 24);
			rc = *off + *size <= (uint64_t)sb.st_size ? 0 : -ENOEXEC;
			goto out;
		}
		at += 46 + len + elen + clen;
	}
out:
	if (fd >= 0)
		close(fd);
	free(ename);
	return rc;
}
