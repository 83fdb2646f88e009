/* copyin's bytes are scratch memory: at most scratchsize of them */
BEGIN
{
	trace(*(char *)copyin(0, 100000));
}
