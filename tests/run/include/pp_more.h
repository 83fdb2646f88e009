#define RED_VALUE 3
