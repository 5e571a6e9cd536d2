# RUN: %kjitc --emit=ast %s:saxpy | FileCheck %s
from kjit import cuda


@cuda.jit
def saxpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.shape[0]:
        out[i] = a * x[i] + y[i]

# CHECK:      def saxpy(a, x, y, out) <6:1>
# CHECK-NEXT:   decorator (. cuda jit)
# CHECK-NEXT:   assign <7:5> i = (call (. cuda grid) 1)
# CHECK-NEXT:   if <8:5> (< i (index (. x shape) 0))
# CHECK-NEXT:     assign <9:9> (index out i) = (+ (* a (index x i)) (index y i))
