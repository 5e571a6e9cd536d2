# RUN: %kjitc --emit=ir %s:f --sig="(R16a{1:a@0:float64;1:b@8:int32;1:j@12:[2]uint16}[:], int64)" | FileCheck --strict-whitespace %s
# Records (NumPy structured dtypes), spelled in the signature by their spec:
# an element of an array of records is a reference to it, its fields are
# read and written by name or position, a nested array reads as a view, a
# whole record is copied into an element, and ary.b is the field of every
# element.


def f(a, i):
    r = a[i]
    r.a = r["b"] + r.j[1]
    a[i].b += 1
    a[0] = a[i]
    return a.b[i] + r[0]

# CHECK:      {{^}}def f(a: array(Record(a[type=float64;offset=0],b[type=int32;offset=8],j[type=nestedarray(uint16, (2,));offset=12];16;True), 1d, A), i: int64) -> float64{{$}}
# CHECK-NEXT: {{^}}  r: Record({{.*}};16;True) = (load a i){{$}}
# CHECK-NEXT: {{^}}  (record.set "a" r (float64 (+ (int64 (record.get "b" r) : int32) (int64 (load (record.get "j" r) : array(uint16, 1d, C) 1))))) : none{{$}}
# CHECK-NEXT: {{^}}  $t0: Record({{.*}}) = (load a i){{$}}
# CHECK-NEXT: {{^}}  (record.set "b" $t0 (int32 (+ (int64 (record.get "b" $t0) : int32) 1))) : none{{$}}
# CHECK-NEXT: {{^}}  (store a 0) = (load a i){{$}}
# CHECK-NEXT: {{^}}  return (+ (float64 (load (record.field "b" a) : array(int32, 1d, A) i)) (record.get "a" r) : float64){{$}}
# CHECK-NOT: {{.}}
