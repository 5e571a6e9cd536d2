# RUN: %kjitc --emit=ir --target=cuda %s:kernel --sig="(uint32[:],)" | FileCheck --strict-whitespace %s
# Dtypes, functions (kernel-language functions, dtypes called as casts, kjit
# functions) and integer or bool literals passed to a kjit function are
# compile-time arguments, as Numba types them: the callee is specialised on
# them, takes no run-time parameter for a dtype or a function, and reads a
# literal as a constant (a shape of cuda.shared.array; `if flag:` keeps the
# branch taken).
from kjit import cuda, uint32, uint64


def cast_none(n):
    return n


def helper(ary, n, dt, binop, cast, wrap):
    sm = cuda.shared.array(n, dt)
    i = cast(cuda.threadIdx.x)
    if wrap:
        i = i % n
    binop(sm, i, 1)
    ary[0] = sm[0]


def kernel(ary):
    helper(ary, 32, uint32, cuda.atomic.add, cast_none, True)
    helper(ary, 16, uint32, cuda.atomic.max, uint64, False)

# CHECK:      {{^}}def cast_none(n: int32) -> int32{{$}}
# CHECK-NEXT: {{^}}  return n{{$}}
# CHECK-NEXT: {{^}}def helper(ary: array(uint32, 1d, A), n: int64, wrap: bool) -> none{{$}}
# CHECK-NEXT: {{^}}  sm: array(uint32, 1d, C) = (shared.array 32) : array(uint32, 1d, C){{$}}
# CHECK-NEXT: {{^}}  i: int64 = (int64 (call cast_none (threadIdx 0) : int32) : int32){{$}}
# CHECK-NEXT: {{^}}  i: int64 = (% i 32){{$}}
# CHECK-NEXT: {{^}}  (atomic.add sm i 1u) : uint32{{$}}
# CHECK-NEXT: {{^}}  (store ary 0) = (load sm 0){{$}}
# CHECK-NEXT: {{^}}def helper(ary: array(uint32, 1d, A), n: int64, wrap: bool) -> none{{$}}
# CHECK-NEXT: {{^}}  sm: array(uint32, 1d, C) = (shared.array 16) : array(uint32, 1d, C){{$}}
# CHECK-NEXT: {{^}}  i: uint64 = (uint64 (threadIdx 0) : int32){{$}}
# CHECK-NEXT: {{^}}  (atomic.max sm (int64 i) 1u) : uint32{{$}}
# CHECK-NEXT: {{^}}  (store ary 0) = (load sm 0){{$}}
# CHECK-NEXT: {{^}}def kernel(ary: array(uint32, 1d, A)) -> none{{$}}
# CHECK-NEXT: {{^}}  (call helper ary 32 True) : none{{$}}
# CHECK-NEXT: {{^}}  (call helper ary 16 False) : none{{$}}
# CHECK-NOT: {{.}}
