/* the '-' function takes one address, not a glob over addresses */
pid$target::-:10*
{
}
