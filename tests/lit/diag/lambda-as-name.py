# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# 'lambda' used as a variable name (common for a decay constant or a
# wavelength) is reported as the keyword it is, at each use, rather than as
# a lambda that lacks its parameters ("expected a parameter name, found
# '='").
def kernel(x, decay):
    lambda = 0.5 * decay
    x[0] *= lambda

# CHECK: {{^}}{{.*}}lambda-as-name.py:7:5: error: 'lambda' is a keyword and cannot be used as a name
# CHECK-NEXT: {{^}}  File "{{.*}}lambda-as-name.py", line 7
# CHECK-NEXT: {{^}}    lambda = 0.5 * decay
# CHECK-NEXT: {{^}}    ^^^^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}lambda-as-name.py:8:13: error: 'lambda' is a keyword and cannot be used as a name
# CHECK-NEXT: {{^}}  File "{{.*}}lambda-as-name.py", line 8
# CHECK-NEXT: {{^}}    x[0] *= lambda
# CHECK-NEXT: {{^}}            ^^^^^^{{$}}
# CHECK-NOT: {{.}}
