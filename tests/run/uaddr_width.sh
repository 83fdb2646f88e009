#!/bin/bash
# uaddr("sym") is a pointer to an integer of the symbol's size, as
# bpftrace types it: *uaddr() of an int reads 4 bytes, not the bytes of
# the next variable; 1, 2, 4 and 8-byte symbols and a larger one
# (uint64 *).
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/p.c" <<'C'
#include <stdint.h>
struct pair { uint64_t a, b; };
__attribute__((aligned(8))) volatile uint8_t v8 = 0x11;
__attribute__((aligned(8))) volatile uint16_t v16 = 0x2222;
__attribute__((aligned(8))) volatile uint32_t v32 = 0x33333333;
__attribute__((aligned(8))) volatile uint64_t v64 = 0x4444444444444444;
volatile struct pair big = { 0x5555, 0x6666 };
volatile uint8_t pad[64] = { [0 ... 63] = 0xff };
__attribute__((noinline)) int peek(void) { return v8 + v16; }
int main(void) { return peek() == 0; }
C
cc -O1 -fno-pie -no-pie -o "$dir/p" "$dir/p.c" || exit 1
out=$("$SONDE" -q -c "$dir/p" -e "uprobe:$dir/p:peek {
	printf(\"%x %x %x %lx %lx %d %d %d %d\n\", *uaddr(\"v8\"), *uaddr(\"v16\"),
	       *uaddr(\"v32\"), *uaddr(\"v64\"), *uaddr(\"big\"),
	       sizeof(*uaddr(\"v8\")), sizeof(*uaddr(\"v16\")), sizeof(*uaddr(\"v32\")),
	       sizeof(*uaddr(\"big\")));
}" 2>&1)
[[ "$out" == "11 2222 33333333 4444444444444444 5555 1 2 4 8" ]] || { echo "got: $out"; exit 1; }
exit 0
