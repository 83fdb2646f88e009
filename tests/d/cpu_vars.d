/* Solaris' chip, lgrp and pset, as curcpu's members; stackdepth and
 * ustackdepth count frames */
#pragma D option quiet
BEGIN
{
	printf("%d %d %d %d %d\n", chip == curcpu->cpu_chip,
	    lgrp == curcpu->cpu_lgrp, pset == curcpu->cpu_pset,
	    stackdepth > 0, ustackdepth >= 0);
	exit(0);
}
