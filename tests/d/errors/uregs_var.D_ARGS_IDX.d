/* uregs[] takes a register's constant (R_PC, R_SP, R_RDI ...) */
BEGIN
{
	i = 3;
	trace(uregs[i]);
}
