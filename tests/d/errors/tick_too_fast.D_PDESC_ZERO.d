/* tick-5001 would fire more often than every 200 microseconds */
tick-5001
{
}
