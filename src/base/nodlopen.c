/* nodlopen.c - the static binary loads no shared library: its link
 * (the Makefile's STATIC_LIBS) wraps dlopen() to this, which refuses.
 * libdw's debuginfod client dlopen()s libdebuginfod.so when
 * DEBUGINFOD_URLS is set, and a shared library loaded into a static
 * program brings a second libc; sonde's static build asks debuginfod
 * through debuginfod-find instead (catalog/debuginfo.c).  The dynamic
 * build does not wrap dlopen, and this function goes unused there. */
#include <stddef.h>

void *__wrap_dlopen(const char *file, int mode);

void *__wrap_dlopen(const char *file, int mode)
{
	(void)file;
	(void)mode;
	return NULL;
}
