"""Kernels on records (NumPy structured dtypes) that must give the same results
on every device.

Run as a script on the device the environment selects (KJIT_DEVICE=cpu or
cuda, KJIT_ENABLE_CUDASIM=1), it runs every program and prints one JSON
object: {program name: "ok" or what went wrong}. tests/python/njit/test_records.py
runs it once per device present. Attribute access (r.a) is written on
np.recarray rows, which the simulator (Python running the kernel) supports;
plain structured arrays are indexed by field name.
"""
import numpy as np

import program_runner  # next to this file
from kjit import cuda
from kjit.np import numpy_support as nps

PROGRAMS = {}


def program(fn):
    PROGRAMS[fn.__name__] = fn
    return fn


def same(got, want):
    np.testing.assert_array_equal(got, want)


# Numba's test dtypes (numba-cuda's test_record_dtype.py).
recordtype = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex64), ("d", (np.uint8, 5))],
                      align=True)
recordwitharray = np.dtype([("g", np.int32), ("h", np.float32, 2)], align=True)
recordwith2darray = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
nested_array1_dtype = np.dtype([("array1", np.int16, (3,))], align=True)
backyard = [("statue", np.float64), ("newspaper", np.float64, (6,))]
goose = np.dtype([("garden", np.float64, (12,)), ("town", np.float64, (42,)), ("backyard", backyard)], align=True)
CONST_RECORD = np.array([(1.0, 2), (3.0, 4)], dtype=[("x", float), ("y", int)])
CONST_RECORD_ALIGN = np.array(
    [(1, 2, 3, 0xDEADBEEF, 8), (4, 5, 6, 0xBEEFDEAD, 10)],
    dtype=np.dtype([("a", np.uint8), ("b", np.uint8), ("x", np.uint8), ("y", np.uint32), ("z", np.uint8)],
                   align=True))


def sample():
    a = np.recarray(3, dtype=recordtype)
    for i in range(3):
        a[i]["a"], a[i]["b"], a[i]["c"], a[i]["d"] = (i + 1) / 2, i + 1, (i + 1) * 1j, [i] * 5
    return a


@cuda.jit
def set_fields(ary, i, v):
    ary[i].a = v
    ary[i]["b"] = ary[i].b + 10
    ary[i].c = ary[i].c * 2
    ary[i].d[1] = 7


@program
def fields_of_array_elements():
    for i in range(3):
        got, want = sample(), sample()
        set_fields[1, 1](got, i, 3.25)
        want[i].a, want[i].b, want[i].c = 3.25, want[i].b + 10, want[i].c * 2
        want[i].d[1] = 7
        same(got, want)


@cuda.jit
def read_write_record(r, out):
    out[0] = r.a
    out[1] = r["b"]
    out[2] = r.c.imag
    out[3] = r.d[4]
    r.b = 42
    r["a"] += 0.5


@program
def record_argument():
    rec = sample().copy()[2]  # a row of a temporary array: the kernel writes it back there
    out = np.zeros(4)
    read_write_record[1, 1](rec, out)
    same(out, [1.5, 3, 3, 2])
    assert rec["b"] == 42 and rec["a"] == 2.0, rec


@cuda.jit
def nested_arrays(r, a):
    r.i = 3
    r.j[0, 1] = 6.0
    r.j[2, 0] = r.j[1, 1] + 1
    a[0, 0] = r.j[1, 1]
    a[1, 1] = r["j"][0, 1]


@program
def nested_array_fields():
    rec = np.recarray(1, dtype=recordwith2darray)
    rec[0].j = np.arange(6, dtype=np.float32).reshape(3, 2)
    a = np.zeros((3, 2), np.float32)
    nested_arrays[1, 1](rec[0], a)
    assert rec[0].i == 3 and rec[0].j[0, 1] == 6 and rec[0].j[2, 0] == 4, rec
    same(a, [[3, 0], [0, 6], [0, 0]])


@cuda.jit
def assign_array_to_nested(dest, src):
    dest["array1"] = src


@cuda.jit
def copy_fields(index, src, dest):
    dest["user1"] = src[index]["user"]
    dest["array1"] = src[index]["array"]


@program
def assign_arrays_to_nested_fields():
    src = (np.arange(3) + 1).astype(np.int16)
    got = np.zeros(2, dtype=nested_array1_dtype)
    assign_array_to_nested[1, 1](got[0], src)
    same(got["array1"], [[1, 2, 3], [0, 0, 0]])
    s_dt = np.dtype([("user", np.float64), ("array", np.int16, (3,))], align=True)
    d_dt = np.dtype([("user1", np.float64), ("array1", np.int16, (3,))], align=True)
    source = np.zeros(2, dtype=s_dt)
    source[0] = (1.2, [1, 2, 3])
    dest = np.zeros(2, dtype=d_dt)
    copy_fields[1, 1](0, source, dest[0])
    assert dest[0]["user1"] == 1.2 and list(dest[0]["array1"]) == [1, 2, 3], dest


@cuda.jit
def set_record(ary, i, j):
    ary[i] = ary[j]


@program
def whole_record_copies():
    for i, j in [(0, 1), (1, 2), (0, 2), (1, 1)]:
        got, want = sample(), sample()
        set_record[1, 1](got, i, j)
        want[i] = want[j]
        same(got, want)


@cuda.jit
def field_views(x, out1, out2):
    i = cuda.grid(1)
    if i < x.size:
        out1[i] = x.value1[i]
        out2[i] = x.value2[i]


