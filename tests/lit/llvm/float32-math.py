# RUN: %kjitc --emit=llvm %s:f32math --sig="(float32,)" | FileCheck --check-prefix=F32 %s
# RUN: %kjitc --emit=llvm %s:f32math --sig="(int64,)" | FileCheck --check-prefix=I64 %s
# math on float32 stays in single precision: LLVM's f32 intrinsics where
# there is one (sqrt), the C library's float functions (tanf) otherwise. On
# an int64 the argument converts to double and the double functions run.


import math


def f32math(x):
    return math.sqrt(x) + math.tan(x)

# F32-LABEL: define internal i32 @kjit.kjit_f32math_{{[0-9]+}}(
# F32-SAME:  ptr noalias %ret, ptr %ctx, float %x) {
# F32:       [[S:%[a-z0-9._]+]] = call float @llvm.sqrt.f32(float %{{[a-z0-9._]+}})
# F32:       [[T:%[a-z0-9._]+]] = call float @tanf(float %{{[a-z0-9._]+}})
# F32-NEXT:  [[R:%[a-z0-9._]+]] = fadd float [[S]], [[T]]
# F32-NEXT:  store float [[R]], ptr %ret, align 4
# F32-DAG:   declare float @llvm.sqrt.f32(float)
# F32-DAG:   declare float @tanf(float)
# F32-NOT:   double

# I64-LABEL: define internal i32 @kjit.kjit_f32math_{{[0-9]+}}(
# I64-SAME:  ptr noalias %ret, ptr %ctx, i64 %x) {
# I64:       [[C:%[a-z0-9._]+]] = sitofp i64 %{{[a-z0-9._]+}} to double
# I64-NEXT:  call double @llvm.sqrt.f64(double [[C]])
# I64:       [[C2:%[a-z0-9._]+]] = sitofp i64 %{{[a-z0-9._]+}} to double
# I64-NEXT:  call double @tan(double [[C2]])
# I64:       store double %{{[a-z0-9._]+}}, ptr %ret, align 8
# I64-DAG:   declare double @llvm.sqrt.f64(double)
# I64-DAG:   declare double @tan(double)
