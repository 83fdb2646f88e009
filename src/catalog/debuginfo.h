/* debuginfo.h - debug information found elsewhere than beside the file
 * (debuginfo.c): MiniDebugInfo, debuginfod. */
#ifndef SONDE_DEBUGINFO_H
#define SONDE_DEBUGINFO_H

#include <libelf.h>

/* The debug file of build id HEX from the debuginfod servers of
 * DEBUGINFOD_URLS (unset or empty: none asked), through libdebuginfod
 * or else debuginfod-find; its path in the client's cache, malloc'd,
 * or NULL. */
char *debuginfod_path(const char *hex);

/* E's MiniDebugInfo (.gnu_debugdata) decompressed, as an ELF handle
 * whose image *IMAGE the caller frees after elf_end(); NULL when E has
 * none or it does not decompress. */
Elf *minidebuginfo(Elf *e, void **image);

#endif
