# Makefile for sonde (GNU make).
#
#   make              build ./sonde             make check       all tests
#   make run          install deps, run a demo  make check-unit  no-root tests only
#                                               make check-host  no-root and root tiers
#   make deps         apt-get missing packages  make clean
#   make static       ./sonde as one static, stripped executable (libbpf.a, libdw.a,
#                     libelf.a, libbz2.a, liblzma.a, libz.a)
#   make vm-check     the guest tier alone (kprobes, fentry: qemu, docs/guest.md)
#   make bench        sonde against bpftrace, as ratios (docs/performance.md)
#   make install      sonde, its man pages, <sonde/sdt.h>, sonde.pc, bash
#                     completion, examples and the standard library
#                     (share/sonde/stdlib, as built in) under DESTDIR/PREFIX
#                     (PREFIX=/usr/local by default); make uninstall
#   make man          docs/sonde-language.7 from docs/language.md
#   make stress       sonde under load, as root, ~3 minutes (tests/stress/run.sh)
#   make fuzz         the libFuzzer targets in build/fuzz/ (needs clang; docs/fuzzing.md)
#   make fuzz-run SECONDS=N   run each target N seconds (default 60) over its corpus
#
# Switches: V=1 (show commands), WERROR=1, ASAN=1, UBSAN=1,
#           TESTFLAGS=-v (passed to tests/run-tests.sh).
# build/.flags records the compiler flags; changing a switch rebuilds
# every object, so sanitizer and plain objects can never be mixed.

CC       ?= cc
# liblzma: MiniDebugInfo
PKGS     := libbpf libdw libelf zlib libevent liblzma
DEB_PKGS := gcc make pkg-config libbpf-dev libdw-dev libelf-dev zlib1g-dev \
            libbz2-dev liblzma-dev libevent-dev libiberty-dev \
            libdebuginfod-dev linux-libc-dev \
            python3

# CFLAGS (default -O2 -g), CPPFLAGS and LDFLAGS given by the user come
# after ours.
CFLAGS   ?= -O2 -g
XCFLAGS  := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wno-unused-parameter -Wpointer-arith -Wformat=2
XCPPFLAGS := -Isrc $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
XLDFLAGS :=
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# libiberty: binutils' demangler (C++, Rust), a static archive only
# libdebuginfod: the dynamic build's debuginfod client, named only
# weakly by catalog/debuginfo.c (the static build has none and runs
# debuginfod-find), so kept NEEDED by hand
LDLIBS   := $(if $(PKG_LIBS),$(PKG_LIBS),-lbpf -ldw -lelf -lz -levent -llzma) -liberty \
            -Wl,--push-state,--no-as-needed -ldebuginfod -Wl,--pop-state -pthread

