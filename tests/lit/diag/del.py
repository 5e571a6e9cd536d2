# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# 'del' takes a list's element or a dict's key (del a[i]); a name is a
# located error.
def kernel(x):
    tmp = x[0]
    x[0] = x[1]
    x[1] = tmp
    del tmp

# CHECK: {{^}}{{.*}}del.py:8:9: error: 'del' of a name or an attribute is not supported; only 'del a[i]' of a list's element or a dict's key
# CHECK-NEXT: {{^}}  File "{{.*}}del.py", line 8
# CHECK-NEXT: {{^}}    del tmp
# CHECK-NEXT: {{^}}        ^^^{{$}}
# CHECK-NOT: {{.}}
