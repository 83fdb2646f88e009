/* fuzz.h - the fuzz targets' entry points (docs/fuzzing.md).
 *
 * Each fuzz_NAME.c defines fuzz_NAME(), which takes one input and
 * returns 0, as libFuzzer's LLVMFuzzerTestOneInput does.  Built with
 * -DSONDE_LIBFUZZER (make fuzz, clang) the file also defines
 * LLVMFuzzerTestOneInput; built without it (gcc, make check) the entry
 * points are linked into tests/unit/test_fuzz.c, which replays the
 * regression inputs and the seed corpora through them.
 */
#ifndef SONDE_FUZZ_H
#define SONDE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int fuzz_script(const uint8_t *data, size_t size);
int fuzz_elf(const uint8_t *data, size_t size);
int fuzz_format(const uint8_t *data, size_t size);
int fuzz_proto(const uint8_t *data, size_t size);

#ifdef SONDE_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#define FUZZ_ENTRY(fn)							\
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)	\
	{								\
		return fn(data, size);					\
	}
#else
#define FUZZ_ENTRY(fn)
#endif

/* The directory of the fuzz files (the fixed tracefs tree tracefs/,
 * the seed ELF files of corpus/elf/): $SONDE_FUZZ_DIR, else tests/fuzz
 * of the tree the targets were built from (FUZZ_DIR, set by the
 * Makefile). */
#ifndef FUZZ_DIR
#define FUZZ_DIR "tests/fuzz"
#endif

#endif
