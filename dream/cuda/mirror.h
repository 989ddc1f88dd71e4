// How a pybind11 module hands a C layout to its Python mirror (checked by
// tests/mirrors.py): inside a function with `py::dict layouts` and
// `py::dict c` in scope,
//   STRUCT(T, FIELD(T, a); FIELD(T, b))   layouts["T"] = (sizeof, {field: (offset, size)})
//   CONST(NAME)                           c["NAME"] = NAME
#pragma once
#include <pybind11/pybind11.h>

#include <cstddef>

#define FIELD(T, f) fields[#f] = pybind11::make_tuple(offsetof(T, f), sizeof(((T *)0)->f))
#define STRUCT(T, body)                                        \
    {                                                          \
        pybind11::dict fields;                                 \
        body;                                                  \
        layouts[#T] = pybind11::make_tuple(sizeof(T), fields); \
    }
#define CONST(n) c[#n] = (long long)(n)
