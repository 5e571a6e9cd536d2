# RUN: not %kjitc --emit=ast %s:kernel 2>&1 | FileCheck --strict-whitespace %s
# '\N{NAME}' escapes need Unicode's table of character names, which kjitc does
# not carry: they are refused, not kept as the raw text "\N{...}" (a wrong
# value). A '\N' without a {NAME} is malformed, as in Python. In bytes, '\N'
# is no escape and stays as written.
def kernel(x):
    print("\N{GREEK SMALL LETTER ALPHA} =", x, b"\N{X}")
    return "\N"

# CHECK: {{^}}{{.*}}named-unicode-escape.py:7:12: error: named Unicode escapes ('\N{...}') are not supported in kernels; write the character itself or a '\u' escape
# CHECK-NEXT: {{^}}  File "{{.*}}named-unicode-escape.py", line 7
# CHECK-NEXT: {{^}}    print("\N{GREEK SMALL LETTER ALPHA} =", x, b"\N{X}")
# CHECK-NEXT: {{^}}           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^{{$}}
# CHECK-NEXT: {{^}}{{.*}}named-unicode-escape.py:8:13: error: malformed \N character escape in string literal
# CHECK-NEXT: {{^}}  File "{{.*}}named-unicode-escape.py", line 8
# CHECK-NEXT: {{^}}    return "\N"
# CHECK-NEXT: {{^}}            ^{{$}}
# CHECK-NOT: {{.}}
