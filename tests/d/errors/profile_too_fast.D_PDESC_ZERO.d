/* no profile or tick interval is under 200 microseconds (5000 hz) */
profile-199us
{
}
