#define TWICE(x) ((x) * 2)
