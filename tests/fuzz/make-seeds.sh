#!/bin/bash
# make-seeds.sh - rebuild the seed corpora tests/fuzz/corpus/TARGET
# (docs/fuzzing.md).  Run after make fuzz; needs gcc (with -m32) and
# binutils, and for the format seeds a mounted tracefs (as root:
# mount -t tracefs nodev /sys/kernel/tracing).
#
#   script  the corpus as it is, every .bt of tests/ and examples/ and
#           tests/fuzz/seeds/*.bt, merged (-merge=1 -use_counters=0:
#           only the files that reach code the others do not are kept)
#   elf     tiny ELF files built from tests/fuzz/seeds/*.c (static, PIE
#           with a debug link, shared with a build id, relocatable,
#           stripped, 32-bit), and their .note.stapsdt sections as raw
#           note inputs, under fixed names (the script target names
#           three of them); other files of the corpus stay
#   format  the corpus as it is and this kernel's tracefs format
#           files, merged
#
# To fold in what a long run found: merge it the same way, e.g.
#   build/fuzz/fuzz_script -merge=1 -use_counters=0 tests/fuzz/corpus/script build/fuzz/corpus/script
set -eu
cd "$(dirname "$0")/../.."
for t in script elf format; do
	[[ -x build/fuzz/fuzz_$t ]] || { echo "make-seeds: run make fuzz first" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
corpus=tests/fuzz/corpus
seeds=tests/fuzz/seeds

# remerge TARGET DIR...: the corpus of TARGET becomes the merge of
# itself and the DIRs
remerge() {
	local t=$1
	shift
	mkdir "$tmp/$t.old" "$tmp/$t.new"
	cp "$corpus/$t"/* "$tmp/$t.old/" 2>/dev/null || true
	build/fuzz/fuzz_$t -merge=1 -use_counters=0 "$tmp/$t.new" "$tmp/$t.old" "$@" 2>&1 |
		grep -E '^MERGE-OUTER: [0-9]+ new files' || true
	rm -rf "${corpus:?}/$t"
	mv "$tmp/$t.new" "$corpus/$t"
}

echo "== elf"
mkdir -p "$corpus/elf"
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

echo "== script"
mkdir "$tmp/bt"
{ find tests examples -name '*.bt' -not -path 'tests/fuzz/*'; ls tests/fuzz/seeds/*.bt; } |
	sort | while read -r f; do
	cp "$f" "$tmp/bt/$(echo "$f" | tr / _)"
done
remerge script "$tmp/bt"

echo "== format"
if [[ -d /sys/kernel/tracing/events/sched ]]; then
	mkdir "$tmp/fmt"
	for f in /sys/kernel/tracing/events/*/*/format; do
		e=${f%/format}
		cp "$f" "$tmp/fmt/$(basename "$(dirname "$e")")__$(basename "$e")" 2>/dev/null || true
	done
	remerge format "$tmp/fmt"
else
	echo "make-seeds: tracefs is not mounted at /sys/kernel/tracing; format seeds kept" >&2
fi
du -sh "$corpus"/*
