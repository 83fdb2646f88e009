#!/bin/bash
# D's printf: the ' flag groups digits as LC_NUMERIC says (dtrace's
# tst.grouping-LC_ALL), and widths and precisions up to dtrace's own
# (tst.wide: 10,000,000) work.  The en_US locale is compiled here with
# localedef into a private directory (LOCPATH), so the test needs no
# locale installed system-wide.
. "$SONDE_ROOT/tests/usdt/lib.sh"
D() { "$SONDE" dtrace "$@"; }
prog='BEGIN { printf("%'"'"'d|%d|%'"'"'u\n", 123456789, 1234567, 1000); exit(0); }'

out=$(LC_ALL=C D -qn "$prog")
same "C locale: no grouping" "123456789|1234567|1000" "$out"

command -v localedef > /dev/null && [[ -f /usr/share/i18n/locales/en_US ]] || {
	echo "SKIP: localedef or the locales package's sources are missing"
	exit 77
}
loc=$(mktemp -d) || exit 1
trap 'rm -rf "$loc"' EXIT
localedef -i en_US -f UTF-8 "$loc/en_US.UTF-8" > /dev/null 2>&1 ||
	[[ -d $loc/en_US.UTF-8 ]] || { echo "FAIL localedef"; exit 1; }
out=$(LOCPATH=$loc LC_ALL=en_US.UTF-8 D -qn "$prog")
same "en_US: grouped" "123,456,789|1234567|1,000" "$out"

out=$(D -qn 'BEGIN { printf("%10000000d\n%.10000000d\n", 1, 2); exit(0); }' | awk '{ print length($0), substr($0, length($0)) }')
same "wide" "10000000 1
10000000 2
0 " "$out"
exit 0
