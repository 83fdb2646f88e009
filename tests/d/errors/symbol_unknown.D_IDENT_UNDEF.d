/* a kernel symbol kallsyms does not have */
BEGIN
{
	trace(`no_such_symbol_in_the_kernel);
}
