#ifndef OPEN_IF_H
#define OPEN_IF_H
struct open_if { int x; };
