/* Thread-local associative arrays: self->a[k, ...] is kept per thread
 * and per key, ++/-- and assignment chains work on it, 0 frees it. */
#pragma D option quiet

BEGIN
{
	old = self->a["a"] = 42;
	val = self->a["a"]--;
	self->x[456, "bar"] = 456;
	self->x[457, "bar"] = 457;
	printf("%d %d %d %d %d\n", old, val, self->a["a"], self->x[456, "bar"],
	    self->x[457, "bar"]);
	self->x[456, "bar"] = 0;
	printf("%d %d\n", self->x[456, "bar"], self->x[457, "bar"]);
	exit(0);
}
