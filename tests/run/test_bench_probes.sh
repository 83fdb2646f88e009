#!/bin/bash
# test:NAME and bench:NAME (bpftrace 0.26).  --test runs BEGIN, each
# test probe in order, then END: a test passes when its block returns
# 0 (or nothing) and calls no exit() with another code; a passing
# test's output is kept back, a failing one's shown; exit status 1 when
# one failed.  A plain run ignores test and bench probes; --bench times
# each bench probe and prints the table bpftrace prints, by name.
set -u
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
die() { echo "$*"; exit 1; }

cat > "$dir/t.bt" <<'B'
BEGIN { @x = 2; printf("begin\n"); }
test:okay {
  print("I'm okay! This output will be suppressed.");
}
test:failure {
  print("This is a failure! This output will be shown");
  return 1;
}
test:computed { printf("x is %d\n", @x); return @x - 2; }
test:exits { printf("bye\n"); exit(3); }
test:exit0 { if (@x == 2) { exit(); } return 9; }
test:negative { return -1; }
bench:ignored { @y = 1; }
kprobe:this_is_ignored { @z = 1; }
END { printf("end\n"); }
B
out=$("$SONDE" --dialect=0.26 --test "$dir/t.bt" 2> "$dir/err")
rc=$?
want='begin
PASS test:okay
FAIL test:failure (returned 1)
This is a failure! This output will be shown
PASS test:computed
FAIL test:exits (exit code 3)
bye
PASS test:exit0
FAIL test:negative (returned -1)
6 tests: 3 passed, 3 failed
end'
[[ $out == "$want" ]] || die "--test: $out"
(( rc == 1 )) || die "--test exit status $rc"
[[ $(cat "$dir/err") == "Attached 8 probes" ]] || die "stderr: $(cat "$dir/err")"

# all pass: exit status 0; --mode=test is the same
printf 'test:a { $v = 1; return $v - 1; }\ntest:b { }\n' > "$dir/p.bt"
out=$("$SONDE" --mode=test "$dir/p.bt") || die "passing tests: status $?"
[[ $out == $'Attaching 2 probes...\nPASS test:a\nPASS test:b\n2 tests: 2 passed, 0 failed' ]] || die "pass: $out"

# JSON: one message per test
out=$("$SONDE" -q -f json --test "$dir/p.bt")
[[ $out == '{"type": "test", "data": {"name": "test:a", "passed": true, "return": 0, "exit": 0, "output": ""}}
{"type": "test", "data": {"name": "test:b", "passed": true, "return": 0, "exit": 0, "output": ""}}' ]] || die "json: $out"

# a plain run ignores them (and the block's `return` ends it quietly)
out=$("$SONDE" --dialect=0.26 -e 'BEGIN { printf("hi\n"); exit(); return 4; } test:t { printf("no\n"); } bench:b { printf("no\n"); }')
[[ $out == $'hi' ]] || die "plain run: $out"

# --bench: the table, by name; the numbers vary
cat > "$dir/b.bt" <<'B'
bench:lhist {
    @a = lhist(rand % 10, 1, 10, 1);
}

bench:count {
    @b = count();
}

bench:my_loop {
    $a = 0;
    for ($i : 0..10) {
        $a++;
    }
}
test:not_run { printf("no\n"); }
B
"$SONDE" --dialect=0.26 --bench "$dir/b.bt" > "$dir/out" 2> "$dir/err" || die "--bench status $?"
sed -E 's/^(\| [a-z_]+ +\| )[0-9]+ +\|$/\1N/' "$dir/out" > "$dir/got"
cat > "$dir/want" <<'W'


+-----------+-------------+
| BENCHMARK | NANOSECONDS |
+-----------+-------------+
| count     | N
| lhist     | N
| my_loop   | N
+-----------+-------------+
W
diff "$dir/want" "$dir/got" || die "bench table: $(cat "$dir/out")"
[[ $(cat "$dir/err") == "Attached 3 probes" ]] || die "stderr: $(cat "$dir/err")"
# a long name widens the first column
out=$("$SONDE" -q --bench -e 'bench:a_rather_long_benchmark_name { }' | sed -n 3,5p)
[[ $out == '+------------------------------+-------------+
| BENCHMARK                    | NANOSECONDS |
+------------------------------+-------------+' ]] || die "wide: $out"

# --test or --bench with none of theirs
"$SONDE" --test -e 'bench:b { }' 2> "$dir/err" && die "--test without tests ran"
grep -q "error\[E_PROBE\]: --test: the script has no test probes" "$dir/err" || die "no tests: $(cat "$dir/err")"
"$SONDE" --bench -e 'BEGIN { }' 2> "$dir/err" && die "--bench without benches ran"
grep -q "error\[E_PROBE\]: --bench: the script has no bench probes" "$dir/err" || die "no benches: $(cat "$dir/err")"
exit 0
