// What kjit._cuda_prestart (cuda_prestart.cpp) gives _kjit's runtime, as a
// PyCapsule named KJIT_CUDA_PRESTART_CAPSULE (the module's `api`).
#pragma once

#define KJIT_CUDA_PRESTART_CAPSULE "kjit._cuda_prestart.api"

struct kjit_cuda_prestart_api {
  // Waits for the start-up thread; nonzero if it holds device 0's primary
  // context. Any thread, no GIL needed.
  int (*wait)();
  // Waits, then gives the start-up's reference to the context back.
  void (*release)();
};
