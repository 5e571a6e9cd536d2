# RUN: %kjitc --emit=llvm %s:cmul --sig="(complex64, complex64)" | FileCheck --check-prefix=C64 %s
# RUN: %kjitc --emit=llvm %s:cmul --sig="(complex128, float64)" | FileCheck --check-prefix=C128 %s
# Complex numbers are {re, im} structs passed by value; a * b is
# (ar*br - ai*bi) + (ar*bi + ai*br)j in the parts' precision. A float operand
# is first converted to a complex with a zero imaginary part.


def cmul(a, b):
    return a * b

# C64-LABEL: define internal i32 @kjit.kjit_cmul_{{[0-9]+}}(
# C64-SAME:  ptr noalias %ret, ptr %ctx, { float, float } %a, { float, float } %b) {
# C64:       [[AR:%[a-z0-9._]+]] = extractvalue { float, float } [[A:%[a-z0-9._]+]], 0
# C64-NEXT:  [[AI:%[a-z0-9._]+]] = extractvalue { float, float } [[A]], 1
# C64-NEXT:  [[BR:%[a-z0-9._]+]] = extractvalue { float, float } [[B:%[a-z0-9._]+]], 0
# C64-NEXT:  [[BI:%[a-z0-9._]+]] = extractvalue { float, float } [[B]], 1
# C64-NEXT:  [[AIBI:%[a-z0-9._]+]] = fmul float [[AI]], [[BI]]
# C64-NEXT:  [[ARBR:%[a-z0-9._]+]] = fmul float [[AR]], [[BR]]
# C64-NEXT:  [[RE:%[a-z0-9._]+]] = fsub float [[ARBR]], [[AIBI]]
# C64-NEXT:  [[AIBR:%[a-z0-9._]+]] = fmul float [[AI]], [[BR]]
# C64-NEXT:  [[ARBI:%[a-z0-9._]+]] = fmul float [[AR]], [[BI]]
# C64-NEXT:  [[IM:%[a-z0-9._]+]] = fadd float [[ARBI]], [[AIBR]]
# C64-NEXT:  [[V0:%[a-z0-9._]+]] = insertvalue { float, float } undef, float [[RE]], 0
# C64-NEXT:  [[V1:%[a-z0-9._]+]] = insertvalue { float, float } [[V0]], float [[IM]], 1
# C64-NEXT:  store { float, float } [[V1]], ptr %ret, align 4
# C64-NEXT:  ret i32 0

# C128-LABEL: define internal i32 @kjit.kjit_cmul_{{[0-9]+}}(
# C128-SAME:  ptr noalias %ret, ptr %ctx, { double, double } %a, double %b) {
# C128:       [[Z:%[a-z0-9._]+]] = insertvalue { double, double } undef, double %b{{[0-9]*}}, 0
# C128-NEXT:  insertvalue { double, double } [[Z]], double 0.000000e+00, 1
# C128:       fmul double
# C128:       fsub double
# C128:       fadd double
# C128:       store { double, double } %{{[a-z0-9._]+}}, ptr %ret, align 8
# C128-NEXT:  ret i32 0
