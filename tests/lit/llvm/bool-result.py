# RUN: %kjitc --emit=llvm %s:positive --sig="(float64,)" | FileCheck %s
# A bool result is an i1 inside and crosses the C ABI as one byte: the entry
# wrapper widens it with zext before storing it.


def positive(x):
    return x > 0.0

# CHECK-LABEL: define internal i32 @kjit.kjit_positive_{{[0-9]+}}(
# CHECK-SAME:  ptr noalias %ret, ptr %ctx, double %x) {
# CHECK:       [[C:%[a-z0-9._]+]] = fcmp ogt double %{{.*}}, 0.000000e+00
# CHECK-NEXT:  store i1 [[C]], ptr %ret, align 1
# CHECK-NEXT:  ret i32 0

# CHECK-LABEL: define i32 @kjit.kjit_positive_{{[0-9]+}}_entry(
# CHECK-SAME:  ptr [[ARGS:%[0-9]+]], ptr [[RET:%[0-9]+]], ptr [[CTX:%[0-9]+]]) {
# CHECK:       [[SLOT:%[0-9]+]] = alloca i1, align 1
# CHECK:       [[ST:%[0-9]+]] = call i32 @kjit.kjit_positive_{{[0-9]+}}(ptr [[SLOT]], ptr [[CTX]], double %{{[0-9]+}})
# CHECK-NEXT:  [[R:%[0-9]+]] = load i1, ptr [[SLOT]], align 1
# CHECK-NEXT:  [[W:%[0-9]+]] = zext i1 [[R]] to i8
# CHECK-NEXT:  store i8 [[W]], ptr [[RET]], align 1
# CHECK-NEXT:  ret i32 [[ST]]
