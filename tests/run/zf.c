int zf(int x) { return x + 1; }
int zg(int x) { return x * 2; }
