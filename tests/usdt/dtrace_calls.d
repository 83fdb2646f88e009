provider calls {
	probe go(int, char *);
	probe zero();
	probe many(int, int, int, int, int, int, int, int);
};
