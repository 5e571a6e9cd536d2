# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
def kernel(x, out):
    if x[0] > 0:
	out[0] = 1
    out[1] = 2

# CHECK: {{^}}{{.*}}tabs-spaces.py:4:2: error: inconsistent use of tabs and spaces in indentation
# CHECK-NEXT: {{^}}  File "{{.*}}tabs-spaces.py", line 4
# CHECK-NEXT: {{^}}    out[0] = 1
# CHECK-NEXT: {{^}}    ^{{$}}
# CHECK-NOT: {{.}}
