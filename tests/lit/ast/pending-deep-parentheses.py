# RUN: %kjitc --emit=ast %s:kernel | FileCheck --strict-whitespace --match-full-lines %s
# PENDING (BUGS.txt): 100 nested parentheses are valid Python (CPython allows
# 200), but kjitc stops at 75 with "too many nested parentheses, blocks or
# operators (the limit is 150)": each parenthesis costs two levels.
def kernel(x):
    return ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x + 1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))

# CHECK:def kernel(x) <5:1>
# CHECK-NEXT:  return <6:5> (+ x 1)
# CHECK-NOT:{{.}}
