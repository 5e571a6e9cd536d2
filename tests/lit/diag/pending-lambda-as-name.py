# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# PENDING (BUGS.txt): 'lambda' used as a variable name (common for a decay
# constant or wavelength) gets "expected a parameter name, found '='", which
# reads as if the user had written a lambda. Say that 'lambda' is a keyword.
# (The wording below is a proposal.)
def kernel(x, decay):
    lambda = 0.5 * decay
    x[0] *= lambda

# CHECK: {{^}}{{.*}}pending-lambda-as-name.py:7:5: error: 'lambda' is a keyword and cannot be used as a name
# CHECK-NEXT: {{^}}  File "{{.*}}pending-lambda-as-name.py", line 7
# CHECK-NEXT: {{^}}    lambda = 0.5 * decay
# CHECK-NEXT: {{^}}    ^^^^^^{{$}}
