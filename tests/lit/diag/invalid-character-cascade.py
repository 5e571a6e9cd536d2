# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# After the lexer reports an invalid character, the parser does not report
# the same token again ("expected end of line, found '$'").
def kernel(x, out):
    out[0] = x[0] $ 2

# CHECK: {{^}}{{.*}}invalid-character-cascade.py:5:19: error: invalid character '$' (U+0024)
# CHECK-NEXT: {{^}}  File "{{.*}}invalid-character-cascade.py", line 5
# CHECK-NEXT: {{^}}    out[0] = x[0] $ 2
# CHECK-NEXT: {{^}}                  ^{{$}}
# CHECK-NOT: {{.}}
