typedef unsigned int u32_t;
