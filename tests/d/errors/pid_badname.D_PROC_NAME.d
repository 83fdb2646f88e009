/* a pid probe is named entry, return or a hexadecimal offset */
pid$target:a.out:main:beginning
{
}
