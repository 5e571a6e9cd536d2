# RUN: %kjitc --emit=ptx %s:grids --sig="(int32[:],)" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:grids --sig="(int32[:],)" | FileCheck --check-prefix=IR %s
# cuda.grid(n) is ctaid * ntid + tid per axis, cuda.gridsize(n) is
# ntid * nctaid per axis, in 32-bit arithmetic: int32 for n = 1 and
# UniTuple(int32 x n) for n = 2, 3, as in Numba. ptxas/grid.test
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
# IR-NEXT: {{^}}  (store out 0) = (grid 0) : int32{{$}}
# IR-NEXT: {{^}}  $t0: UniTuple(int32 x 2) = (tuple (grid 0) : int32 (grid 1) : int32){{$}}
# IR-NEXT: {{^}}  x: int32 = $t0[0]{{$}}
# IR-NEXT: {{^}}  y: int32 = $t0[1]{{$}}
# IR-NEXT: {{^}}  (store out 1) = y{{$}}
# IR-NEXT: {{^}}  $t1: UniTuple(int32 x 3) = (tuple (grid 0) : int32 (grid 1) : int32 (grid 2) : int32){{$}}
# IR:      {{^}}  (store out 3) = (gridsize 0) : int32{{$}}
# IR-NEXT: {{^}}  $t2: UniTuple(int32 x 2) = (tuple (gridsize 0) : int32 (gridsize 1) : int32){{$}}
# IR:      {{^}}  $t3: UniTuple(int32 x 3) = (tuple (gridsize 0) : int32 (gridsize 1) : int32 (gridsize 2) : int32){{$}}
# IR:      {{^}}  mz: int32 = $t3[2]{{$}}
# IR-NEXT: {{^}}  (store out 5) = mz{{$}}
# IR-NOT:  {{.}}
