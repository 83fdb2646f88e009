#!/bin/bash
# uprobe:ARCHIVE!/LIBRARY:FUNC (bpftrace 0.26): a library stored
# (uncompressed, page-aligned, as zipalign leaves an APK's) in a ZIP
# archive and run from it in place.  tests/progs/zipcall maps the
# archive at the member and calls zf() 5 times: the uprobe on the
# archive counts 5, probe names ARCHIVE!/LIBRARY:FUNC.  A missing member,
# a compressed one and a file that is no archive are errors.
set -u
die() { echo "$*"; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
Z=$SONDE_PROGS/zipcall
[[ -x $Z ]] || die "$Z not built (run make progs)"
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 0; }
printf 'int zf(int x) { return x + 1; }\nint zg(int x) { return x * 2; }\n' > zf.c
cc -shared -fPIC -O1 -o libzf.so zf.c || die "cc"
# the archive: lib/x86/libzf.so stored at a page boundary, a compressed
# copy beside it
python3 - <<'PY' || die "python"
import zipfile
data = open("libzf.so", "rb").read()
with zipfile.ZipFile("app.apk", "w") as z:
    z.writestr("assets/readme.txt", "hello\n")
    name = "lib/x86/libzf.so"
    start = z.fp.tell() + 30 + len(name)
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_STORED
    info.extra = b"\0" * ((-(start + 4)) % 4096 + 4)
    z.writestr(info, data)
    z.writestr(zipfile.ZipInfo("lib/x86/packed.so"), data, zipfile.ZIP_DEFLATED)
PY
off=$(python3 -c 'import zipfile; i = zipfile.ZipFile("app.apk").getinfo("lib/x86/libzf.so"); print(i.header_offset + 30 + len(i.filename) + len(i.extra))')
(( off % 4096 == 0 )) || die "member at $off, not page-aligned"
# zf's file offset in the library: its address in the segment that
# maps it (text: vaddr and offset agree in a small -shared library)
foff=$(python3 - <<'PY'
import struct
d = open("libzf.so", "rb").read()
shoff, = struct.unpack_from("<Q", d, 0x28); shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + k * shentsize) for k in range(shnum)]
for s in secs:
    if s[1] == 2:  # SHT_SYMTAB
        strtab = secs[s[6]]
        for k in range(s[5] // 24):
            name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", d, s[4] + k * 24)
            nm = d[strtab[4] + name:d.index(b"\0", strtab[4] + name)]
            if nm == b"zf":
                phoff, = struct.unpack_from("<Q", d, 0x20); phnum, = struct.unpack_from("<H", d, 0x38)
                for p in range(phnum):
                    t, f, o, va, pa, fs, ms, al = struct.unpack_from("<IIQQQQQQ", d, phoff + p * 56)
                    if t == 1 and va <= value < va + fs:
                        print(o + value - va)
PY
)
[[ -n $foff ]] || die "no zf in libzf.so"

out=$("$SONDE" --dialect=0.26 -c "$Z app.apk $off $foff 5" -e 'uprobe:./app.apk!/lib/x86/libzf.so:zf { @[probe, func] = count(); }' 2>&1)
[[ $out == "Attached 1 probe
15


@[uprobe:./app.apk!/lib/x86/libzf.so:zf, zf]: 5" ]] || die "events: $out"
[[ $("$SONDE" -l -e 'uprobe:./app.apk!/lib/x86/libzf.so:z* { }') == "uprobe:./app.apk!/lib/x86/libzf.so:zf
uprobe:./app.apk!/lib/x86/libzf.so:zg" ]] || die "-l"

err() {	# err PROBE MESSAGE
	"$SONDE" -e "$1 { }" > out 2> err && die "$1 ran"
	grep -qF "$2" err || die "$1: $(cat err)"
}
err 'uprobe:./app.apk!/lib/none.so:zf' "uprobe: ./app.apk has no member lib/none.so"
err 'uprobe:./app.apk!/lib/x86/packed.so:zf' "uprobe: ./app.apk stores lib/x86/packed.so compressed"
err 'uprobe:./zf.c!/lib/x86/libzf.so:zf' "uprobe: ./zf.c is not a ZIP archive"
err 'uprobe:./app.apk!/assets/readme.txt:zf' "uprobe: cannot read ./app.apk!/assets/readme.txt: not an ELF file"
err 'uprobe:./app.apk!/lib/x86/libzf.so:nothing' "uprobe: function nothing not found in ./app.apk!/lib/x86/libzf.so"
exit 0
