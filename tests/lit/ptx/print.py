# RUN: %kjitc --emit=ptx %s:printer --sig="(float32[:],)" > %t.ptx
# RUN: FileCheck %s < %t.ptx
# RUN: %kjitc --emit=llvm --target=cuda %s:printer --sig="(float32[:],)" | FileCheck --check-prefix=LLVM %s
# print() in a kernel is one vprintf call per print, as in Numba: the format
# is built at compile time (strings as they are, signed integers as %lld
# after widening to 64 bits, floats as %f after widening to double, the
# items separated by spaces and ended by a newline) and the values are
# stored into a local buffer whose address is the second argument; a print
# with no values passes null. The formats live in constant memory, as
# Numba's (get_const_mem_size counts them). ptxas/print.test assembles it.

from numba import cuda


@cuda.jit
def printer(a):
    i = cuda.grid(1)
    print("value", i, a[i])
    print("done")

# CHECK:      .extern .func (.param .b32 func_retval0) vprintf
# CHECK-NEXT: (
# CHECK-NEXT:   .param .b64 vprintf_param_0,
# CHECK-NEXT:   .param .b64 vprintf_param_1
# CHECK-NEXT: )
# CHECK-NEXT: ;
# "value %lld %f\n" and "done\n", NUL-terminated.
# CHECK:      .const .align 1 .b8 [[FMT1:[A-Za-z0-9_$]+]][15] = {118, 97, 108, 117, 101, 32, 37, 108, 108, 100, 32, 37, 102, 10};
# CHECK:      .const .align 1 .b8 [[FMT2:[A-Za-z0-9_$]+]][6] = {100, 111, 110, 101, 10};
# CHECK:      .visible .entry printer(
# An int64 and a double.
# CHECK:      .local .align 8 .b8 __local_depot0[16];
# CHECK:      cvt.f64.f32 [[D:%fd[0-9]+]],
# CHECK-DAG:  st.local.u64 [[[BUF:%rd[0-9]+]]], {{%rd[0-9]+}};
# CHECK-DAG:  st.local.f64 [[[BUF]]+8], [[D]];
# CHECK:      mov.u64 [[P:%rd[0-9]+]], [[FMT1]];
# CHECK:      cvta.const.u64 [[G:%rd[0-9]+]], [[P]];
# CHECK:      st.param.b64 [param0+0], [[G]];
# CHECK:      call.uni (retval0),
# CHECK-NEXT: vprintf,
# CHECK:      mov.u64 [[P:%rd[0-9]+]], [[FMT2]];
# CHECK:      st.param.b64 [param1+0], 0;
# CHECK:      call.uni (retval0),
# CHECK-NEXT: vprintf,
# CHECK:      ret;

# LLVM:       @[[S1:[A-Za-z0-9_.]+]] = {{.*}}c"value %lld %f\0A\00"
# LLVM:       @[[S2:[A-Za-z0-9_.]+]] = {{.*}}c"done\0A\00"
# LLVM:       call i32 @vprintf(ptr addrspacecast (ptr addrspace(4) @[[S1]] to ptr), ptr %printf.args)
# LLVM:       call i32 @vprintf(ptr addrspacecast (ptr addrspace(4) @[[S2]] to ptr), ptr null)
# LLVM:       declare i32 @vprintf(ptr, ptr)
