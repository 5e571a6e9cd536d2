# RUN: %kjitc --emit=llvm %s:caller --sig="(int64,)" | FileCheck %s
# A call between kjit functions passes a result slot and the context, and
# checks the callee's status: a nonzero status (an exception in the callee)
# returns at once with the same status. Each function is lowered once per
# specialisation, callees first.


def callee(a, b):
    return a // b


def caller(a):
    return callee(a, 3) + 1

# CHECK-LABEL: define internal i32 @kjit.kjit_callee_{{[0-9]+}}(
# CHECK-SAME:  ptr noalias %ret, ptr %ctx, i64 %a, i64 %b) {
# CHECK:       call void @kjit_rt_raise(ptr %ctx,
# CHECK-NEXT:  ret i32 1

# CHECK-LABEL: define internal i32 @kjit.kjit_caller_{{[0-9]+}}(
# CHECK-SAME:  ptr noalias %ret, ptr %ctx, i64 %a) {
# CHECK:       %call.ret = alloca i64, align 8
# CHECK:       [[ST:%[a-z0-9._]+]] = call i32 @kjit.kjit_callee_{{[0-9]+}}(ptr %call.ret, ptr %ctx, i64 %{{[a-z0-9._]+}}, i64 3)
# CHECK-NEXT:  [[BAD:%[a-z0-9._]+]] = icmp ne i32 [[ST]], 0
# CHECK-NEXT:  br i1 [[BAD]], label %propagate, label %ok, !prof
# CHECK-EMPTY:
# CHECK-NEXT:  propagate:
# CHECK-NEXT:  ret i32 [[ST]]
# CHECK-EMPTY:
# CHECK-NEXT:  ok:
# CHECK-NEXT:  [[V:%[a-z0-9._]+]] = load i64, ptr %call.ret, align 8
# CHECK-NEXT:  [[R:%[a-z0-9._]+]] = add i64 [[V]], 1
# CHECK-NEXT:  store i64 [[R]], ptr %ret, align 8
# CHECK-NEXT:  ret i32 0

# CHECK-LABEL: define i32 @kjit.kjit_caller_{{[0-9]+}}_entry(
# CHECK-NOT:   define
