# The Python binding's sources, listed once, relative to python_bindings/:
# the root CMakeLists.txt (development builds) and python_bindings/
# CMakeLists.txt (the GPU machine's build against the device bundle) both
# include this file. One file an area (docs/architecture.md).
set(KJIT_BINDING_SOURCES
  src/py_module.cpp
  src/py_frontend.cpp
  src/py_jit.cpp
  src/py_globals.cpp
  src/py_launch.cpp
  src/py_ufunc.cpp
  src/py_values.cpp
  src/py_device.cpp
  src/py_cuda.cpp
  src/py_cuda_launch.cpp
  src/py_hip.cpp
)
