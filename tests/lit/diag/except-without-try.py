# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    out[0] = 1.0 / x[0]
    except ZeroDivisionError:
        out[0] = 0.0

# CHECK: {{^}}{{.*}}except-without-try.py:4:5: error: 'except' without a matching 'try'
# CHECK-NEXT: {{^}}  File "{{.*}}except-without-try.py", line 4
# CHECK-NEXT: {{^}}    except ZeroDivisionError:
# CHECK-NEXT: {{^}}    ^^^^^^{{$}}
# CHECK-NOT: {{.}}
