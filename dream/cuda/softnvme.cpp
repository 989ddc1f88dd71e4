// placeholder until the softnvme engine lands
#include <pybind11/pybind11.h>
PYBIND11_MODULE(_softnvme, m) {}
