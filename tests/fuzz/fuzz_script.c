/* fuzz_script.c - fuzz target: script text through lex, parse, sema,
 * cg and asm, as `sonde --dump=bpf` (and --dump=ast) do, the dumps
 * written to /dev/null.
 *
 * The compile reads catalogues but must stay deterministic and must
 * not change the system: tracepoints come from the fixed tree
 * tests/fuzz/tracefs (compiler.tracefs: never the system's tracefs,
 * which the compile would mount), the kprobe_multi feature check
 * (which loads a program and attaches it) is marked done, and kernel
 * BTF is loaded once and lent to every compile.  uprobe and usdt
 * probes read the ELF files they name, read-only.  The positional
 * parameters are "42", "hello" and three seed ELF files with USDT
 * notes and symbols, so "usdt:$3:app:start" and "uprobe:$4:work" name
 * files that exist wherever the tree is: $3 tests/fuzz/corpus/elf/
 * usdt-static, $4 usdt-shared, $5 note32 (32-bit).
 *
 * A first line "#fuzz WORD..." sets options as the command line would
 * (and becomes a comment, "//uzz ...", for the compile): strlen=N
 * (BPFTRACE_STRLEN), keys=N (BPFTRACE_MAP_KEYS_MAX), -c (a command,
 * so cpid and watchpoints are allowed), -p (process 1), d (the script
 * is D: sonde dtrace's front end), errtags (D's -x errtags), serve (the
 * restrictions of a sonde serve session: the uid filter, no kernel
 * memory), as the scripts that come through the service compile.
 * With SONDE_FUZZ_VERBOSE set, diagnostics go to stderr;
 * SONDE_FUZZ_DIR names another tests/fuzz directory.
 *
 * #include reads files of that directory only (compiler.include_root;
 * the script's own directory is it too), never a device or a FIFO,
 * and no kernel headers: a fuzzed "#include </dev/zero>" or
 * "/proc/kmsg" neither hangs nor depends on the machine.
 */
#include "fuzz.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile.h"
#include "bpf/asm.h"
#include "lang/ast.h"

static FILE *devnull, *diag_out;
static struct arena lasting;	/* what setup() makes, kept to the end */
static const char *tracefs, *root;
static struct btf *kernel_btf;
static bool btf_tried;
static char *params[5];

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void setup(void)
{
	static const char *const elves[] = {
		"usdt-static", "usdt-shared", "note32",
	};
	const char *dir = getenv("SONDE_FUZZ_DIR");
	char *real;

	if (devnull)
		return;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		abort();
	if (!dir || !*dir)
		dir = FUZZ_DIR;
	tracefs = arena_printf(&lasting, "%s/tracefs", dir);
	real = realpath(dir, NULL);
	if (!real)
		abort();
	root = arena_strdup(&lasting, real);
	free(real);
	params[0] = "42";
	params[1] = "hello";
	for (size_t i = 0; i < ARRAY_SIZE(elves); i++)
		params[2 + i] = arena_printf(&lasting, "%s/corpus/elf/%s", dir,
					     elves[i]);
	libbpf_set_print(quiet_libbpf);
	diag_out = getenv("SONDE_FUZZ_VERBOSE") ? stderr : devnull;
}

static long word_value(const char *w, size_t n, const char *key, long lo,
		       long hi, long def)
{
	size_t k = strlen(key);
	char buf[24];
	long v;

	if (n <= k || n - k >= sizeof(buf) || memcmp(w, key, k))
		return def;
	memcpy(buf, w + k, n - k);
	buf[n - k] = 0;
	v = strtol(buf, NULL, 10);
	return v < lo ? lo : v > hi ? hi : v;
}

static void options(struct compiler *c, char *src, size_t len)
{
	const char *p = src + 5, *end = memchr(src, '\n', len);

	if (len < 5 || memcmp(src, "#fuzz", 5))
		return;
	memcpy(src, "//", 2);
	if (!end)
		end = src + len;
	while (p < end) {
		size_t n;

		while (p < end && *p == ' ')
			p++;
		n = 0;
		while (p + n < end && p[n] != ' ')
			n++;
		if (n == 2 && !memcmp(p, "-c", 2))
			c->has_command = true;
		else if (n == 1 && *p == 'd')	/* D, as sonde dtrace reads it */
			c->lang_d = c->diag.d = true;
		else if (n == 7 && !memcmp(p, "errtags", 7))
			c->diag.errtags = true;
		else if (n == 2 && !memcmp(p, "-p", 2))
			c->target_pid = 1;
		else if (n == 5 && !memcmp(p, "serve", 5)) {
			/* a sonde serve session of a user (serve_policy.c):
			 * the uid filter, no kernel memory (offsets made up:
			 * only the code is generated) */
			c->restricted = c->filter_uid_on = true;
			c->filter_uid = 1000;
			c->cred_off = 2000;
			c->euid_off = 20;
		}
		c->strlen_ = (int)word_value(p, n, "strlen=", 1, 4096, c->strlen_);
		c->map_keys_max = (int)word_value(p, n, "keys=", 1, 1 << 24,
						  c->map_keys_max);
		p += n;
	}
}

int fuzz_script(const uint8_t *data, size_t size)
{
	struct compiler c;
	char *src;

	setup();
	src = malloc(size + 1);
	if (!src)
		return 0;
	memcpy(src, data, size);
	src[size] = 0;	/* as read_file() leaves a script */
	compiler_init(&c, "fuzz.bt", src, size);
	c.diag.out = diag_out;
	c.tracefs = tracefs;
	c.kprobe_multi_checked = true;
	/* the other feature checks that load a program: as if the kernel
	 * had said no */
	c.rawtp_cookie = 0;
	c.uprobe_write_ctx = 0;
	c.params = params;
	c.nparams = (int)ARRAY_SIZE(params);
	c.include_root = root;
	c.srcdir = root;
	options(&c, src, size);
	if (!btf_tried) {
		kernel_btf = btf__load_vmlinux_btf();
		btf_tried = true;
	}
	c.btf = kernel_btf;
	c.btf_failed = !kernel_btf;

	if (!compile(&c, COMPILE_CHECK)) {
		ast_dump(devnull, c.ast);
		if (!compile(&c, COMPILE_CODE))
			for (int i = 0; i < c.nprogs; i++)
				asm_dump(devnull, &c, &c.progs[i]);
	}
	c.btf = NULL;	/* lent, not the compile's to free */
	compiler_free(&c);
	free(src);
	return 0;
}

FUZZ_ENTRY(fuzz_script)
