# RUN: %kjitc --emit=llvm %s:fdiv --sig="(int64, int64)" | FileCheck %s
# Integer floor division: a zero divisor raises ZeroDivisionError through
# kjit_rt_raise (class, message, file, line) and returns status 1; the
# quotient rounds toward -inf as in Python, and a divisor of -1 is handled
# apart (INT64_MIN // -1 must not trap).


def fdiv(a, b):
    return a // b

# CHECK-DAG:   @[[EXC:\.str[.0-9]*]] = private unnamed_addr constant [18 x i8] c"ZeroDivisionError\00"
# CHECK-DAG:   @[[MSG:\.str[.0-9]*]] = private unnamed_addr constant [25 x i8] c"integer division by zero\00"
# CHECK-DAG:   @[[FILE:\.str[.0-9]*]] = private unnamed_addr constant [{{[0-9]+}} x i8] c"{{.*}}floordiv.py\00"

# CHECK-LABEL: define internal i32 @kjit.kjit_fdiv_{{[0-9]+}}(
# CHECK-SAME:  ptr noalias %ret, ptr %ctx, i64 %a, i64 %b) {
# CHECK:       [[A:%[a-z0-9._]+]] = load i64, ptr
# CHECK-NEXT:  [[B:%[a-z0-9._]+]] = load i64, ptr
# CHECK-NEXT:  [[ZERO:%[a-z0-9._]+]] = icmp eq i64 [[B]], 0
# CHECK-NEXT:  br i1 [[ZERO]], label %raise, label %ok, !prof
# CHECK-EMPTY:
# CHECK-NEXT:  raise:
# CHECK-NEXT:  call void @kjit_rt_raise(ptr %ctx, ptr @[[EXC]], ptr @[[MSG]], ptr @[[FILE]], i32 9)
# CHECK-NEXT:  ret i32 1
# CHECK-EMPTY:
# CHECK-NEXT:  ok:
# CHECK-NEXT:  [[M1:%[a-z0-9._]+]] = icmp eq i64 [[B]], -1
# CHECK-NEXT:  [[D:%[a-z0-9._]+]] = select i1 [[M1]], i64 1, i64 [[B]]
# CHECK-NEXT:  [[Q:%[a-z0-9._]+]] = sdiv i64 [[A]], [[D]]
# CHECK-NEXT:  [[R:%[a-z0-9._]+]] = srem i64 [[A]], [[D]]
# CHECK-NEXT:  [[X:%[a-z0-9._]+]] = xor i64 [[R]], [[B]]
# CHECK-NEXT:  [[NEG:%[a-z0-9._]+]] = icmp slt i64 [[X]], 0
# CHECK-NEXT:  [[NZ:%[a-z0-9._]+]] = icmp ne i64 [[R]], 0
# CHECK-NEXT:  [[ADJ:%[a-z0-9._]+]] = and i1 [[NZ]], [[NEG]]
# CHECK-NEXT:  [[QM1:%[a-z0-9._]+]] = sub i64 [[Q]], 1
# CHECK-NEXT:  [[FL:%[a-z0-9._]+]] = select i1 [[ADJ]], i64 [[QM1]], i64 [[Q]]
# CHECK-NEXT:  [[NA:%[a-z0-9._]+]] = sub i64 0, [[A]]
# CHECK-NEXT:  [[RES:%[a-z0-9._]+]] = select i1 [[M1]], i64 [[NA]], i64 [[FL]]
# CHECK-NEXT:  store i64 [[RES]], ptr %ret, align 8
# CHECK-NEXT:  ret i32 0
# CHECK-NEXT:  }
# CHECK:       declare void @kjit_rt_raise(ptr, ptr, ptr, ptr, i32)
# CHECK:       !{!"branch_weights", i32 1, i32 1048576}
