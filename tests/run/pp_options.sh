#!/bin/bash
# The preprocessor's command line and files: -I DIR and -IDIR,
# --include FILE and --include=FILE (read before the script, in order),
# "..." found beside the script from any directory, -v saying what
# becomes of system headers, kernel headers read for their integer
# #defines (BPFTRACE_KERNEL_SOURCE, a made-up tree here), and the
# errors of a missing --include.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$dir/sub" "$dir/inc" "$dir/ks/include/linux" "$dir/ks/include/uapi/linux"
echo '#define FROM_I 1' > "$dir/inc/from_i.h"
echo '#define FIRST 10' > "$dir/first.h"
printf '#ifndef FIRST\n#error first.h comes first\n#endif\n#define SECOND (FIRST + 1)\n' > "$dir/second.h"
echo '#define BESIDE 3' > "$dir/sub/beside.h"
cat > "$dir/sub/s.bt" <<'BT'
#include "beside.h"
#include <from_i.h>
BEGIN { printf("%d %d %d %d\n", BESIDE, FROM_I, FIRST, SECOND); exit(); }
BT
out=$(cd "$dir" && "$SONDE" -q -I inc --include first.h --include=second.h sub/s.bt 2>&1) ||
	fail "-I, --include: $out"
[[ $out == "3 1 10 11"* ]] || fail "-I, --include: got $out"
out=$(cd / && "$SONDE" -q -I"$dir/inc" --include "$dir/first.h" --include="$dir/second.h" "$dir/sub/s.bt" 2>&1) ||
	fail "from /: $out"
[[ $out == "3 1 10 11"* ]] || fail "from /: got $out"

# a missing --include: exit 1, the file named, the tag
out=$(cd "$dir" && "$SONDE" --include nosuch.h -e 'BEGIN { exit(); }' 2>&1)
[[ $? == 1 && $out == *"error[E_PREPROC]: --include nosuch.h: no such file"* ]] ||
	fail "missing --include: $out"
out=$(cd "$dir" && "$SONDE" --include= -e 'BEGIN { exit(); }' 2>&1)
[[ $? == 1 && $out == *"error[E_PREPROC]: --include: an empty file name"* ]] ||
	fail "empty --include: $out"
# an error in a file --include read says so
printf 'BEGIN { $x = 1 + "a"; }\n' > "$dir/bad.h"
out=$(cd "$dir" && "$SONDE" --dump=bpf --include bad.h -e 'END { }' 2>&1)
[[ $? == 1 && $out == *"bad.h:1:14: error[E_TYPE]"*"note: bad.h is included by --include"* ]] ||
	fail "error in --include file: $out"

# -v: system headers are not read
out=$("$SONDE" -v --dump=bpf -e '#include <linux/sched.h>
#include <sys/socket.h>
BEGIN { exit(); }' 2>&1 >/dev/null)
[[ $out == *"<linux/sched.h>: not read"* && $out == *"<sys/socket.h>: not read (a C library header)"* ]] ||
	fail "-v: $out"

# installed kernel headers: their integer #defines, nothing else
cat > "$dir/ks/include/linux/pp_test.h" <<'H'
#ifndef _LINUX_PP_TEST_H
#define _LINUX_PP_TEST_H
#include <linux/types.h>
/* #define COMMENTED_OUT 1 */
#define PPT_A 0x10UL
#define PPT_B (PPT_A << 2)
#define PPT_C (PPT_LATER + 1)
#define PPT_LATER 7
#define PPT_NEG (-5)
#define PPT_STR "not an integer"
#define PPT_FN(x) ((x) + 1)
#ifdef CONFIG_PPT_NOPE
#define PPT_COND 1
#else
#define PPT_COND 2
#endif
#if IS_ENABLED(CONFIG_PPT_X)
#define PPT_IS 1
#endif
#define AF_INET 2
struct ppt { int x; };
static inline int ppt(void) { return 'x'; }
#endif
H
export BPFTRACE_KERNEL_SOURCE=$dir/ks
out=$("$SONDE" -q -v -e '#include <linux/pp_test.h>
BEGIN { printf("%d %d %d %d %d %d\n", PPT_A, PPT_B, PPT_C, PPT_NEG, PPT_COND, AF_INET);
#ifdef PPT_STR
printf("PPT_STR defined\n");
#endif
#if defined(PPT_FN) || defined(PPT_IS) || defined(_LINUX_PP_TEST_H)
printf("defined\n");
#endif
exit(); }' 2>&1) || fail "kernel headers: $out"
[[ $out == *"<linux/pp_test.h>: 7 integer constants read from $dir/ks/include/linux/pp_test.h (3 other #defines skipped)"* ]] ||
	fail "kernel headers -v: $out"
[[ $out == *"16 64 8 -5 2 2"* && $out != *defined* ]] || fail "kernel headers: $out"
exit 0
