# RUN: %kjitc --emit=ptx %s:registers --sig="(int32[:],)" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=ir --target=cuda %s:registers --sig="(int32[:],)" | FileCheck --check-prefix=IR %s
# threadIdx, blockIdx, blockDim and gridDim read PTX's special registers
# %tid, %ctaid, %ntid and %nctaid, as int32 (Numba's Dim3 attributes);
# cuda.laneid reads %laneid and cuda.warpsize is the constant 32.
# ptxas/thread-registers.test assembles it.

from numba import cuda


@cuda.jit
def registers(out):
    out[0] = cuda.threadIdx.x
    out[1] = cuda.threadIdx.y
    out[2] = cuda.threadIdx.z
    out[3] = cuda.blockIdx.x
    out[4] = cuda.blockIdx.y
    out[5] = cuda.blockIdx.z
    out[6] = cuda.blockDim.x
    out[7] = cuda.blockDim.y
    out[8] = cuda.blockDim.z
    out[9] = cuda.gridDim.x
    out[10] = cuda.gridDim.y
    out[11] = cuda.gridDim.z
    out[12] = cuda.laneid
    out[13] = cuda.warpsize

# CHECK:      .visible .entry registers(
# CHECK:      mov.u32 [[R:%r[0-9]+]], %tid.x;
# CHECK-NEXT: st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %tid.y;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %tid.z;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %ctaid.x;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %ctaid.y;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %ctaid.z;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %ntid.x;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %ntid.y;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %ntid.z;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %nctaid.x;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %nctaid.y;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %nctaid.z;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.u32 [[R:%r[0-9]+]], %laneid;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK:      mov.b32 [[R:%r[0-9]+]], 32;
# CHECK:      st.global.u32 [{{%rd[0-9]+}}], [[R]];
# CHECK-NEXT: ret;

# IR:      {{^}}def registers(out: array(int32, 1d, A)) -> none{{$}}
# IR-NEXT: {{^}}  (store out 0) = (threadIdx 0) : int32{{$}}
# IR-NEXT: {{^}}  (store out 1) = (threadIdx 1) : int32{{$}}
# IR-NEXT: {{^}}  (store out 2) = (threadIdx 2) : int32{{$}}
# IR-NEXT: {{^}}  (store out 3) = (blockIdx 0) : int32{{$}}
# IR-NEXT: {{^}}  (store out 4) = (blockIdx 1) : int32{{$}}
# IR-NEXT: {{^}}  (store out 5) = (blockIdx 2) : int32{{$}}
# IR-NEXT: {{^}}  (store out 6) = (blockDim 0) : int32{{$}}
# IR-NEXT: {{^}}  (store out 7) = (blockDim 1) : int32{{$}}
# IR-NEXT: {{^}}  (store out 8) = (blockDim 2) : int32{{$}}
# IR-NEXT: {{^}}  (store out 9) = (gridDim 0) : int32{{$}}
# IR-NEXT: {{^}}  (store out 10) = (gridDim 1) : int32{{$}}
# IR-NEXT: {{^}}  (store out 11) = (gridDim 2) : int32{{$}}
# IR-NEXT: {{^}}  (store out 12) = (laneid) : int32{{$}}
# IR-NEXT: {{^}}  (store out 13) = 32{{$}}
# IR-NOT:  {{.}}
