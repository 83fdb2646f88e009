/* the '-' function (an absolute address) is the executable's only */
pid$target:libc:-:800
{
}
