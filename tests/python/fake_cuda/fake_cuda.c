// fake_cuda.c - a stand-in for libcuda.so.1 for tests without a GPU
// (KJIT_CUDA_DRIVER=<this library>): it runs no kernel, but answers as one
// device would, and logs the calls the tests look at.
//   FAKE_CUDA_DEVICES  number of devices (default 1)
//   FAKE_INIT_MS       the first cuInit takes this long
//   FAKE_CTX_MS        the first primary-context retain takes this long
//   FAKE_CUDA_LOG      a file: one line a logged call, "<call> <device> <main|thread>"
//   FAKE_CUDA_NO_POOLS the device has no stream-ordered memory pool
//   FAKE_CUDA_LINK_DIR a folder: cuLinkAddData writes each input there as
//                      link-<n>-<input type>-<name> (the linker's inputs)
//   FAKE_CUDA_RAISES   every module has an error record (compiler/LoweringCuda.cpp)
//                      whose raise table is this ("Class:message", ';' between
//                      entries) and file table "fake.py"
//   FAKE_CUDA_RAISE    each launch records raise <n> of that table (0: a failed
//                      bounds check, index 9 of 5) as thread (3, 0, 0) of block
//                      (1, 0, 0) at line 7, when no thread has claimed the record
// As in CUDA, the current context is per thread, and allocations, module
// loads, launches and synchronisations fail without one; primary contexts
// are counted, and a release below zero fails (logged as ...-UNDERFLOW).
// Also times kjit's own launch path without the driver's cost
// (benchmarks/gpu/launch_host_path.py).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
typedef int CUresult;
#define NEEDS_CONTEXT if (!cur) return 201 /* CUDA_ERROR_INVALID_CONTEXT */
static void logCall(const char *call, int device) {
  const char *path = getenv("FAKE_CUDA_LOG");
  if (!path) return;
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f, "%s %d %s\n", call, device, syscall(SYS_gettid) == getpid() ? "main" : "thread");
  fclose(f);
}
static __thread void *cur = 0;  // the current context, per thread as in CUDA
static char mod, fn;
static void nap(const char *v) { const char *e = getenv(v); if (e) usleep(atoi(e) * 1000); }
// As in CUDA, only the first cuInit does the work; a call made meanwhile on
// another thread waits for it.
static pthread_mutex_t initLock = PTHREAD_MUTEX_INITIALIZER;
static int initDone;
CUresult cuInit(unsigned f) {
  pthread_mutex_lock(&initLock);
  if (!initDone) nap("FAKE_INIT_MS");
  initDone = 1;
  pthread_mutex_unlock(&initLock);
  logCall("cuInit", -1);
  return 0;
}
CUresult cuDriverGetVersion(int *v) { *v = 13000; return 0; }
CUresult cuGetErrorName(CUresult r, const char **s) { *s = "CUDA_ERROR_FAKE"; return 0; }
CUresult cuGetErrorString(CUresult r, const char **s) { *s = "fake"; return 0; }
CUresult cuDeviceGetCount(int *n) { const char *e = getenv("FAKE_CUDA_DEVICES"); *n = e ? atoi(e) : 1; return 0; }
CUresult cuDeviceGet(int *d, int i) { *d = i; return 0; }
CUresult cuDeviceGetName(char *s, int n, int d) { strncpy(s, "fake GPU", n); return 0; }
CUresult cuDeviceGetAttribute(int *v, int a, int d) {
  switch (a) {
  case 1: *v = 1024; break; case 2: case 3: *v = 1024; break; case 4: *v = 64; break;
  case 5: *v = 0x7fffffff; break; case 6: case 7: *v = 65535; break;
  case 8: *v = 49152; break; case 75: *v = 9; break; case 76: *v = 0; break;
  case 97: *v = 232448; break; case 16: *v = 132; break; case 10: *v = 32; break;
  case 115: *v = getenv("FAKE_CUDA_NO_POOLS") ? 0 : 1; break;
  default: *v = 1;
  }
  return 0;
}
CUresult cuDeviceTotalMem_v2(size_t *b, int d) { *b = 80ul << 30; return 0; }
CUresult cuDeviceGetPCIBusId(char *s, int n, int d) { strncpy(s, "0000:00:00.0", n); return 0; }
static char ctxs[8];
static int retains, refs[8];
CUresult cuDevicePrimaryCtxRetain(void **c, int d) {
  if (!retains++) nap("FAKE_CTX_MS");
  logCall("cuDevicePrimaryCtxRetain", d);
  ++refs[d & 7];
  *c = &ctxs[d & 7];
  return 0;
}
CUresult cuDevicePrimaryCtxRelease_v2(int d) {
  if (refs[d & 7] == 0) {  // more releases than retains: another library's context would go
    logCall("cuDevicePrimaryCtxRelease-UNDERFLOW", d);
    return 201;
  }
  --refs[d & 7];
  logCall("cuDevicePrimaryCtxRelease", d);
  return 0;
}
CUresult cuDevicePrimaryCtxReset_v2(int d) { return 0; }
CUresult cuCtxSetCurrent(void *c) { cur = c; return 0; }
CUresult cuCtxGetCurrent(void **c) { *c = cur; return 0; }
CUresult cuCtxSynchronize(void) { NEEDS_CONTEXT; logCall("cuCtxSynchronize", -1); return 0; }
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) { *f = *t = 80ul << 30; return 0; }
CUresult cuMemAlloc_v2(unsigned long long *p, size_t n) {
  NEEDS_CONTEXT;
  logCall("cuMemAlloc", -1);
  *p = (unsigned long long)malloc(n ? n : 1);
  return 0;
}
CUresult cuMemFree_v2(unsigned long long p) {
  logCall("cuMemFree", -1);
  free((void *)p);
  return 0;
}
// The stream-ordered pool (unless FAKE_CUDA_NO_POOLS is set).
static char pool;
CUresult cuMemAllocAsync(unsigned long long *p, size_t n, void *s) {
  NEEDS_CONTEXT;
  logCall("cuMemAllocAsync", -1);
  *p = (unsigned long long)malloc(n ? n : 1);
  return 0;
}
CUresult cuMemFreeAsync(unsigned long long p, void *s) {
  NEEDS_CONTEXT;
  logCall("cuMemFreeAsync", -1);
  free((void *)p);
  return 0;
}
CUresult cuDeviceGetDefaultMemPool(void **p, int d) { *p = &pool; return 0; }
CUresult cuMemPoolSetAttribute(void *p, int a, void *v) { return 0; }
CUresult cuMemPoolTrimTo(void *p, size_t keep) { logCall("cuMemPoolTrimTo", -1); return 0; }
CUresult cuMemAllocManaged(unsigned long long *p, size_t n, unsigned f) { return cuMemAlloc_v2(p, n); }
CUresult cuMemHostRegister_v2(void *p, size_t n, unsigned f) { return 0; }
CUresult cuMemHostUnregister(void *p) { return 0; }
CUresult cuMemHostGetDevicePointer_v2(unsigned long long *d, void *p, unsigned f) { *d = (unsigned long long)p; return 0; }
CUresult cuMemcpyHtoD_v2(unsigned long long d, const void *s, size_t n) { memcpy((void *)d, s, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *d, unsigned long long s, size_t n) { memcpy(d, (void *)s, n); return 0; }
CUresult cuMemcpyDtoD_v2(unsigned long long d, unsigned long long s, size_t n) { memcpy((void *)d, (void *)s, n); return 0; }
CUresult cuMemcpyHtoDAsync_v2(unsigned long long d, const void *s, size_t n, void *st) { return cuMemcpyHtoD_v2(d, s, n); }
CUresult cuMemcpyDtoHAsync_v2(void *d, unsigned long long s, size_t n, void *st) { return cuMemcpyDtoH_v2(d, s, n); }
CUresult cuMemcpyDtoDAsync_v2(unsigned long long d, unsigned long long s, size_t n, void *st) { return cuMemcpyDtoD_v2(d, s, n); }
CUresult cuMemsetD8Async(unsigned long long d, unsigned char v, size_t n, void *st) { memset((void *)d, v, n); return 0; }
CUresult cuModuleLoadData(void **m, const void *i) { *m = &mod; return 0; }
// Whether the last PTX loaded has the grid barrier's marker (a kernel
// that calls grid.sync()).
static int gridSyncModule;
CUresult cuModuleLoadDataEx(void **m, const void *i, unsigned n, int *o, void **v) {
  NEEDS_CONTEXT;
  gridSyncModule = strstr((const char *)i, "kjit_grid_sync") != NULL;
  *m = &mod;
  return 0;
}
CUresult cuModuleUnload(void *m) { return 0; }
CUresult cuModuleGetFunction(void **f, void *m, const char *n) { *f = &fn; return 0; }
static unsigned long long errorRecord;  // kjit_error_record: the record's address
static unsigned errorClaim;             // kjit_error_claim
static char errorTable[1024];
static unsigned gridSyncMarker = 1;
CUresult cuModuleGetGlobal_v2(unsigned long long *p, size_t *b, void *m, const char *n) {
  if (!strcmp(n, "kjit_grid_sync")) {
    if (!gridSyncModule) return 500;
    *p = (unsigned long long)&gridSyncMarker;
    *b = 4;
    return 0;
  }
  const char *raises = getenv("FAKE_CUDA_RAISES");
  if (!raises) return 500;  // CUDA_ERROR_NOT_FOUND
  if (!strcmp(n, "kjit_error_record")) { *p = (unsigned long long)&errorRecord; *b = 8; return 0; }
  if (!strcmp(n, "kjit_error_claim")) { *p = (unsigned long long)&errorClaim; *b = 4; return 0; }
  if (!strcmp(n, "kjit_error_files")) { *p = (unsigned long long)"fake.py"; *b = 8; return 0; }
  if (!strcmp(n, "kjit_error_raises")) {
    size_t len = strlen(raises);
    if (len >= sizeof errorTable) len = sizeof errorTable - 1;
    for (size_t i = 0; i < len; ++i) errorTable[i] = raises[i] == ';' ? 0 : raises[i];
    errorTable[len] = 0;
    *p = (unsigned long long)errorTable;
    *b = len + 1;
    return 0;
  }
  return 500;
}
// What a kernel's failing thread does (abi::ErrorRecordField).
static void fakeRaise(void) {
  const char *which = getenv("FAKE_CUDA_RAISE");
  unsigned *rec = (unsigned *)errorRecord;
  if (!which || !rec || errorClaim) return;
  errorClaim = 1;
  unsigned fields[16] = {0, 7, 3, 0, 9, 0, 5, 0, 3, 0, 0, 1, 0, 0, 1, (unsigned)atoi(which)};
  memcpy(rec + 1, fields + 1, 15 * sizeof(unsigned));
  rec[0] = 1;
}
CUresult cuLinkCreate_v2(unsigned n, int *o, void **v, void **s) { *s = &mod; return 0; }
CUresult cuLinkAddData_v2(void *s, int t, void *d, size_t n, const char *nm, unsigned k, int *o, void **v) {
  static int count = 0;
  const char *dir = getenv("FAKE_CUDA_LINK_DIR");
  if (!dir) return 0;
  char path[4096];
  snprintf(path, sizeof path, "%s/link-%d-%d-%s", dir, count++, t, strchr(nm, '/') ? "path" : nm);
  FILE *f = fopen(path, "wb");
  if (f) { fwrite(d, 1, n, f); fclose(f); }
  return 0;
}
CUresult cuLinkComplete(void *s, void **c, size_t *n) { static char cubin[16]; *c = cubin; *n = 16; return 0; }
CUresult cuLinkDestroy(void *s) { return 0; }
CUresult cuFuncGetAttribute(int *v, int a, void *f) { *v = a == 0 ? 1024 : a == 4 ? 16 : 0; return 0; }
CUresult cuFuncSetAttribute(void *f, int a, int v) { return 0; }
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned sh, void *s, void **p, void **x) {
  NEEDS_CONTEXT;
  static int logging = -1;
  if (logging < 0) logging = getenv("FAKE_CUDA_LOG") != NULL;
  if (logging) logCall("cuLaunchKernel", -1);
  fakeRaise();
  return 0;
}
CUresult cuLaunchCooperativeKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                   unsigned by, unsigned bz, unsigned sh, void *s, void **p) {
  NEEDS_CONTEXT;
  logCall("cuLaunchCooperativeKernel", -1);
  // A GPU refuses a grid whose blocks cannot all be resident: here, more
  // than 132 multiprocessors x 2 blocks.
  if ((unsigned long long)gx * gy * gz > 264) return 720;  // CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE
  return 0;
}
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, void *f, int threads, size_t shared) {
  *n = threads <= 512 ? 2 : 1;
  return 0;
}
CUresult cuStreamCreate(void **s, unsigned f) {
  *s = malloc(1);
  *(unsigned char *)*s = (unsigned char)f;  // its flags, for cuStreamGetFlags
  return 0;
}
CUresult cuStreamGetFlags(void *s, unsigned *f) { *f = *(unsigned char *)s; return 0; }
CUresult cuStreamDestroy_v2(void *s) { free(s); return 0; }
CUresult cuStreamSynchronize(void *s) { return 0; }
CUresult cuStreamQuery(void *s) { return 0; }
CUresult cuStreamWaitEvent(void *s, void *e, unsigned f) { return 0; }
CUresult cuEventCreate(void **e, unsigned f) { *e = malloc(1); return 0; }
CUresult cuEventDestroy_v2(void *e) { free(e); return 0; }
CUresult cuEventRecord(void *e, void *s) { return 0; }
CUresult cuEventSynchronize(void *e) { return 0; }
CUresult cuEventQuery(void *e) { return 0; }
CUresult cuEventElapsedTime(float *ms, void *a, void *b) { *ms = 0; return 0; }
