# override(): needs --unsafe (E_UNSAFE, exit 1, nothing attached); with
# it, this Debian kernel, built without CONFIG_BPF_KPROBE_OVERRIDE, has
# no bpf_override_return: sonde says so, names the script line, and does
# not call it a bug in sonde.
. ./lib
out=$("$SONDE" -e 'kprobe:vfs_read { override(-5); }' 2>&1)
st=$?
[ $st = 1 ] || { echo "without --unsafe: exit $st"; echo "$out"; exit 1; }
case $out in
*"error[E_UNSAFE]"*) ;;
*) echo "without --unsafe: no E_UNSAFE: $out"; exit 1 ;;
esac
case $out in *Attaching*) echo "attached: $out"; exit 1 ;; esac
if zcat /proc/config.gz 2>/dev/null | grep -q "^CONFIG_BPF_KPROBE_OVERRIDE=y"; then
	echo "SKIP: this kernel has override: test it for real"; exit 77
fi
out=$("$SONDE" --unsafe -e 'kprobe:vfs_read { override(-5); }' 2>&1)
st=$?
[ $st = 1 ] || { echo "with --unsafe: exit $st"; echo "$out"; exit 1; }
case $out in
*"has no BPF helper bpf_override_return (override() needs a kernel built with CONFIG_BPF_KPROBE_OVERRIDE)"*) ;;
*) echo "with --unsafe: no clear message: $out"; exit 1 ;;
esac
case $out in *"a bug in sonde"*) echo "called a bug: $out"; exit 1 ;; esac
case $out in *"-e:1: instruction"*) ;; *) echo "no script line: $out"; exit 1 ;; esac
exit 0
