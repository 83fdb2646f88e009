#!/bin/bash
# make-seeds.sh - rebuild the seed corpora tests/fuzz/corpus/TARGET
# (docs/fuzzing.md).  Run after make fuzz; needs gcc (with -m32) and
# binutils, and for the format seeds a mounted tracefs (as root:
# mount -t tracefs nodev /sys/kernel/tracing).
#
#   script  every .bt of tests/ and examples/, merged (-merge=1
#           -use_counters=0: only the files that reach code the others
#           do not are kept)
#   elf     tiny ELF files built from tests/fuzz/seeds/*.c (static, PIE
#           with a debug link, shared with a build id, relocatable,
#           stripped, 32-bit), and their .note.stapsdt sections as raw
#           note inputs
#   format  this kernel's tracefs format files, merged
#
# Each corpus directory is replaced; commit what changed if it is small.
set -eu
cd "$(dirname "$0")/../.."
for t in script elf format; do
	[[ -x build/fuzz/fuzz_$t ]] || { echo "make-seeds: run make fuzz first" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus=tests/fuzz/corpus
seeds=tests/fuzz/seeds

# fresh DIR: empty the corpus directory DIR
fresh() {
	rm -rf "$corpus/$1"
	mkdir -p "$corpus/$1"
}

echo "== script"
mkdir "$tmp/bt"
find tests examples -name '*.bt' -not -path 'tests/fuzz/*' | sort | while read -r f; do
	cp "$f" "$tmp/bt/$(echo "$f" | tr / _)"
done
fresh script
build/fuzz/fuzz_script -merge=1 -use_counters=0 "$corpus/script" "$tmp/bt" 2>&1 | grep -E '^MERGE-OUTER: [0-9]+ new files' || true

echo "== elf"
fresh elf
small=(-Os -fno-asynchronous-unwind-tables -nostdlib -Iinclude
       -Wl,-z,noseparate-code -Wl,-z,max-page-size=64 -Wl,-z,norelro)
gcc "${small[@]}" -static -Wl,--build-id=none -o "$corpus/elf/usdt-static" $seeds/usdt64.c
strip --strip-all -R .comment -o "$corpus/elf/usdt-stripped" "$corpus/elf/usdt-static"
gcc "${small[@]}" -fPIE -pie -Wl,--build-id=none -o "$tmp/usdt-pie" $seeds/usdt64.c
objcopy --only-keep-debug "$tmp/usdt-pie" "$tmp/usdt-pie.debug"
objcopy --strip-debug -R .comment --add-gnu-debuglink="$tmp/usdt-pie.debug" \
	"$tmp/usdt-pie" "$corpus/elf/usdt-pie-debuglink"
gcc "${small[@]}" -fPIC -shared -Wl,--build-id -o "$corpus/elf/usdt-shared" $seeds/usdt64.c
gcc -Os -fno-asynchronous-unwind-tables -Iinclude -c -o "$corpus/elf/usdt-relocatable" $seeds/usdt64.c
gcc -m32 -fno-pic "${small[@]}" -static -Wl,--build-id=none -o "$corpus/elf/note32" $seeds/note32.c
# raw note sections: a first byte of flags (1: 32-bit), then the bytes
objcopy --dump-section .note.stapsdt="$tmp/n64" "$corpus/elf/usdt-static" "$tmp/junk"
objcopy --dump-section .note.stapsdt="$tmp/n32" "$corpus/elf/note32" "$tmp/junk"
{ printf '\0'; cat "$tmp/n64"; } > "$corpus/elf/raw-notes64"
{ printf '\1'; cat "$tmp/n32"; } > "$corpus/elf/raw-notes32"

echo "== format"
if [[ -d /sys/kernel/tracing/events/sched ]]; then
	mkdir "$tmp/fmt"
	for f in /sys/kernel/tracing/events/*/*/format; do
		e=${f%/format}
		cp "$f" "$tmp/fmt/$(basename "$(dirname "$e")")__$(basename "$e")" 2>/dev/null || true
	done
	fresh format
	build/fuzz/fuzz_format -merge=1 -use_counters=0 "$corpus/format" "$tmp/fmt" 2>&1 | grep -E '^MERGE-OUTER: [0-9]+ new files' || true
else
	echo "make-seeds: tracefs is not mounted at /sys/kernel/tracing; format seeds kept" >&2
fi
du -sh "$corpus"/*
