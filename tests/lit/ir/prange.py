# RUN: %kjitc --emit=ir %s:fill --sig="(float64[:],)" | FileCheck --strict-whitespace %s
# kjitc's module environment does not read decorator options: parallel=True
# below is not seen, so the prange loop is typed as a plain sequential `for`
# (it would print as `parfor` when the Python decorator sets parallel=True).


from kjit import njit, prange


@njit(parallel=True)
def fill(a):
    for i in prange(a.shape[0]):
        a[i] = i * 0.5
    return a

# CHECK:      {{^}}def fill(a: array(float64, 1d, A)) -> array(float64, 1d, A){{$}}
# CHECK-NEXT: {{^}}  for i in range(0, (shape a 0) : int64, 1):{{$}}
# CHECK-NEXT: {{^}}    (store a i) = (* (float64 i) 0.5){{$}}
# CHECK-NEXT: {{^}}  return a{{$}}
# CHECK-NOT: {{.}}
