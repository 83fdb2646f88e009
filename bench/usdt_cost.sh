#!/bin/bash
# usdt_cost.sh - build bench/usdt_cost.c (with sys/sdt.h when it is
# installed) and print the cost per iteration of an untraced loop with
# and without probes; as root, also while sonde traces each probe.
#
#   bench/usdt_cost.sh [N]        run from the repository root
set -eu
n=${1:-100000000}
root=$(pwd)
sonde=${SONDE:-$root/sonde}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=(-O2 -I"$root/include")
echo '#include <sys/sdt.h>' | cc -E -x c - > /dev/null 2>&1 && flags+=(-DWITH_SYS_SDT)
cc "${flags[@]}" -o "$tmp/usdt_cost" bench/usdt_cost.c
echo "untraced, $n iterations, best of 5:"
"$tmp/usdt_cost" "$n"
if [[ $(id -u) == 0 && -x $sonde ]]; then
	m=$((n / 100))
	echo "traced by sonde (a count() per probe), $m iterations:"
	for v in probe guarded; do
		probe=$([[ $v == probe ]] && echo iter || echo guarded)
		"$sonde" -q -c "$tmp/usdt_cost $m $v" \
			-e "usdt:$tmp/usdt_cost:bench:$probe { @ = count(); }" | grep ns/
	done
fi
