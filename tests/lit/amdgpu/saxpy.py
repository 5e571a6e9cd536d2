# RUN: %kjitc --emit=amdgcn --target=gfx90a %s:saxpy --sig="(float32, float32[::1], float32[::1], float32[::1])" | FileCheck %s
# RUN: %kjitc --emit=hsaco --target=gfx90a -o %t.hsaco %s:saxpy --sig="(float32, float32[::1], float32[::1], float32[::1])"
# RUN: llvm-readelf --notes %t.hsaco | FileCheck %s --check-prefix=NOTES
# SAXPY for an AMD CDNA GPU. The array data pointers are kernel arguments
# in the global address space (global_load/global_store, as HIP's), the
# block size comes from the implicit arguments of code object v5 (after
# kjit's own, as HIP's kernels read it), and the code object describes
# every argument as kjit's AMD ABI passes it: the numbers and the arrays'
# data pointers in order (adjacent, so that one load fetches them), then
# each array's shape and stride.

from numba import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]

# CHECK:      .amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
# CHECK:      saxpy:
# CHECK:      s_load_dwordx8
# CHECK:      global_load_dword
# CHECK:      global_load_dword
# CHECK:      v_fmac_f32
# CHECK:      global_store_dword
# CHECK:      s_endpgm
# CHECK:      .amdhsa_kernel saxpy
# CHECK:      .amdhsa_group_segment_fixed_size 0
# CHECK:      .amdhsa_user_sgpr_kernarg_segment_ptr 1

# NOTES:      NT_AMDGPU_METADATA
# NOTES:      .name: a
# NOTES:      .name: x.data
# NOTES:      .value_kind: global_buffer
# NOTES:      .name: y.data
# NOTES:      .name: out.data
# NOTES:      .name: x.shape0
# NOTES:      .name: x.stride0
# NOTES:      .name: y.shape0
# NOTES:      .name: out.stride0
# NOTES:      .value_kind: hidden_group_size_x
# NOTES:      .name: saxpy
# NOTES:      .symbol: saxpy.kd
# NOTES:      .wavefront_size: 64
# NOTES:      amdhsa.target: amdgcn-amd-amdhsa--gfx90a
