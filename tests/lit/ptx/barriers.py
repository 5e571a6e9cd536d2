# RUN: %kjitc --emit=ptx %s:barriers --sig="(int32[:], int32[:])" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:barriers --sig="(int32[:], int32[:])" | FileCheck --check-prefix=IR %s
# Barriers and fences, in program order: syncthreads is bar.sync 0; the
# predicate forms are bar.red (popc for the count, and/or on predicates),
# returning int32; syncwarp is bar.warp.sync with the full mask by default;
# threadfence, threadfence_block and threadfence_system are membar.gl, .cta
# and .sys. ptxas/barriers.test assembles it.

from numba import cuda


@cuda.jit
def barriers(a, out):
    i = cuda.threadIdx.x
    cuda.syncthreads()
    out[0] = cuda.syncthreads_count(a[i] > 0)
    out[1] = cuda.syncthreads_and(a[i] > 0)
    out[2] = cuda.syncthreads_or(a[i] > 0)
    cuda.syncwarp()
    cuda.syncwarp(0xffff)
    cuda.threadfence()
    cuda.threadfence_block()
    cuda.threadfence_system()

# CHECK:      .visible .entry barriers(
# CHECK:      bar.sync 0;
# CHECK:      bar.red.popc.u32 [[N:%r[0-9]+]], 0, %p{{[0-9]+}};
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[N]];
# CHECK:      bar.red.and.pred
# CHECK:      st.global.u32
# CHECK:      bar.red.or.pred
# CHECK:      st.global.u32
# CHECK-NEXT: bar.warp.sync -1;
# CHECK-NEXT: bar.warp.sync 65535;
# CHECK-NEXT: membar.gl;
# CHECK-NEXT: membar.cta;
# CHECK-NEXT: membar.sys;
# CHECK-NEXT: ret;

# IR:      {{^}}def barriers(a: array(int32, 1d, A), out: array(int32, 1d, A)) -> none{{$}}
# IR-NEXT: {{^}}  i: int32 = (threadIdx 0) : int32{{$}}
# IR-NEXT: {{^}}  (syncthreads) : none{{$}}
# IR-NEXT: {{^}}  (store out 0) = (syncthreads_count (> (int64 (load a (int64 i))) 0)) : int32{{$}}
# IR-NEXT: {{^}}  (store out 1) = (syncthreads_and (> (int64 (load a (int64 i))) 0)) : int32{{$}}
# IR-NEXT: {{^}}  (store out 2) = (syncthreads_or (> (int64 (load a (int64 i))) 0)) : int32{{$}}
# IR-NEXT: {{^}}  (syncwarp -1) : none{{$}}
# IR-NEXT: {{^}}  (syncwarp 65535) : none{{$}}
# IR-NEXT: {{^}}  (threadfence) : none{{$}}
# IR-NEXT: {{^}}  (threadfence_block) : none{{$}}
# IR-NEXT: {{^}}  (threadfence_system) : none{{$}}
# IR-NOT:  {{.}}
