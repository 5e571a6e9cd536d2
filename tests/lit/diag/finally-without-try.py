# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    out[0] = x[0]
    finally:
        pass

# CHECK: {{^}}{{.*}}finally-without-try.py:4:5: error: 'finally' without a matching 'try'
# CHECK-NEXT: {{^}}  File "{{.*}}finally-without-try.py", line 4
# CHECK-NEXT: {{^}}    finally:
# CHECK-NEXT: {{^}}    ^^^^^^^{{$}}
# CHECK-NOT: {{.}}
