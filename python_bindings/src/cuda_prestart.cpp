// kjit._cuda_prestart: the CUDA driver's start-up begun first thing when
// kjit.cuda is imported, before kjit's compiler library (LLVM, about 0.05 s
// to load) and NumPy's import where kjit is imported first.
//
// The driver (KJIT_CUDA_DRIVER or libcuda.so.1) is loaded on the importing
// thread; a thread of its own runs cuInit and retains device 0's primary
// context: the 0.1-0.2 s that any CUDA program pays before its first launch. It shares nothing with
// _kjit's runtime but the driver's own state: when the runtime is made (py_cuda.cpp, makeRuntime)
// it waits for this thread, retains the context itself (now at no cost) and then gives this
// module's reference back, through the C functions of the capsule `api`. The thread is joined
// before any fork (pthread_atfork) and at exit (atexit, in kjit/cuda/__init__.py).
//
// Only the Python C API and libc: this module loads in well under a
// millisecond.
#include "cuda_prestart.h"

#include <Python.h>
#include <dlfcn.h>
#include <pthread.h>

namespace {

using InitFn = int (*)(unsigned);
using DeviceGetFn = int (*)(int *, int);
using RetainFn = int (*)(void **, int);
using ReleaseFn = int (*)(int);

pthread_mutex_t gLock = PTHREAD_MUTEX_INITIALIZER;
pthread_t gThread;
bool gJoinable = false;  // started and not yet joined (under gLock)
// The driver's entry points, found before the thread starts.
InitFn gInit = nullptr;
DeviceGetFn gGet = nullptr;
RetainFn gRetain = nullptr;
ReleaseFn gRelease = nullptr;
// Written by the thread, read after it is joined.
int gDevice = 0;
bool gRetained = false;

void *startUp(void *) {
  // A failure: nothing is held, and the runtime finds out and says why at
  // first use.
  if (gInit(0) != 0) return nullptr;
  void *context = nullptr;
  if (gGet(&gDevice, 0) != 0 || gRetain(&context, gDevice) != 0) return nullptr;
  gRetained = true;
  return nullptr;
}

// Waits for the start-up thread (any thread, no GIL needed, also a fork's
// prepare handler). Returns whether it holds device 0's primary context.
int waitForStartUp() {
  pthread_mutex_lock(&gLock);
  if (gJoinable) {
    pthread_join(gThread, nullptr);
    gJoinable = false;
  }
  int held = gRetained ? 1 : 0;
  pthread_mutex_unlock(&gLock);
  return held;
}

// Gives the start-up's reference to the context back (after the runtime has
// taken its own).
void releaseStartUp() {
  waitForStartUp();
  pthread_mutex_lock(&gLock);
  if (gRetained) {
    gRetained = false;
    gRelease(gDevice);
  }
  pthread_mutex_unlock(&gLock);
}

void forkPrepare() { waitForStartUp(); }

const kjit_cuda_prestart_api gApi = {waitForStartUp, releaseStartUp};

PyObject *start(PyObject *, PyObject *arg) {
  const char *path = PyUnicode_AsUTF8(arg);
  if (!path) return nullptr;
  static bool started = false;
  if (started) Py_RETURN_FALSE;
  started = true;
  // The driver is loaded and its entry points found here, not on the
  // thread: dlopen and dlsym take the dynamic loader's lock, which the
  // import of _kjit that follows holds while LLVM loads (about 0.05 s), and
  // the thread would wait for it.
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);  // never closed: the runtime loads the same
  if (!lib) Py_RETURN_FALSE;                        // the runtime loads it again, and says why
  gInit = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
  gGet = reinterpret_cast<DeviceGetFn>(dlsym(lib, "cuDeviceGet"));
  gRetain = reinterpret_cast<RetainFn>(dlsym(lib, "cuDevicePrimaryCtxRetain"));
  gRelease = reinterpret_cast<ReleaseFn>(dlsym(lib, "cuDevicePrimaryCtxRelease_v2"));
  if (!gInit || !gGet || !gRetain || !gRelease) Py_RETURN_FALSE;
  pthread_mutex_lock(&gLock);
  gJoinable = pthread_create(&gThread, nullptr, startUp, nullptr) == 0;
  bool ok = gJoinable;
  pthread_mutex_unlock(&gLock);
  if (!ok) Py_RETURN_FALSE;  // no thread: the runtime starts the driver at first use
  pthread_atfork(forkPrepare, nullptr, nullptr);
  Py_RETURN_TRUE;
}

PyObject *wait(PyObject *, PyObject *) {
  int held;
  Py_BEGIN_ALLOW_THREADS held = waitForStartUp();
  Py_END_ALLOW_THREADS return PyBool_FromLong(held);
}

PyMethodDef gMethods[] = {
    {"start", start, METH_O,
     "start(driver_path): begins cuInit and device 0's primary context on a thread; False if "
     "already begun "
     "or no thread could be made"},
    {"wait", wait, METH_NOARGS,
     "waits for the start-up thread; True if it holds device 0's primary context"},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef gModule = {PyModuleDef_HEAD_INIT,
                       "_cuda_prestart",
                       "The CUDA driver's start-up, begun before kjit's compiler loads.",
                       -1,
                       gMethods,
                       nullptr,
                       nullptr,
                       nullptr,
                       nullptr};

}  // namespace

PyMODINIT_FUNC PyInit__cuda_prestart() {
  PyObject *m = PyModule_Create(&gModule);
  if (!m) return nullptr;
  PyObject *capsule = PyCapsule_New(const_cast<kjit_cuda_prestart_api *>(&gApi),
                                    KJIT_CUDA_PRESTART_CAPSULE, nullptr);
  if (!capsule || PyModule_AddObject(m, "api", capsule) != 0) {
    Py_XDECREF(capsule);
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
