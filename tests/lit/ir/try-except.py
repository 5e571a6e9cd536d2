# RUN: %kjitc --emit=ir %s:f --sig="(float64,)" | FileCheck --strict-whitespace %s
# try/except/else in a host function: a Try statement whose handler is an
# if/elif chain over the clauses (exc.matches names each clause's classes;
# a bare except matches any); an exception no clause takes is raised on.
def f(x):
    try:
        r = 1.0 / x
    except (ZeroDivisionError, OverflowError):
        r = 0.0
    except:
        r = -1.0
    else:
        r += 1.0
    return r
# CHECK:      {{^}}def f(x: float64) -> float64{{$}}
# CHECK-NEXT: {{^}}  try:{{$}}
# CHECK-NEXT: {{^}}    r: float64 = (/ 1 x){{$}}
# CHECK-NEXT: {{^}}  except:{{$}}
# CHECK-NEXT: {{^}}    if (exc.matches "ZeroDivisionError|OverflowError") : bool:{{$}}
# CHECK-NEXT: {{^}}      (exc.clear) : none{{$}}
# CHECK-NEXT: {{^}}      r: float64 = 0{{$}}
# CHECK-NEXT: {{^}}    else:{{$}}
# CHECK-NEXT: {{^}}      if (exc.matches "") : bool:{{$}}
# CHECK-NEXT: {{^}}        (exc.clear) : none{{$}}
# CHECK-NEXT: {{^}}        r: float64 = -1{{$}}
# CHECK-NEXT: {{^}}      else:{{$}}
# CHECK-NEXT: {{^}}        (exc.reraise) : none{{$}}
# CHECK-NEXT: {{^}}  else:{{$}}
# CHECK-NEXT: {{^}}    r: float64 = (+ r 1){{$}}
# CHECK-NEXT: {{^}}  return r{{$}}
