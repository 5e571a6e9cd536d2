# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# That nothing follows this error is checked in invalid-character-cascade.py.
def kernel(x, out):
    out[0] = x[0] $ 2

# CHECK: {{^}}{{.*}}invalid-character.py:4:19: error: invalid character '$' (U+0024)
# CHECK-NEXT: {{^}}  File "{{.*}}invalid-character.py", line 4
# CHECK-NEXT: {{^}}    out[0] = x[0] $ 2
# CHECK-NEXT: {{^}}                  ^{{$}}
