#!/bin/bash
# lsm:HOOK on this host: -l lists the hooks (BTF's bpf_lsm_* functions),
# a script compiles (args.file typed by the hook's BTF), and loading it
# fails with the kernel feature named, not a crash or a verifier dump
# (the guest tier runs one: tests/guest/lsm_override.sh).
. "$SONDE_ROOT/tests/lib/trace.sh"
out=$("$SONDE" -l 'lsm:file_o*') || die "-l: $out"
grep -qx 'lsm:file_open' <<< "$out" || die "-l: $out"
"$SONDE" --dump=bpf -e 'lsm:file_open { @[args.file->f_flags] = count(); }' > /dev/null 2>&1 ||
	die "does not compile: $("$SONDE" --dump=bpf -e 'lsm:file_open { @[args.file->f_flags] = count(); }' 2>&1)"
out=$("$SONDE" --unsafe -e 'lsm:file_open /comm == "nobody-here"/ { override(-EACCES); }' 2>&1)
st=$?
if [[ $st == 0 ]]; then
	echo "this kernel loads BPF LSM programs: the guest tier's test covers them"
	exit 77
fi
[[ $st == 1 && $out == *"probe lsm:file_open: this kernel does not load BPF LSM programs"* ]] ||
	die "exit $st: $out"
exit 0
