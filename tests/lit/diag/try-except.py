# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# try/except/else is parsed (it runs in @jit functions; kernels refuse it when
# typed); `finally` and binding the exception object are reported here, as
# Numba has neither.
from kjit import cuda


@cuda.jit
def kernel(x, out):
    i = cuda.grid(1)
    try:
        out[i] = 1.0 / x[i]
    except ZeroDivisionError as e:
        out[i] = 0.0
    finally:
        pass

# CHECK: {{^}}{{.*}}try-except.py:13:30: error: 'except ... as name' is not supported: the exception object cannot be bound (as in Numba); catch the class alone
# CHECK-NEXT: {{^}}  File "{{.*}}try-except.py", line 13
# CHECK-NEXT: {{^}}    except ZeroDivisionError as e:
# CHECK-NEXT: {{^}}                             ^^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}try-except.py:15:5: error: 'finally' is not supported in kernels (as in Numba)
# CHECK-NEXT: {{^}}  File "{{.*}}try-except.py", line 15
# CHECK-NEXT: {{^}}    finally:
# CHECK-NEXT: {{^}}    ^^^^^^^{{$}}
# CHECK-NOT: {{.}}
