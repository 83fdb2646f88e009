#!/bin/bash
# Without root, sonde says in one sentence what is missing and exits 1,
# before printing "Attaching".
set -u
command -v setpriv >/dev/null || { echo "setpriv missing"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$SONDE" "$dir/sonde"
chmod 755 "$dir" "$dir/sonde"
out=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$dir/sonde" -e 'BEGIN { printf("ran\n"); exit(); }' 2>&1)
rc=$?
if [[ $rc -ne 1 ]]; then echo "exit status $rc, want 1: $out"; exit 1; fi
if [[ "$out" != "sonde: loading BPF programs needs root (or CAP_BPF and CAP_PERFMON): run sonde with sudo" ]]; then
	echo "unexpected output: $out"; exit 1
fi
# Compiling without root still works.
setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$dir/sonde" --dump=bpf -e 'BEGIN { exit(); }' >/dev/null || { echo "--dump=bpf failed without root"; exit 1; }
exit 0
