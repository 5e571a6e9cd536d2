# RUN: not %kjitc --emit=ast %S/Inputs/cr-only.py:kernel 2>&1 | FileCheck --strict-whitespace %s
# Inputs/cr-only.py ends its lines with a lone CR (old Mac style). The lexer
# accepts it, and the message has its excerpt as with LF and CRLF: the source
# manager splits lines at CR too.
# CHECK: {{^}}{{.*}}cr-only.py:2:13: error: '**' unpacking in a dict display is not supported
# CHECK-NEXT: {{^}}  File "{{.*}}cr-only.py", line 2
# CHECK-NEXT: {{^}}    total = {**d}
# CHECK-NEXT: {{^}}            ^^^^^{{$}}
# CHECK-NOT: {{.}}
