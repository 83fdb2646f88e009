typedef unsigned int u32_t
struct after { int x; };