@program
def fields_of_arrays_of_records():
    a = np.recarray((16,), dtype=[("value1", np.int64), ("value2", np.float64)])
    a.value1 = np.arange(16)
    a.value2 = np.arange(16) / 100
    g1, g2 = np.zeros(16, np.int64), np.zeros(16)
    field_views[1, 16](a, g1, g2)
    same(g1, a.value1)
    same(g2, a.value2)


def shared_copy_kernel(dt):
    @cuda.jit
    def use_sm_chunk_copy(x, y):
        sm = cuda.shared.array(16, dtype=dt)
        tx, bx, bd = cuda.threadIdx.x, cuda.blockIdx.x, cuda.blockDim.x
        i = bx * bd + tx
        if i < len(x):
            sm[tx] = x[i]
        cuda.syncthreads()
        if tx == 0:
            for j in range(16):
                y[bd * bx + j] = sm[j]
    return use_sm_chunk_copy


@program
def shared_array_of_records():
    arr = np.recarray(64, dtype=recordwith2darray)
    for x in range(len(arr)):
        arr[x].i = x
        arr[x].j = np.arange(6, dtype=np.float32).reshape(3, 2) * x
    d = cuda.device_array_like(arr)
    shared_copy_kernel(nps.from_dtype(arr.dtype))[4, 16](arr, d)
    same(d.copy_to_host(), arr)


@cuda.jit
def local_records(x, out):
    loc = cuda.local.array(2, dtype=recordwitharray)  # a global numpy.dtype
    i = cuda.grid(1)
    loc[1] = x[i]
    loc[1]["g"] += 1  # (a structured array, not a recarray: the simulator has no loc[1].g)
    out[i] = loc[1]


@program
def local_array_of_records():
    x = np.zeros(4, recordwitharray)
    x["g"] = np.arange(4)
    x["h"] = np.arange(8).reshape(4, 2)
    out = np.zeros_like(x)
    local_records[1, 4](x, out)
    want = x.copy()
    want["g"] += 1
    same(out, want)


@cuda.jit
def const_records(A, B, C, D, E):
    Z = cuda.const.array_like(CONST_RECORD_ALIGN)
    R = cuda.const.array_like(CONST_RECORD)
    i = cuda.grid(1)
    A[i] = Z[i]["a"] + R[i]["x"]
    B[i] = Z[i]["b"] + R[i]["y"]
    C[i] = Z[i]["x"]
    D[i] = Z[i]["y"]
    E[i] = Z[i]["z"]


@program
def constant_record_arrays():
    out = [np.zeros(2) for _ in range(5)]
    const_records[2, 1](*out)
    same(out[0], CONST_RECORD_ALIGN["a"] + CONST_RECORD["x"])
    same(out[1], CONST_RECORD_ALIGN["b"] + CONST_RECORD["y"])
    for o, f in zip(out[2:], "xyz"):
        same(o, CONST_RECORD_ALIGN[f])


@cuda.jit
def nested_records(f):
    f.garden[0] = 45.0
    f.backyard.newspaper[3] = 2.0
    f.backyard.newspaper[3] = f.backyard.newspaper[3] + 3.0
    f.backyard.statue = f.town[41]


@program
def records_in_records():
    item = np.recarray(1, dtype=goose)
    item[0].town[41] = 8.5
    nested_records[1, 1](item[0])
    assert item[0]["garden"][0] == 45 and item[0]["backyard"]["newspaper"][3] == 5, item
    assert item[0]["backyard"]["statue"] == 8.5


@cuda.jit(device=True)
def first(ary):
    return ary[0]


@cuda.jit
def returns_records(arg, res):
    res[0] = first(arg)


@cuda.jit
def returns_first_field(arg, res):
    res[0] = first(arg)


@program
def device_functions_return_records():
    nbarr = np.recarray(2, dtype=recordwitharray)
    nbarr[0] = np.array([(1, (2, 3))], dtype=recordwitharray)[0]
    res = np.zeros(1, dtype=recordwitharray)
    returns_records[1, 1](nbarr, res)
    same(res[0], nbarr[0])
    out = np.zeros(1, np.int32)
    returns_first_field[1, 1](nbarr[0], out)  # a record's [0]: its first field
    assert out[0] == 1


rec_dt = np.dtype([("a", "int32"), ("b", "float64")], align=True)


@cuda.jit((nps.from_dtype(rec_dt)[::1],))
def eager_aligned(a):
    i = cuda.grid(1)
    a[i].a = a[i].b


@program
def eager_signature_of_records():
    a = np.recarray(3, dtype=rec_dt)
    a.a, a.b = 0, (np.arange(3) + 1) * 123
    eager_aligned[1, 3](a)
    assert np.all(a.a == a.b), a


@cuda.jit
def nothing(inp, out):
    pass


@cuda.jit
def nothing_too(inp, out):
    pass


@program
def records_differing_in_alignment_compile_apart():
    f16x2 = np.dtype([("x", np.float16), ("y", np.float16)])
    f16x2_aligned = np.dtype([("x", np.float16), ("y", np.float16)], align=True)
    out = cuda.to_device(np.zeros(2, np.int64))
    nothing[1, 1](cuda.to_device(np.zeros(1, f16x2)), out)
    nothing_too[1, 1](cuda.to_device(np.zeros(1, f16x2_aligned)), out)
    # The simulator keeps no overloads (as Numba's).
    a, b = list(nothing.overloads), list(nothing_too.overloads)
    if a or b:
        assert str(a[0][0]) != str(b[0][0]), (a, b)
        assert str(a[0][0].dtype).endswith(";4;False)") and str(b[0][0].dtype).endswith(";4;True)")


if __name__ == "__main__":
    program_runner.main(PROGRAMS)
