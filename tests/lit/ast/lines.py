# RUN: %kjitc --emit=ast --ast-locs %s:stencil | FileCheck --strict-whitespace --match-full-lines %s
# Line structure: implicit joining inside brackets, backslash continuation,
# comments and blank lines anywhere, a comment-only line at any indentation.
from kjit import cuda


@cuda.jit(
    "void(float32[:], float32[:])",   # the signature
    fastmath=True,
)
def stencil(src,    # input
            dst):   # output
    # first comment

    i = cuda.grid(1)  # trailing comment
    n = src.shape[0]

    if (i > 0 and
            i < n - 1):
        dst[i] = (src[i - 1] +
                  src[i] * 2 +   # centre
                  src[i + 1]) / 4
  # a comment less indented than the block
        w = [1,
             2,
        ]
            # a comment more indented than the block
    elif i == 0 \
            or i == n - 1:
        dst[i] = src[i]
    total = src[0] + \
        src[1] + \
        src[2]
    return total

# CHECK:def stencil(src, dst) <11:1>
# CHECK-NEXT:  decorator (call (. cuda@7:2 jit)@7:2 "void(float32[:], float32[:])"@8:5 (kw fastmath True@9:14))@7:2
# CHECK-NEXT:  assign <15:5> i@15:5 = (call (. cuda@15:9 grid)@15:9 1@15:19)@15:9
# CHECK-NEXT:  assign <16:5> n@16:5 = (index (. src@16:9 shape)@16:9 0@16:19)@16:9
# CHECK-NEXT:  if <18:5> (and (> i@18:9 0@18:13)@18:9 (< i@19:13 (- n@19:17 1@19:21)@19:17)@19:13)@18:9
# CHECK-NEXT:    assign <20:9> (index dst@20:9 i@20:13)@20:9 = (/ (+ (+ (index src@20:19 (- i@20:23 1@20:27)@20:23)@20:19 (* (index src@21:19 i@21:23)@21:19 2@21:28)@21:19)@20:19 (index src@22:19 (+ i@22:23 1@22:27)@22:23)@22:19)@20:19 4@22:33)@20:18
# CHECK-NEXT:    assign <24:9> w@24:9 = (list 1@24:14 2@25:14)@24:13
# CHECK-NEXT:  elif <28:5> (or (== i@28:10 0@28:15)@28:10 (== i@29:16 (- n@29:21 1@29:25)@29:21)@29:16)@28:10
# CHECK-NEXT:    assign <30:9> (index dst@30:9 i@30:13)@30:9 = (index src@30:18 i@30:22)@30:18
# CHECK-NEXT:  assign <31:5> total@31:5 = (+ (+ (index src@31:13 0@31:17)@31:13 (index src@32:9 1@32:13)@32:9)@31:13 (index src@33:9 2@33:13)@33:9)@31:13
# CHECK-NEXT:  return <34:5> total@34:12
# CHECK-NOT:{{.}}
