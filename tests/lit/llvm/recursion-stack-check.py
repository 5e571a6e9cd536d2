# RUN: %kjitc --emit=llvm %s:depth --sig="(int64,)" | FileCheck %s
# RUN: %kjitc --emit=llvm %s:plain --sig="(int64,)" | FileCheck --check-prefix=PLAIN %s
# RUN: %kjitc --emit=llvm --target=cuda %s:depth --sig="(int64,)" --device | FileCheck --check-prefix=GPU %s
# Host code: a function on a cycle of calls (depth, and even/odd through
# each other) compares its stack pointer with the context's stack bounds at
# entry (offsets 16 and 24) and calls the runtime past them, which raises
# RecursionError where the stack is full. Functions that do not recurse, and
# GPU code, have no check.


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1) + is_even(n)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def plain(n):
    return n + 1

# CHECK:       c"depth\00"
# CHECK-LABEL: define internal i32 @kjit.kjit_is_odd
# CHECK:       call i32 @kjit_rt_stack_check
# CHECK-LABEL: define internal i32 @kjit.kjit_is_even
# CHECK:       call i32 @kjit_rt_stack_check
# CHECK-LABEL: define internal i32 @kjit.kjit_depth
# CHECK:       call ptr @llvm.stacksave
# CHECK:       getelementptr i8, ptr %ctx, i64 16
# CHECK:       getelementptr i8, ptr %ctx, i64 24
# CHECK:       call i32 @kjit_rt_stack_check(ptr %ctx, i64 %{{.*}}, ptr @{{.*}}, ptr @{{.*}}, i32 11)

# PLAIN-NOT: kjit_rt_stack_check
# PLAIN-NOT: stacksave

# GPU-NOT: kjit_rt_stack_check
# GPU-NOT: stacksave
