/* ?: takes a scalar condition */
BEGIN
{
	c = "boo" ? "should" : "fail";
}
