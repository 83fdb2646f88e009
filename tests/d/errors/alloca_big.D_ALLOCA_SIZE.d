/* at most scratchsize bytes */
#pragma D option scratchsize=64

BEGIN
{
	p = alloca(65);
}
