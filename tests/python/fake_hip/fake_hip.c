// fake_hip.c - a stand-in for libamdhip64.so for tests without an AMD GPU
// (KJIT_HIP_RUNTIME=<this library>): it runs no kernel, but answers as one
// device would and logs what kjit asks of it.
//   FAKE_HIP_DEVICES  number of devices (default 1; 0: hipErrorNoDevice)
//   FAKE_HIP_ARCH     the device's gcnArchName (default gfx90a:sramecc+:xnack-)
//   FAKE_HIP_LOG      a file: one line a launch, "launch <kernel> <gx> <gy> <gz> <bx> <by> <bz>
//                     <shared> <first 8 bytes of each parameter, hex>..."
//   FAKE_HIP_RAISE    each launch of a module with an error record records a failed
//                     bounds check (index 9 of 5, axis 0) as thread (3, 0, 0) of block
//                     (1, 0, 0) at line 7, when no thread has claimed the record
// Memory is host memory (hipMalloc is malloc); a code object must be an
// AMDGPU ELF (e_machine 224) and a kernel or global must be named in it.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int hipError_t;
enum { kSuccess = 0, kInvalidValue = 1, kNoDevice = 100, kInvalidImage = 200, kNotFound = 500 };

static int devices(void) {
  const char *e = getenv("FAKE_HIP_DEVICES");
  return e ? atoi(e) : 1;
}

hipError_t hipInit(unsigned flags) { (void)flags; return kSuccess; }
hipError_t hipDriverGetVersion(int *v) { *v = 50223; return kSuccess; }
hipError_t hipRuntimeGetVersion(int *v) { *v = 50223; return kSuccess; }
hipError_t hipGetDeviceCount(int *n) {
  *n = devices();
  return *n ? kSuccess : kNoDevice;
}
hipError_t hipSetDevice(int d) { return d >= 0 && d < devices() ? kSuccess : 101; }
hipError_t hipDeviceGetName(char *name, int len, int d) {
  (void)d;
  snprintf(name, (size_t)len, "Fake AMD Instinct");
  return kSuccess;
}
hipError_t hipDeviceTotalMem(size_t *bytes, int d) { (void)d; *bytes = (size_t)64 << 30; return kSuccess; }
hipError_t hipGetDeviceProperties(void *props, int d) {
  (void)d;
  const char *arch = getenv("FAKE_HIP_ARCH");
  // name first, then other fields, then gcnArchName further on (as in HIP).
  snprintf((char *)props, 256, "Fake AMD Instinct");
  int32_t warp = 64;
  memcpy((char *)props + 300, &warp, sizeof warp);
  snprintf((char *)props + 1160, 256, "%s", arch ? arch : "gfx90a:sramecc+:xnack-");
  return kSuccess;
}
hipError_t hipDeviceSynchronize(void) { return kSuccess; }
hipError_t hipMalloc(void **p, size_t n) {
  *p = calloc(1, n ? n : 1);
  return *p ? kSuccess : 2;
}
hipError_t hipFree(void *p) { free(p); return kSuccess; }
hipError_t hipHostMalloc(void **p, size_t n, unsigned flags) { (void)flags; return hipMalloc(p, n); }
hipError_t hipHostFree(void *p) { free(p); return kSuccess; }
hipError_t hipHostGetDevicePointer(void **d, void *h, unsigned flags) { (void)flags; *d = h; return kSuccess; }
hipError_t hipMemcpyHtoD(void *dst, void *src, size_t n) { memcpy(dst, src, n); return kSuccess; }
hipError_t hipMemcpyDtoH(void *dst, void *src, size_t n) { memcpy(dst, src, n); return kSuccess; }
hipError_t hipMemcpyDtoD(void *dst, void *src, size_t n) { memcpy(dst, src, n); return kSuccess; }
hipError_t hipMemsetD8(void *dst, unsigned char v, size_t n) { memset(dst, v, n); return kSuccess; }

// A module: its image, and the memory of its globals kjit asks for.
typedef struct {
  char *image;
  size_t size;
  void *record_slot;  // kjit_error_record: a pointer (8 bytes)
  void *claim;        // kjit_error_claim
} Module;
typedef struct {
  Module *m;
  char name[256];
} Function;

static int named(const Module *m, const char *name) {
  size_t n = strlen(name);
  for (size_t i = 0; i + n + 1 < m->size; ++i)
    if (m->image[i] == 0 && memcmp(m->image + i + 1, name, n) == 0 && m->image[i + 1 + n] == 0)
      return 1;
  return 0;
}

