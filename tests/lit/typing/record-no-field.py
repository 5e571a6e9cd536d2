# RUN: not %kjitc --emit=ir %s:f --sig="(R8a{1:x@0:float32;1:y@4:float32},)" 2>&1 | FileCheck --strict-whitespace %s
# A field the record does not have: the message lists the fields.


def f(r):
    return r.z

# CHECK:      {{^}}{{.*}}record-no-field.py:6:12: error: Record(x[type=float32;offset=0],y[type=float32;offset=4];8;True) has no field 'z'; its fields are x, y{{$}}
# CHECK-NEXT: {{^}}  File "{{.*}}record-no-field.py", line 6{{$}}
# CHECK-NEXT: {{^}}    return r.z{{$}}
# CHECK-NEXT: {{^}}           ^^^{{$}}
# CHECK-NOT: {{.}}
