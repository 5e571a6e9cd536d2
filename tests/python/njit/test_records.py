"""Records (NumPy structured dtypes, Numba's Record) in kernels and @njit.

- record_programs.py runs on every device present (the CPU device, the
  simulator, the GPU) and each program checks its result against NumPy;
- the GPU launch path runs on the fake CUDA driver (it runs no kernel, so
  only what launching does is checked: keys, copies, refusals);
- the PTX of record kernels assembles with ptxas (skipped without ptxas);
- kjit.np.numpy_support / kjit.typeof / kjit.types.Record as Numba's;
- the compiler's errors (Numba's alignment rule for CUDA, unknown fields,
  stores it refuses), and @njit with records.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import kjit
from kjit import _kjit, cuda, errors, njit, types
from kjit.np import numpy_support as nps

from conftest import device_environment
from conftest import assemble

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/python

recordtype = np.dtype([("a", np.float64), ("b", np.int32), ("c", np.complex64), ("d", (np.uint8, 5))],
                      align=True)
recordwith2darray = np.dtype([("i", np.int32), ("j", np.float32, (3, 2))])
packed = np.dtype([("a", "int32"), ("b", "float64")])  # b at offset 4


# ---- every device --------------------------------------------------------------------------

def _device_params():
    out = []
    for d in ("cpu", "sim", "cuda"):
        marks = [pytest.mark.skip(reason="no CUDA GPU here")] if d == "cuda" and not _kjit.cuda_available() else []
        out.append(pytest.param(d, marks=marks))
    return out


_results = {}


def _results_on(device, env=None):
    key = (device, tuple(sorted((env or {}).items())))
    if key not in _results:
        r = subprocess.run([sys.executable, os.path.join(HERE, "record_programs.py")], capture_output=True,
                           text=True, env=device_environment(device, env), timeout=900)
        line = [ln for ln in r.stdout.splitlines() if ln.startswith("KJIT-RESULTS ")]
        assert line, f"record_programs.py on {device} printed no results:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        _results[key] = json.loads(line[-1][len("KJIT-RESULTS "):])
    return _results[key]


sys.path.insert(0, HERE)
import record_programs  # noqa: E402


@pytest.mark.parametrize("program", list(record_programs.PROGRAMS))
@pytest.mark.parametrize("device", _device_params())
def test_record_program(device, program):
    got = _results_on(device)
    assert program in got, f"{program} did not run on {device}"
    assert got[program] == "ok", f"{program} on {device}:\n{got[program]}"


# ---- the GPU launch path, on the fake driver -----------------------------------------------

def test_gpu_launch_path_takes_records(run_on_device, fake_driver):
    """Record arguments are copied to the device and back, arrays of records
    (NumPy and device arrays) are keyed by their whole layout, and a tuple
    holding a record is refused; the fake driver runs no kernel."""
    r = run_on_device("""
        import numpy as np
        import kjit
        from kjit import cuda
        dt = np.dtype([("x", np.float16), ("y", np.float16)])
        dta = np.dtype([("x", np.float16), ("y", np.float16)], align=True)

        @cuda.jit
        def f1(inp, out):
            pass

        @cuda.jit
        def f2(inp, out):
            pass

        out = cuda.to_device(np.zeros(2, np.int64))
        f1[1, 1](cuda.to_device(np.zeros(1, dt)), out)
        f2[1, 1](cuda.to_device(np.zeros(1, dta)), out)
        assert f1.signatures[0] != f2.signatures[0], (f1.signatures, f2.signatures)
        assert f1.signatures[0].endswith(";4;False), 1d, C), array(int64, 1d, C))"), f1.signatures

        @cuda.jit
        def setr(r, v):
            r.x = v

        @cuda.jit
        def seta(a, v):
            a[0].x = v

        rec = np.zeros(2, dt)
        setr[1, 1](rec[0], 1.5)             # copied in and back (the fake GPU leaves it alone)
        seta[1, 1](np.zeros(3, dt), 1.5)    # an array of records: copied too
        ((types, _),) = setr.overloads.items()
        assert str(types[0]) == "Record(x[type=float16;offset=0],y[type=float16;offset=2];4;False)", types
        assert types[0] is kjit.typeof(rec[0])

        @cuda.jit
        def tup(t):
            pass
        try:
            tup[1, 1]((rec[0], 1))
        except TypeError as e:
            assert "a tuple that holds records" in str(e), e
        else:
            raise AssertionError("a tuple holding a record was launched")

        s = np.zeros(1, [("x", np.int32), ("y", "U12")])
        try:
            seta[1, 1](s, 1.0)
        except TypeError as e:
            assert "a string field" in str(e) and "'y'" in str(e), e
        else:
            raise AssertionError("a record with a string field was launched")
        print("ok")
    """, device="cuda", env={"KJIT_CUDA_DRIVER": fake_driver})
    assert r.stdout.strip().endswith("ok")


# ---- PTX -------------------------------------------------------------------------------------

def fields(ary, i, v):
    ary[i].a = v
    ary[i]["b"] = ary[i].b + 1
    ary[i] = ary[0]


def nested(r, out):
    out[0] = r.j[1, 0]
    r.j[2, 1] = 5.0
    r.i += 3


def shared(x, y):
    sm = cuda.shared.array(16, dtype=recordwith2darray)
    tx = cuda.threadIdx.x
    sm[tx] = x[tx]
    cuda.syncthreads()
    y[tx] = sm[15 - tx]


def views(x, out):
    i = cuda.grid(1)
    out[i] = x["d"][i, 2] + x.b[i]


def test_record_kernels_assemble(tmp_path):
    R, R2 = nps.from_dtype(recordtype), nps.from_dtype(recordwith2darray)
    for fn, sig in [(fields, (R[::1], types.int64, types.float64)), (nested, (R2, types.float32[::1])),
                    (shared, (R2[::1], R2[::1])), (views, (R[:], types.float64[:]))]:
        ptx, resty = cuda.compile_ptx(fn, sig)
        assemble(ptx, tmp_path, name=fn.__name__)


def test_record_fields_load_as_their_type():
    import re
    ptx, _ = cuda.compile_ptx(nested, (nps.from_dtype(recordwith2darray), types.float32[::1]))
    assert re.search(r"ld(\.global)?\.f32", ptx) and re.search(r"ld(\.global)?\.[ub]32", ptx), ptx
    assert not re.search(r"ld(\.global)?\.u8", ptx), ptx  # aligned fields: no loads byte by byte


# ---- types -----------------------------------------------------------------------------------

def test_from_dtype_gives_numbas_record():
    rec = nps.from_dtype(recordtype)
    assert isinstance(rec, types.Record)
    assert str(rec) == ("Record(a[type=float64;offset=0],b[type=int32;offset=8],c[type=complex64;offset=12],"
                        "d[type=nestedarray(uint8, (5,));offset=20];32;True)")
    assert rec.size == 32 and rec.aligned and len(rec) == 4
    assert rec.offset("c") == 12 and rec.typeof("b") is types.int32
    assert isinstance(rec.typeof("d"), types.NestedArray) and rec.typeof("d").shape == (5,)
    assert [n for n, _ in rec.members] == ["a", "b", "c", "d"]
    assert nps.as_dtype(rec) == recordtype
    assert nps.from_dtype(recordtype) is rec  # made once
    assert str(rec[::1]) == f"array({rec}, 1d, C)"


def test_records_differ_by_alignment_as_in_numba():
    plain = np.dtype([("x", np.float16), ("y", np.float16)])
    aligned = np.dtype([("x", np.float16), ("y", np.float16)], align=True)
    assert plain == aligned  # NumPy's equality ignores align=True
    a, b = nps.from_dtype(plain), nps.from_dtype(aligned)
    assert a != b and a.name != b.name and str(a).endswith(";4;False)") and str(b).endswith(";4;True)")


def test_typeof_records():
    a = np.zeros(3, recordwith2darray)
    assert kjit.typeof(a[0]) is nps.from_dtype(recordwith2darray)
    assert str(kjit.typeof(a)) == f"array({nps.from_dtype(recordwith2darray)}, 1d, C)"
    assert kjit.typeof(np.recarray(2, dtype=recordwith2darray)[1]) is nps.from_dtype(recordwith2darray)


def test_dtypes_kjit_has_no_type_for():
    with pytest.raises(errors.NumbaNotImplementedError, match="a string field.*'s'"):
        nps.from_dtype(np.dtype([("a", np.int32), ("s", "S4")]))
    with pytest.raises(errors.NumbaNotImplementedError, match="contain object"):
        nps.from_dtype(np.dtype([("a", np.int32), ("o", object)]))


# ---- errors ----------------------------------------------------------------------------------

def test_unaligned_fields_refused_on_cuda_with_numbas_message():
    rec = nps.from_dtype(packed)

    with pytest.raises(errors.TypingError) as e:
        @cuda.jit((rec[:],))
        def foo(a):
            i = cuda.grid(1)
            a[i].a = a[i].b
    assert ("Record(a[type=int32;offset=0],b[type=float64;offset=4];12;False).b of type float64 is "
            "not aligned") in str(e.value)
    assert e.value.lineno == foo_line() and "test_records.py" in e.value.filename


def foo_line():
    import inspect
    src, first = inspect.getsourcelines(test_unaligned_fields_refused_on_cuda_with_numbas_message)
    return first + next(i for i, line in enumerate(src) if "a[i].a = a[i].b" in line)


def unknown_field(r, out):
    out[0] = r.nope


def complex_into_int(r):
    r.b = 1j


def slice_index(r, out):
    out[0] = r[0:1]


CONST_RECORDS = np.zeros(2, recordtype)


def write_constant(out):
    c = cuda.const.array_like(CONST_RECORDS)
    c[0].a = 1.0


def test_field_errors():
    R = nps.from_dtype(recordtype)
    with pytest.raises(errors.TypingError, match=r"has no field 'nope'; its fields are a, b, c, d"):
        cuda.compile_ptx(unknown_field, (R, types.float64[:]))
    with pytest.raises(errors.TypingError, match=r"cannot store a value of type complex128 into field 'b' "
                                                 r"\(int32\)"):
        cuda.compile_ptx(complex_into_int, (R,))
    with pytest.raises(errors.TypingError, match="a record is indexed by a constant field name or position"):
        cuda.compile_ptx(slice_index, (R, types.float64[:]))
    with pytest.raises(errors.TypingError, match="cannot assign to a field of an element of a read-only array"):
        cuda.compile_ptx(write_constant, (types.float64[:],))


# ---- @njit -----------------------------------------------------------------------------------

@njit
def host_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        a[i].a = i          # a packed record: an unaligned float64, fine on the host
        s += a[i].b + a[i]["a"]
    return s, a[1]


@njit
def host_record(r):
    r.b *= 2
    return r.b + r[0]


@njit
def host_alloc(n):
    z = np.zeros(n, dtype=packed)
    z[1].b = 2.5
    c = z.copy()
    c[0].a = 7
    return z, c


def test_njit_takes_and_returns_records():
    a = np.zeros(3, packed)
    a["b"] = [1.5, 2.5, 3.5]
    s, second = host_sum(a)
    assert s == 7.5 + 3 and list(a["a"]) == [0, 1, 2]
    assert isinstance(second, np.void) and second["a"] == 1 and second["b"] == 2.5
    second["a"] = 9  # a copy, as Numba boxes a record
    assert a[1]["a"] == 1
    assert host_record(a[2]) == 7.0 + 2 and a[2]["b"] == 7.0  # the argument is the array's row
    z, c = host_alloc(3)
    assert z.dtype == packed and list(z["b"]) == [0, 2.5, 0] and list(c["a"]) == [7, 0, 0]


@njit
def host_assign_nested(r, src):
    r["j"] = src


def test_njit_nested_array_assignment_checks_the_shape():
    r = np.zeros(1, recordwith2darray)
    host_assign_nested(r[0], np.arange(6, dtype=np.float64).reshape(3, 2))  # converts float64 to float32
    assert r[0]["j"].tolist() == [[0, 1], [2, 3], [4, 5]]
    with pytest.raises(ValueError, match=r"the array assigned to field 'j' must have its shape \(3, 2\)"):
        host_assign_nested(r[0], np.zeros((2, 3)))
