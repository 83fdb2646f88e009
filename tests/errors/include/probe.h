// a probe in a header
BEGIN {
	$x = 1 + "one";
}
