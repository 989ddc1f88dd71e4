// placeholder until the softrnic engine lands
#include <pybind11/pybind11.h>
PYBIND11_MODULE(_softrnic, m) {}
