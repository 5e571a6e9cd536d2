# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    out[0] = ?x[0]

# CHECK: {{^}}{{.*}}invalid-character-start.py:3:14: error: invalid character '?' (U+003F)
# CHECK-NEXT: {{^}}  File "{{.*}}invalid-character-start.py", line 3
# CHECK-NEXT: {{^}}    out[0] = ?x[0]
# CHECK-NEXT: {{^}}             ^{{$}}
# CHECK-NOT: {{.}}