hipError_t hipModuleLoadData(void **out, const void *image) {
  const unsigned char *e = (const unsigned char *)image;
  if (memcmp(e, "\x7f" "ELF", 4) != 0 || (e[18] | (e[19] << 8)) != 224) return kInvalidImage;
  uint64_t shoff, size;
  uint16_t shentsize, shnum;
  memcpy(&shoff, e + 40, 8);
  memcpy(&shentsize, e + 58, 2);
  memcpy(&shnum, e + 60, 2);
  size = shoff + (uint64_t)shentsize * shnum;  // the section headers end the file
  Module *m = calloc(1, sizeof(Module));
  m->size = size;
  m->image = malloc(size);
  memcpy(m->image, image, size);
  m->record_slot = calloc(1, 8);
  m->claim = calloc(1, 4);
  *out = m;
  return kSuccess;
}
hipError_t hipModuleUnload(void *mod) {
  Module *m = mod;
  free(m->image);
  free(m->record_slot);
  free(m->claim);
  free(m);
  return kSuccess;
}
hipError_t hipModuleGetFunction(void **f, void *mod, const char *name) {
  Module *m = mod;
  if (!named(m, name)) return kNotFound;
  Function *fn = calloc(1, sizeof(Function));
  fn->m = m;
  snprintf(fn->name, sizeof fn->name, "%s", name);
  *f = fn;
  return kSuccess;
}
hipError_t hipModuleGetGlobal(void **p, size_t *bytes, void *mod, const char *name) {
  Module *m = mod;
  if (!named(m, name)) return kNotFound;
  if (strcmp(name, "kjit_error_record") == 0) {
    *p = m->record_slot;
    *bytes = 8;
  } else if (strcmp(name, "kjit_error_claim") == 0) {
    *p = m->claim;
    *bytes = 4;
  } else {
    return kNotFound;  // (the string tables: not kept by this fake)
  }
  return kSuccess;
}
hipError_t hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                 unsigned by, unsigned bz, unsigned shared, void *stream,
                                 void **params, void **extra) {
  (void)stream;
  (void)extra;
  Function *fn = f;
  const char *path = getenv("FAKE_HIP_LOG");
  if (path) {
    FILE *out = fopen(path, "a");
    if (out) {
      fprintf(out, "launch %s %u %u %u %u %u %u %u", fn->name, gx, gy, gz, bx, by, bz, shared);
      const char *count = getenv("FAKE_HIP_PARAMS");  // how many parameters to log
      for (int i = 0; params && count && i < atoi(count); ++i) {
        uint64_t v = 0;
        memcpy(&v, params[i], 8);
        fprintf(out, " %llx", (unsigned long long)v);
      }
      fprintf(out, "\n");
      fclose(out);
    }
  }
  uint32_t *record = *(uint32_t **)fn->m->record_slot;
  if (getenv("FAKE_HIP_RAISE") && record && *(uint32_t *)fn->m->claim == 0) {
    *(uint32_t *)fn->m->claim = 1;
    record[1] = 7;   // line
    record[3] = 0;   // axis
    record[4] = 9;   // index
    record[6] = 5;   // size
    record[8] = 3;   // thread x
    record[11] = 1;  // block x
    record[14] = 0;  // file: none
    record[15] = 0;  // a bounds check
    record[0] = 1;   // complete
  }
  return kSuccess;
}
hipError_t hipStreamCreate(void **s) { *s = calloc(1, 8); return kSuccess; }
hipError_t hipStreamDestroy(void *s) { free(s); return kSuccess; }
hipError_t hipStreamSynchronize(void *s) { (void)s; return kSuccess; }
hipError_t hipStreamQuery(void *s) { (void)s; return kSuccess; }
hipError_t hipStreamWaitEvent(void *s, void *e, unsigned flags) { (void)s; (void)e; (void)flags; return kSuccess; }
hipError_t hipEventQuery(void *e) { (void)e; return kSuccess; }
hipError_t hipMemGetInfo(size_t *free_, size_t *total) { *free_ = (size_t)60 << 30; *total = (size_t)64 << 30; return kSuccess; }
hipError_t hipEventCreate(void **e) { *e = calloc(1, 8); return kSuccess; }
hipError_t hipEventDestroy(void *e) { free(e); return kSuccess; }
hipError_t hipEventRecord(void *e, void *s) { (void)e; (void)s; return kSuccess; }
hipError_t hipEventSynchronize(void *e) { (void)e; return kSuccess; }
hipError_t hipEventElapsedTime(float *ms, void *a, void *b) { (void)a; (void)b; *ms = 0.5f; return kSuccess; }
const char *hipGetErrorName(hipError_t e) {
  switch (e) {
  case kSuccess: return "hipSuccess";
  case kInvalidValue: return "hipErrorInvalidValue";
  case kNoDevice: return "hipErrorNoDevice";
  case kInvalidImage: return "hipErrorInvalidImage";
  case kNotFound: return "hipErrorNotFound";
  default: return "hipErrorUnknown";
  }
}
const char *hipGetErrorString(hipError_t e) { return hipGetErrorName(e); }
