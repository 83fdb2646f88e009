#!/bin/bash
# Without root, sonde says in one sentence exactly which capability is
# missing and exits 1, before printing "Attaching"; with CAP_BPF and
# CAP_PERFMON (and nothing else) it runs.
set -u
command -v setpriv >/dev/null || { echo "setpriv missing"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$SONDE" "$dir/sonde"
chmod 755 "$dir" "$dir/sonde"
fail=0
as_nobody() {	# caps ("" for none), then sonde's arguments
	local caps=$1
	shift
	if [[ -n $caps ]]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps="$caps" --ambient-caps="$caps" "$dir/sonde" "$@" 2>&1
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups "$dir/sonde" "$@" 2>&1
	fi
}
check() {	# caps, the expected message
	local out rc
	out=$(as_nobody "$1" -e 'BEGIN { printf("ran\n"); exit(); }')
	rc=$?
	if [[ $rc -ne 1 || $out != "sonde: $2" ]]; then
		echo "caps '$1': exit $rc, want 1 and 'sonde: $2'; got: $out"
		fail=1
	fi
}
check "" "loading BPF programs needs root, or CAP_BPF and CAP_PERFMON, which this process lacks: run sonde with sudo"
check +bpf "loading tracing programs needs CAP_PERFMON, which this process lacks (it has CAP_BPF): run sonde with sudo"
check +perfmon "loading BPF programs needs CAP_BPF, which this process lacks (it has CAP_PERFMON): run sonde with sudo"
out=$(as_nobody +bpf,+perfmon -q -e 'BEGIN { printf("ran\n"); exit(); }')
[[ $? -eq 0 && $out == ran* ]] || { echo "CAP_BPF and CAP_PERFMON: $out"; fail=1; }
# Compiling without root still works.
as_nobody "" --dump=bpf -e 'BEGIN { exit(); }' >/dev/null ||
	{ echo "--dump=bpf failed without root"; fail=1; }
# kaddr() says why without CAP_SYSLOG: /proc/kallsyms shows zeros.
out=$(as_nobody "" --dump=bpf -e 'BEGIN { @ = kaddr("get_avenrun"); }')
[[ $out == *"error[E_ARGS]: kaddr(): cannot read kernel addresses: /proc/kallsyms hides them (it needs CAP_SYSLOG)"* ]] ||
	{ echo "kaddr without CAP_SYSLOG: $out"; fail=1; }
exit $fail
