struct inner { int x; }
}
