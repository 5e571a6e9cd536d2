# RUN: %kjitc --emit=llvm %s:add --sig="(float64, int64, bool)" | FileCheck %s
# The calling convention, unoptimised: every compiled function returns an i32
# status (0, or 1 when an exception was raised) and writes its result through
# `ret`; `ctx` carries the exception state. bool is i1 in registers and i8 in
# memory. The exported `_entry` wrapper has a C ABI: an array of pointers to
# the arguments, a pointer for the result, the context.


def add(x, n, flag):
    if flag:
        return x + n
    return x

# CHECK-LABEL: define internal i32 @kjit.kjit_add_{{[0-9]+}}(
# CHECK-SAME:  ptr noalias %ret, ptr %ctx, double %x, i64 %n, i1 %flag) {
# CHECK:       br i1 %{{.*}}, label %then, label %endif
# CHECK:       then:
# CHECK:       [[N:%[a-z0-9._]+]] = sitofp i64 %{{.*}} to double
# CHECK-NEXT:  [[SUM:%[a-z0-9._]+]] = fadd double %{{.*}}, [[N]]
# CHECK-NEXT:  store double [[SUM]], ptr %ret, align 8
# CHECK-NEXT:  ret i32 0
# CHECK:       endif:
# CHECK:       store double %{{.*}}, ptr %ret, align 8
# CHECK-NEXT:  ret i32 0
# CHECK-NEXT:  }

# CHECK-LABEL: define i32 @kjit.kjit_add_{{[0-9]+}}_entry(
# CHECK-SAME:  ptr [[ARGS:%[0-9]+]], ptr [[RET:%[0-9]+]], ptr [[CTX:%[0-9]+]]) {
# CHECK-NEXT:  entry:
# CHECK-NEXT:  [[SLOT:%[0-9]+]] = alloca double, align 8
# CHECK-NEXT:  [[P0:%[0-9]+]] = getelementptr ptr, ptr [[ARGS]], i64 0
# CHECK-NEXT:  [[A0:%[0-9]+]] = load ptr, ptr [[P0]], align 8
# CHECK-NEXT:  [[X:%[0-9]+]] = load double, ptr [[A0]], align 8
# CHECK-NEXT:  [[P1:%[0-9]+]] = getelementptr ptr, ptr [[ARGS]], i64 1
# CHECK-NEXT:  [[A1:%[0-9]+]] = load ptr, ptr [[P1]], align 8
# CHECK-NEXT:  [[N:%[0-9]+]] = load i64, ptr [[A1]], align 8
# CHECK-NEXT:  [[P2:%[0-9]+]] = getelementptr ptr, ptr [[ARGS]], i64 2
# CHECK-NEXT:  [[A2:%[0-9]+]] = load ptr, ptr [[P2]], align 8
# CHECK-NEXT:  [[B8:%[0-9]+]] = load i8, ptr [[A2]], align 1
# CHECK-NEXT:  [[B1:%[0-9]+]] = icmp ne i8 [[B8]], 0
# CHECK-NEXT:  [[ST:%[0-9]+]] = call i32 @kjit.kjit_add_{{[0-9]+}}(ptr [[SLOT]], ptr [[CTX]], double [[X]], i64 [[N]], i1 [[B1]])
# CHECK-NEXT:  [[R:%[0-9]+]] = load double, ptr [[SLOT]], align 8
# CHECK-NEXT:  store double [[R]], ptr [[RET]], align 8
# CHECK-NEXT:  ret i32 [[ST]]
# CHECK-NEXT:  }
