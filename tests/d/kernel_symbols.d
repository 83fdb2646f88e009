/* Backquoted kernel symbols: `sym is the 64-bit word at the symbol
 * (here the BTF section's magic), &`sym and &vmlinux`sym its address,
 * which %a prints by name. */
#pragma D option quiet

BEGIN
{
	printf("%x\n", `__start_BTF & 0xffff);
	printf("%a\n", &vmlinux`vfs_read);
	printf("%d %d\n", &`vfs_read == &vmlinux`vfs_read, &`vfs_read != 0);
	exit(0);
}
