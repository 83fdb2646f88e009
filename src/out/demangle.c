/* demangle.c - C++ and Rust symbol names as people write them, through
 * libiberty's demangler (binutils': the one c++filt and gdb use),
 * linked in, the static binary too.  Its own file: libiberty's headers
 * define names (ARRAY_SIZE) sonde's own do. */
#include "out/demangle.h"

#include <string.h>

#include <libiberty/demangle.h>

char *sym_demangle(const char *name)
{
	if (strncmp(name, "_Z", 2) && strncmp(name, "_R", 2))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
}
