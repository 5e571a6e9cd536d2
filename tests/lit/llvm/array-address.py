# RUN: %kjitc --emit=llvm %s:load2 --sig="(float64[:, ::1], int64, int64)" | FileCheck --check-prefix=C %s
# RUN: %kjitc --emit=llvm %s:load2 --sig="(float64[:, :], int64, int64)" | FileCheck --check-prefix=A %s
# RUN: %kjitc --emit=llvm %s:load2 --sig="(float32[::1, :], int64, int64)" | FileCheck --check-prefix=F %s
# RUN: %kjitc --emit=llvm %s:store1 --sig="(int32[::1], int64, int32)" | FileCheck --check-prefix=ONE %s
# Element addresses: data + sum(index * stride) in bytes. Negative indices
# wrap (index + shape when index < 0). The contiguous axis (last for C, first
# for F) uses the item size as a constant stride; the other axes, and every
# axis of an A array, read the stride from the descriptor
# {meminfo, data, shape[n], strides[n]}.


def load2(a, i, j):
    return a[i, j]


def store1(a, i, v):
    a[i] = v

# C: %kjit.array2 = type { ptr, ptr, [2 x i64], [2 x i64] }
# C-LABEL: define internal i32 @kjit.kjit_load2_{{[0-9]+}}(
# C-SAME:  ptr noalias %ret, ptr %ctx, %kjit.array2 %a, i64 %i, i64 %j) {
# C:       [[N0:%[a-z0-9._]+]] = extractvalue %kjit.array2 [[D:%[a-z0-9._]+]], 2, 0
# C-NEXT:  [[I1:%[a-z0-9._]+]] = add i64 [[I:%[a-z0-9._]+]], [[N0]]
# C-NEXT:  [[NEGI:%[a-z0-9._]+]] = icmp slt i64 [[I]], 0
# C-NEXT:  [[IW:%[a-z0-9._]+]] = select i1 [[NEGI]], i64 [[I1]], i64 [[I]]
# C-NEXT:  [[S0:%[a-z0-9._]+]] = extractvalue %kjit.array2 [[D]], 3, 0
# C-NEXT:  [[T0:%[a-z0-9._]+]] = mul i64 [[IW]], [[S0]]
# C-NEXT:  [[N1:%[a-z0-9._]+]] = extractvalue %kjit.array2 [[D]], 2, 1
# C-NEXT:  [[J1:%[a-z0-9._]+]] = add i64 [[J:%[a-z0-9._]+]], [[N1]]
# C-NEXT:  [[NEGJ:%[a-z0-9._]+]] = icmp slt i64 [[J]], 0
# C-NEXT:  [[JW:%[a-z0-9._]+]] = select i1 [[NEGJ]], i64 [[J1]], i64 [[J]]
# C-NEXT:  [[T1:%[a-z0-9._]+]] = mul i64 [[JW]], 8
# C-NEXT:  [[OFF:%[a-z0-9._]+]] = add i64 [[T0]], [[T1]]
# C-NEXT:  [[DATA:%[a-z0-9._]+]] = extractvalue %kjit.array2 [[D]], 1
# C-NEXT:  [[P:%[a-z0-9._]+]] = getelementptr i8, ptr [[DATA]], i64 [[OFF]]
# C-NEXT:  [[V:%[a-z0-9._]+]] = load double, ptr [[P]], align 8
# C-NEXT:  store double [[V]], ptr %ret, align 8

# A-LABEL: define internal i32 @kjit.kjit_load2_{{[0-9]+}}(
# A:       [[S0:%[a-z0-9._]+]] = extractvalue %kjit.array2 [[D:%[a-z0-9._]+]], 3, 0
# A-NEXT:  mul i64 %{{.*}}, [[S0]]
# A:       [[S1:%[a-z0-9._]+]] = extractvalue %kjit.array2 [[D]], 3, 1
# A-NEXT:  mul i64 %{{.*}}, [[S1]]
# A:       load double, ptr

# F-LABEL: define internal i32 @kjit.kjit_load2_{{[0-9]+}}(
# F:       mul i64 %{{.*}}, 4
# F:       [[S1:%[a-z0-9._]+]] = extractvalue %kjit.array2 [[D:%[a-z0-9._]+]], 3, 1
# F-NEXT:  mul i64 %{{.*}}, [[S1]]
# F:       load float, ptr

# ONE: %kjit.array1 = type { ptr, ptr, [1 x i64], [1 x i64] }
# ONE-LABEL: define internal i32 @kjit.kjit_store1_{{[0-9]+}}(
# ONE-SAME:  ptr noalias %ret, ptr %ctx, %kjit.array1 %a, i64 %i, i32 %v) {
# ONE:       [[IW:%[a-z0-9._]+]] = select i1 %{{.*}}, i64 %{{.*}}, i64 %{{.*}}
# ONE-NEXT:  [[OFF:%[a-z0-9._]+]] = mul i64 [[IW]], 4
# ONE-NEXT:  [[DATA:%[a-z0-9._]+]] = extractvalue %kjit.array1 %{{.*}}, 1
# ONE-NEXT:  [[P:%[a-z0-9._]+]] = getelementptr i8, ptr [[DATA]], i64 [[OFF]]
# ONE-NEXT:  store i32 %{{.*}}, ptr [[P]], align 4
