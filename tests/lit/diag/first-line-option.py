# RUN: not %kjitc --emit=ast --first-line=40 --name=kernels.py %S/Inputs/indented-kernel.txt:kernel 2>&1 | FileCheck --strict-whitespace %s
# --first-line=N numbers the text from line N (the function's text taken out
# of a bigger file); --name sets the file name shown. The text is indented as
# in a class body; its first line sets level 0.

# CHECK: {{^}}kernels.py:42:17: error: '**' unpacking in a dict display is not supported
# CHECK-NEXT: {{^}}  File "kernels.py", line 42
# CHECK-NEXT: {{^}}    table = {**t2}
# CHECK-NEXT: {{^}}            ^^^^^^{{$}}
# CHECK-NOT: {{.}}