ifeq ($(WERROR),1)
XCFLAGS  += -Werror
endif
ifeq ($(ASAN),1)
XCFLAGS  += -fsanitize=address -fno-omit-frame-pointer
XLDFLAGS += -fsanitize=address
endif
ifeq ($(UBSAN),1)
XCFLAGS  += -fsanitize=undefined -fno-sanitize-recover=all
XLDFLAGS += -fsanitize=undefined -fno-sanitize-recover=all
endif
ALL_CFLAGS  := $(XCPPFLAGS) $(CPPFLAGS) $(XCFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(XLDFLAGS) $(LDFLAGS)

ifeq ($(V),1)
Q   :=
msg  = @true
else
Q   := @
msg  = @printf '  %-3s %s\n'
endif

B         := build
# One folder per layer (docs/internals.md); objects mirror it under $(B)/obj.
SRCS      := $(sort $(wildcard src/*.c src/*/*.c))
OBJS      := $(SRCS:src/%.c=$(B)/obj/%.o)
LIB_OBJS  := $(filter-out $(B)/obj/main.o,$(OBJS))
TEST_SRCS := $(sort $(wildcard tests/unit/test_*.c))
TEST_BINS := $(TEST_SRCS:tests/unit/%.c=$(B)/tests/%)
# Trigger programs of the root-tier tests: plain flags (no sanitizer,
# whose start-up and exit would add system calls the tests count).
PROG_SRCS := $(sort $(wildcard tests/progs/*.c))
PROG_BINS := $(PROG_SRCS:tests/progs/%.c=$(B)/progs/%)
# The fuzz targets' entry points (tests/fuzz/fuzz_NAME.c): built with
# clang and libFuzzer by "make fuzz", and with $(CC) into the unit test
# test_fuzz, which replays tests/fuzz/'s inputs in make check.
FUZZ_NAMES := script elf format proto
FUZZ_DEFS  := -DFUZZ_DIR='"$(CURDIR)/tests/fuzz"'
FUZZ_ENTRY_OBJS := $(FUZZ_NAMES:%=$(B)/tests/fuzz_%.o)
# Load generators of make stress, built the same way.
STRESS_SRCS := $(sort $(wildcard tests/stress/*.c))
STRESS_BINS := $(STRESS_SRCS:tests/stress/%.c=$(B)/stress/%)
DEPS      := $(OBJS:.o=.d) $(TEST_BINS:=.d) $(PROG_BINS:=.d) $(STRESS_BINS:=.d) \
             $(FUZZ_ENTRY_OBJS:.o=.d)

# Everything that changes the produced code; see build/.flags above.
CONFIG := $(CC) $(ALL_CFLAGS) | $(ALL_LDFLAGS) $(LDLIBS)

DEMO := BEGIN { printf("sonde: counting ticks for 3 seconds\n"); } \
	interval:ms:100 { @ticks = count(); } interval:s:3 { exit(); } \
	END { printf("done\n"); }

.PHONY: all deps run check check-unit check-host vm-check install uninstall man unit-tests progs static bench stress \
	fuzz fuzz-run clean FORCE
.DEFAULT_GOAL := all

all: sonde

sonde: $(OBJS) $(B)/.flags
	$(msg) LD $@
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

# One fully static executable (libbpf.a, libdw.a, libelf.a, libc.a and
# the decompressors libdw reads compressed debug files with: libbz2.a,
# liblzma.a, libz.a, all from Debian), stripped: it runs where none of
# those libraries is installed.  Debian 12's libdw (0.188) is built
# without zstd.
# "make static" puts it at ./sonde; $(B)/sonde-static is the same file
# for the test that checks it.
# dlopen wrapped: no shared library in the static binary (base/nodlopen.c)
STATIC_LIBS := -Wl,--wrap=dlopen -lbpf -ldw -lelf -lbz2 -llzma -lz -levent \
               -liberty -pthread
$(B)/sonde-static: $(OBJS) $(B)/.flags
	$(msg) LD $@
	$(Q)rm -f $@
	$(Q)$(CC) $(ALL_LDFLAGS) -static -s -o $@ $(OBJS) $(STATIC_LIBS) 2>&1 | \
		grep -v "statically linked applications requires at runtime" | \
		grep -v "in function" >&2 || true
	$(Q)test -x $@

static: $(B)/sonde-static
	$(Q)cp $(B)/sonde-static sonde

$(B)/obj/%.o: src/%.c $(B)/.flags
	@mkdir -p $(@D)
	$(msg) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# sonde dtrace -h embeds include/sonde/sdt.h: as a C string literal.
$(B)/sdt_h.inc: include/sonde/sdt.h
	@mkdir -p $(@D)
	$(msg) GEN $@
	$(Q)sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(B)/obj/dtrace/dtrace.o: $(B)/sdt_h.inc
$(B)/obj/dtrace/dtrace.o: ALL_CFLAGS += -I$(B)

# The standard library (src/stdlib/*.bt, lang/stdlib.c): each file
# as { "NAME", "TEXT" }, its text a C string literal.
STDLIB_SRCS := $(sort $(wildcard src/stdlib/*.bt))
$(B)/stdlib.inc: $(STDLIB_SRCS) Makefile
	@mkdir -p $(@D)
	$(msg) GEN $@
	$(Q)for f in $(STDLIB_SRCS); do \
		printf '{ "%s",\n' "$${f##*/}"; \
		sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$f; \
		printf '},\n'; \
	done > $@.tmp && mv $@.tmp $@
$(B)/obj/lang/stdlib.o: $(B)/stdlib.inc
$(B)/obj/lang/stdlib.o: ALL_CFLAGS += -I$(B)
$(B)/fuzz/obj/lang/stdlib.o: $(B)/stdlib.inc

# The integer #defines of the kernel's UAPI headers (linux-libc-dev),
# as a table in sonde (src/catalog/kconst.c, tools/gen-kconst); an
# empty one without the headers or python3.
KCONST_DIR  := /usr/include
KCONST_ARCH := $(KCONST_DIR)/$(shell $(CC) -print-multiarch 2>/dev/null)/asm
KCONST_DEPS := $(wildcard $(KCONST_DIR)/linux/version.h)
$(B)/kconst.inc: tools/gen-kconst $(KCONST_DEPS)
	@mkdir -p $(@D)
	$(msg) GEN $@
	$(Q)if command -v python3 >/dev/null 2>&1; then \
		python3 tools/gen-kconst $(KCONST_DIR) $(KCONST_ARCH) > $@.tmp; \
	else \
		echo "warning: no python3: sonde is built without the UAPI constants" >&2; \
		printf '%s\n' '#define KC_COUNT 0' '#define KC_BLOCK 16' \
			'static const unsigned char kc_names[] = { 0 };' \
			'static const unsigned kc_blocks[] = { 0 };' > $@.tmp; \
	fi && mv $@.tmp $@
$(B)/obj/catalog/kconst.o: $(B)/kconst.inc
$(B)/obj/catalog/kconst.o: ALL_CFLAGS += -I$(B)

$(B)/tests/%: tests/unit/%.c $(LIB_OBJS) $(B)/.flags
	@mkdir -p $(@D)
	$(msg) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -MMD -MP -MF $@.d -MT $@ \
		-o $@ $< $(TEST_OBJS) $(LIB_OBJS) $(LDLIBS)

$(B)/tests/fuzz_%.o: tests/fuzz/fuzz_%.c $(B)/.flags
	@mkdir -p $(@D)
	$(msg) CC $<
	$(Q)$(CC) $(ALL_CFLAGS) $(FUZZ_DEFS) -MMD -MP -c -o $@ $<
$(B)/tests/test_fuzz: $(FUZZ_ENTRY_OBJS)
$(B)/tests/test_fuzz: TEST_OBJS = $(FUZZ_ENTRY_OBJS)

$(B)/progs/%: tests/progs/%.c
	@mkdir -p $(@D)
	$(msg) CC $<
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -Iinclude -O1 -g -Wall -Wextra \
		$(PROG_FLAGS) \
		$(if $(filter 1,$(WERROR)),-Werror) -MMD -MP -MF $@.d -MT $@ -o $@ $<
# The kernel walks user stacks by frame pointers: the flame graph tests
# need every frame of stacks.c.
$(B)/progs/stacks: PROG_FLAGS := -fno-omit-frame-pointer
# No frame pointers and -O2: the DWARF unwinding tests need CFI alone.
$(B)/progs/deepstack: PROG_FLAGS := -O2 -fomit-frame-pointer
$(B)/progs/jitmap: PROG_FLAGS := -O2 -fomit-frame-pointer

# Frame pointers: the forks case walks their user stacks.
$(B)/stress/%: tests/stress/%.c
	@mkdir -p $(@D)
	$(msg) CC $<
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer -Wall -Wextra \
		$(if $(filter 1,$(WERROR)),-Werror) -MMD -MP -MF $@.d -MT $@ -o $@ $<

# Rewritten only when the flags differ, so its date moves only then.
$(B)/.flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(CONFIG)' | cmp -s - $@ || printf '%s\n' '$(CONFIG)' > $@

FORCE:

unit-tests: $(TEST_BINS)

progs: $(PROG_BINS)

# the static binary cannot be built with sanitizers
STATIC_FOR_CHECK := $(if $(filter 1,$(ASAN) $(UBSAN)),,$(B)/sonde-static)
check: all unit-tests progs $(STATIC_FOR_CHECK)
	$(Q)tests/run-tests.sh $(TESTFLAGS)

check-unit: all unit-tests
	$(Q)tests/run-tests.sh --unit $(TESTFLAGS)

# the no-root and root tiers, without the guest: CI runs them under
# the sanitizers (the guest tier builds its own static sonde)
check-host: all unit-tests progs
	$(Q)tests/run-tests.sh --host $(TESTFLAGS)

# make check runs this tier too (tests/run-tests.sh); vm-run builds its
# own static sonde.
vm-check:
	$(Q)tools/vm-run

# sonde against bpftrace (when installed), as root; docs/performance.md
bench: all
	$(Q)bench/bench.sh

# sonde under load (root): many probes, many keys, heavy output, many
# processes; STRESS_SECONDS and friends in tests/stress/run.sh
stress: all progs $(STRESS_BINS)
	$(Q)tests/stress/run.sh

# libFuzzer targets: every object rebuilt by clang with coverage
# instrumentation, ASan and UBSan (any UB aborts, so the fuzzer keeps
# the input), in build/fuzz/ with flags of their own.
FUZZ_CC     ?= clang
FUZZ_CFLAGS ?= -O1 -g
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
               -fno-omit-frame-pointer
FUZZ_ALL    := $(XCPPFLAGS) -I$(B) $(CPPFLAGS) $(XCFLAGS) $(FUZZ_CFLAGS) $(FUZZ_SAN)
FUZZ_OBJS   := $(LIB_OBJS:$(B)/obj/%.o=$(B)/fuzz/obj/%.o)
FUZZ_BINS   := $(FUZZ_NAMES:%=$(B)/fuzz/fuzz_%)
FUZZ_CONFIG := $(FUZZ_CC) $(FUZZ_ALL) | $(LDLIBS)
SECONDS     ?= 60

fuzz: $(FUZZ_BINS) $(B)/fuzz/script.dict
.SECONDARY: $(FUZZ_OBJS)

$(B)/fuzz/obj/%.o: src/%.c $(B)/fuzz/.flags
	@mkdir -p $(@D)
	$(msg) CC $@
	$(Q)$(FUZZ_CC) $(FUZZ_ALL) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(B)/fuzz/obj/dtrace/dtrace.o: $(B)/sdt_h.inc
$(B)/fuzz/obj/catalog/kconst.o: $(B)/kconst.inc

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS) $(B)/fuzz/.flags
	$(msg) LD $@
	$(Q)$(FUZZ_CC) $(FUZZ_ALL) $(FUZZ_DEFS) -DSONDE_LIBFUZZER -fsanitize=fuzzer \
		$(LDFLAGS) -MMD -MP -MF $@.d -MT $@ -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

# Words the script fuzzer splices in: tests/fuzz/script.dict and every
# spelling of the token, builtin and function tables.
$(B)/fuzz/script.dict: tests/fuzz/script.dict src/lang/token.def src/sema/builtins.def src/sema/funcs.def
	@mkdir -p $(@D)
	$(msg) GEN $@
	$(Q){ cat tests/fuzz/script.dict; sed -n 's/^X([A-Z_0-9]*,[[:space:]]*\("[^"]*"\).*/\1/p' \
		src/lang/token.def src/sema/builtins.def src/sema/funcs.def; } > $@

$(B)/fuzz/.flags: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(FUZZ_CONFIG)' | cmp -s - $@ || printf '%s\n' '$(FUZZ_CONFIG)' > $@

fuzz-run: fuzz
	$(Q)tests/fuzz/run.sh $(SECONDS) $(FUZZ_NAMES)

-include $(FUZZ_OBJS:.o=.d) $(FUZZ_BINS:=.d)

# Install only what is missing; apt-get update only when installing.
deps:
	@if ! command -v dpkg >/dev/null 2>&1; then \
		echo "deps: not a Debian system; install the equivalents of: $(DEB_PKGS)"; \
		exit 0; \
	fi; \
	missing=; \
	for p in $(DEB_PKGS); do \
		dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; \
	done; \
	[ -z "$$missing" ] && exit 0; \
	if [ "$$(id -u)" -ne 0 ]; then \
		echo "deps: missing build packages:$$missing" >&2; \
		echo "deps: as root run: apt-get install$$missing" >&2; \
		exit 1; \
	fi; \
	echo "deps: installing$$missing"; \
	apt-get update -q && \
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing

# A sub-make, so the build sees the libraries deps may just have installed.
run: deps
	$(Q)$(MAKE) --no-print-directory sonde
	./sonde -e '$(DEMO)'

# Installation: the usual GNU variables; DESTDIR stages a package.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
INCLUDEDIR ?= $(PREFIX)/include
PCDIR      ?= $(PREFIX)/lib/pkgconfig
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
EXAMPLEDIR ?= $(PREFIX)/share/sonde/examples
STDLIBDIR  ?= $(PREFIX)/share/sonde/stdlib
# sonde serve: the systemd units and the policy file (kept when there)
SYSTEMDDIR ?= $(PREFIX)/lib/systemd/system
SYSCONFDIR ?= /etc
VERSION    := $(shell sed -n 's/^\#define SONDE_VERSION "\(.*\)"/\1/p' src/catalog/info.h)
INSTALLED  := $(BINDIR)/sonde $(MANDIR)/man8/sonde.8 \
	      $(MANDIR)/man8/sonde-serve.8 \
	      $(MANDIR)/man7/sonde-language.7 $(INCLUDEDIR)/sonde/sdt.h \
	      $(PCDIR)/sonde.pc $(BASHCOMPDIR)/sonde \
	      $(SYSTEMDDIR)/sonde.socket $(SYSTEMDDIR)/sonde.service

install: sonde
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(INCLUDEDIR)/sonde \
		$(DESTDIR)$(PCDIR) $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(EXAMPLEDIR)
	install -m 755 sonde $(DESTDIR)$(BINDIR)/sonde
	install -m 644 docs/sonde.8 $(DESTDIR)$(MANDIR)/man8/sonde.8
	install -m 644 docs/sonde-serve.8 $(DESTDIR)$(MANDIR)/man8/sonde-serve.8
	install -d $(DESTDIR)$(SYSTEMDDIR) $(DESTDIR)$(SYSCONFDIR)/sonde
	install -m 644 contrib/systemd/sonde.socket $(DESTDIR)$(SYSTEMDDIR)/sonde.socket
	sed -e 's|@BINDIR@|$(BINDIR)|' contrib/systemd/sonde.service.in \
		> $(DESTDIR)$(SYSTEMDDIR)/sonde.service
	chmod 644 $(DESTDIR)$(SYSTEMDDIR)/sonde.service
	test -e $(DESTDIR)$(SYSCONFDIR)/sonde/policy || \
		install -m 644 contrib/sonde-policy $(DESTDIR)$(SYSCONFDIR)/sonde/policy
	install -m 644 docs/sonde-language.7 $(DESTDIR)$(MANDIR)/man7/sonde-language.7
	install -m 644 include/sonde/sdt.h $(DESTDIR)$(INCLUDEDIR)/sonde/sdt.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		contrib/sonde.pc.in > $(DESTDIR)$(PCDIR)/sonde.pc
	chmod 644 $(DESTDIR)$(PCDIR)/sonde.pc
	install -m 644 contrib/sonde.bash-completion $(DESTDIR)$(BASHCOMPDIR)/sonde
	cp -R examples/. $(DESTDIR)$(EXAMPLEDIR)/
	install -d $(DESTDIR)$(STDLIBDIR)
	install -m 644 $(STDLIB_SRCS) $(DESTDIR)$(STDLIBDIR)/

# sonde-language(7) is docs/language.md as a man page, generated here
# and committed (tests/run/install.sh checks that it is current).
man: docs/sonde-language.7
docs/sonde-language.7: docs/language.md tools/md2man.awk src/catalog/info.h
	awk -v version=$(VERSION) -f tools/md2man.awk docs/language.md > $@

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	# the policy file goes only if nobody changed it
	-cmp -s contrib/sonde-policy $(DESTDIR)$(SYSCONFDIR)/sonde/policy && \
		rm -f $(DESTDIR)$(SYSCONFDIR)/sonde/policy
	-rmdir $(DESTDIR)$(SYSCONFDIR)/sonde 2>/dev/null
	rm -rf $(DESTDIR)$(EXAMPLEDIR) $(DESTDIR)$(STDLIBDIR)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/sonde $(DESTDIR)$(PREFIX)/share/sonde 2>/dev/null

clean:
	rm -rf build build-san sonde

-include $(DEPS)
