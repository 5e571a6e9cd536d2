# RUN: %kjitc --emit=ptx %s:grids --sig="(int32[:],)" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:grids --sig="(int32[:],)" | FileCheck --check-prefix=IR %s
# cuda.grid(n) is ctaid * ntid + tid per axis, cuda.gridsize(n) is
# ntid * nctaid per axis: int64 for n = 1 and UniTuple(int64 x n) for
# n = 2, 3, as numba-cuda types them (a grid may hold 2^31 threads or more).
# Stored into an int32 array, only the low 32 bits are needed, and LLVM
# computes those in 32-bit arithmetic (mad.lo.s32). ptxas/grid.test
# assembles it.

from numba import cuda


@cuda.jit
def grids(out):
    out[0] = cuda.grid(1)
    x, y = cuda.grid(2)
    out[1] = y
    a, b, c = cuda.grid(3)
    out[2] = c
    out[3] = cuda.gridsize(1)
    nx, ny = cuda.gridsize(2)
    out[4] = ny
    mx, my, mz = cuda.gridsize(3)
    out[5] = mz

# CHECK:      .visible .entry grids(
# CHECK-DAG:  mov.u32 [[TX:%r[0-9]+]], %tid.x;
# CHECK-DAG:  mov.u32 [[CX:%r[0-9]+]], %ctaid.x;
# CHECK-DAG:  mov.u32 [[NX:%r[0-9]+]], %ntid.x;
# CHECK-DAG:  mad.lo.s32 [[GX:%r[0-9]+]], [[CX]], [[NX]], [[TX]];
# CHECK-DAG:  st.global.u32 [{{%rd[0-9]+}}], [[GX]];
# CHECK-DAG:  mov.u32 [[TY:%r[0-9]+]], %tid.y;
# CHECK-DAG:  mov.u32 [[CY:%r[0-9]+]], %ctaid.y;
# CHECK-DAG:  mov.u32 [[NY:%r[0-9]+]], %ntid.y;
# CHECK-DAG:  mad.lo.s32 [[GY:%r[0-9]+]], [[CY]], [[NY]], [[TY]];
# CHECK-DAG:  mov.u32 [[TZ:%r[0-9]+]], %tid.z;
# CHECK-DAG:  mov.u32 [[CZ:%r[0-9]+]], %ctaid.z;
# CHECK-DAG:  mov.u32 [[NZ:%r[0-9]+]], %ntid.z;
# CHECK-DAG:  mad.lo.s32 [[GZ:%r[0-9]+]], [[CZ]], [[NZ]], [[TZ]];
# CHECK-DAG:  mov.u32 [[BX:%r[0-9]+]], %nctaid.x;
# CHECK-DAG:  mul.lo.s32 [[SX:%r[0-9]+]], [[NX]], [[BX]];
# CHECK-DAG:  mov.u32 [[BY:%r[0-9]+]], %nctaid.y;
# CHECK-DAG:  mul.lo.s32 [[SY:%r[0-9]+]], [[NY]], [[BY]];
# CHECK-DAG:  mov.u32 [[BZ:%r[0-9]+]], %nctaid.z;
# CHECK-DAG:  mul.lo.s32 [[SZ:%r[0-9]+]], [[NZ]], [[BZ]];
# CHECK-DAG:  st.global.u32 [{{%rd[0-9]+}}], [[GY]];
# CHECK-DAG:  st.global.u32 [{{%rd[0-9]+}}], [[GZ]];
# CHECK-DAG:  st.global.u32 [{{%rd[0-9]+}}], [[SX]];
# CHECK-DAG:  st.global.u32 [{{%rd[0-9]+}}], [[SY]];
# CHECK-DAG:  st.global.u32 [{{%rd[0-9]+}}], [[SZ]];
# CHECK:      ret;

# IR:      {{^}}def grids(out: array(int32, 1d, A)) -> none{{$}}
# IR-NEXT: {{^}}  (store out 0) = (int32 (grid 0) : int64){{$}}
# IR-NEXT: {{^}}  $t0: UniTuple(int64 x 2) = (tuple (grid 0) : int64 (grid 1) : int64){{$}}
# IR-NEXT: {{^}}  x: int64 = $t0[0]{{$}}
# IR-NEXT: {{^}}  y: int64 = $t0[1]{{$}}
# IR-NEXT: {{^}}  (store out 1) = (int32 y){{$}}
# IR-NEXT: {{^}}  $t1: UniTuple(int64 x 3) = (tuple (grid 0) : int64 (grid 1) : int64 (grid 2) : int64){{$}}
# IR:      {{^}}  (store out 3) = (int32 (gridsize 0) : int64){{$}}
# IR-NEXT: {{^}}  $t2: UniTuple(int64 x 2) = (tuple (gridsize 0) : int64 (gridsize 1) : int64){{$}}
# IR:      {{^}}  $t3: UniTuple(int64 x 3) = (tuple (gridsize 0) : int64 (gridsize 1) : int64 (gridsize 2) : int64){{$}}
# IR:      {{^}}  mz: int64 = $t3[2]{{$}}
# IR-NEXT: {{^}}  (store out 5) = (int32 mz){{$}}
# IR-NOT:  {{.}}
