/* zip.h - members of ZIP archives (APKs). */
#ifndef SONDE_ZIP_H
#define SONDE_ZIP_H

#include <stdint.h>

/* Where member NAME of ARCHIVE is stored: *OFF, the offset of its first
 * byte in the file, and *SIZE.  0, -ENOENT (no such member), -ENOTSUP
 * (it is compressed, so not in the file as it is), -ENOEXEC (not a ZIP
 * archive), or another -errno. */
int zip_member(const char *archive, const char *name, uint64_t *off,
	       uint64_t *size);

#endif
