# RUN: %kjitc --emit=ir %s:mixed --sig="(int8, uint8, int16, uint64, int64, float32, float64)" | FileCheck --strict-whitespace %s
# The promotion table: small integers widen to (u)int64, int64 op uint64 is
# int64, float32 with int8/uint8/int16 stays float32, with wider integers it
# is float64; float32 op float64 is float64.


def mixed(i8, u8, i16, u64, i64, f32, f64):
    r1 = i8 + i8
    r2 = u8 + u8
    r3 = u8 + i8
    r4 = i64 + u64
    r5 = i16 * f32
    r6 = u8 - f32
    r7 = f32 + f64
    r8 = f32 + 1
    r9 = f32 + f32
    return r1, r2, r3, r4, r5, r6, r7, r8, r9

# CHECK:      {{^}}def mixed(i8: int8, u8: uint8, i16: int16, u64: uint64, i64: int64, f32: float32, f64: float64) -> Tuple(int64, uint64, int64, int64, float32, float32, float64, float64, float32){{$}}
# CHECK-NEXT: {{^}}  r1: int64 = (+ (int64 i8) (int64 i8)){{$}}
# CHECK-NEXT: {{^}}  r2: uint64 = (+ (uint64 u8) (uint64 u8)){{$}}
# CHECK-NEXT: {{^}}  r3: int64 = (+ (int64 u8) (int64 i8)){{$}}
# CHECK-NEXT: {{^}}  r4: int64 = (+ i64 (int64 u64)){{$}}
# CHECK-NEXT: {{^}}  r5: float32 = (* (float32 i16) f32){{$}}
# CHECK-NEXT: {{^}}  r6: float32 = (- (float32 u8) f32){{$}}
# CHECK-NEXT: {{^}}  r7: float64 = (+ (float64 f32) f64){{$}}
# CHECK-NEXT: {{^}}  r8: float64 = (+ (float64 f32) 1){{$}}
# CHECK-NEXT: {{^}}  r9: float32 = (+ f32 f32){{$}}
# CHECK-NEXT: {{^}}  return (tuple r1 r2 r3 r4 r5 r6 r7 r8 r9){{$}}
# CHECK-NOT: {{.}}
