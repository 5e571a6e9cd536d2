"""External device code: ``cuda.declare_device`` and the code that ``link=``
takes (Numba's API, numba/cuda/decorators.py and cudadrv/linkable_code.py).

A declared function is typed with its signature and called with Numba's ABI
for external functions (``extern "C" __device__ int name(T *ret, args...)``,
or with ``abi="c"``, ``T name(args...)``); the code given to ``link=`` is
registered with the runtime under the function's name and linked, through
the driver's linker, into every module whose PTX calls it (runtime/cuda:
Runtime::linkInputs). CUDA C++ is compiled to PTX by NVRTC, loaded at run
time.
"""
import io
import os

from kjit import types as kt


class LinkableCode:
    """Code to link, from memory: ``data`` (str, bytes, StringIO or BytesIO)
    and the name errors mention."""

    kind = None
    default_name = "<unnamed>"

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None, nrt=False):
        if setup_callback and not callable(setup_callback):
            raise TypeError("setup_callback must be callable")
        if teardown_callback and not callable(teardown_callback):
            raise TypeError("teardown_callback must be callable")
        self._data, self._name, self.nrt = data, name, nrt
        self.setup_callback, self.teardown_callback = setup_callback, teardown_callback

    @property
    def name(self):
        return self._name or self.default_name

    @property
    def data(self):
        if isinstance(self._data, (io.StringIO, io.BytesIO)):
            return self._data.getvalue()
        return self._data

    @staticmethod
    def from_path(path):
        root, ext = os.path.splitext(path)
        cls = _BY_EXTENSION.get(ext)
        if cls is None:
            raise ValueError(f"Unknown extension: {ext}")
        with open(path, "r" if ext in (".cu", ".ptx") else "rb") as f:
            return cls(f.read(), name=os.path.basename(root))

    @classmethod
    def from_path_or_obj(cls, path_or_obj):
        if isinstance(path_or_obj, (str, os.PathLike)):
            return cls.from_path(os.fspath(path_or_obj))
        return path_or_obj


class PTXSource(LinkableCode):
    """PTX in memory."""
    kind, default_name = "ptx", "<unnamed-ptx>"


class CUSource(LinkableCode):
    """CUDA C++ in memory (compiled by NVRTC)."""
    kind, default_name = "cu", "<unnamed-cu>"


class Fatbin(LinkableCode):
    kind, default_name = "fatbin", "<unnamed-fatbin>"


class Cubin(LinkableCode):
    kind, default_name = "cubin", "<unnamed-cubin>"


class Archive(LinkableCode):
    kind, default_name = "a", "<unnamed-archive>"


class Object(LinkableCode):
    kind, default_name = "o", "<unnamed-object>"


class LTOIR(LinkableCode):
    kind, default_name = "ltoir", "<unnamed-ltoir>"


_BY_EXTENSION = {".cu": CUSource, ".ptx": PTXSource, ".fatbin": Fatbin, ".cubin": Cubin, ".a": Archive,
                 ".o": Object, ".ltoir": LTOIR}


def link_items(link):
    """``link=`` (a path, a LinkableCode, or a list, tuple or set of them)
    as the runtime's (kind, bytes, name) triples."""
    if link is None:
        return []
    if not isinstance(link, (list, tuple, set, frozenset)):
        link = (link,)
    items = []
    for x in link:
        code = LinkableCode.from_path_or_obj(x)
        if not isinstance(code, LinkableCode):
            raise TypeError(f"link= takes file paths and cuda.CUSource/PTXSource/... objects, not {x!r}")
        data = code.data
        if isinstance(data, str):
            data = data.encode()
        items.append((code.kind, bytes(data), code.name))
    return items


def _signature(sig):
    if isinstance(sig, str):
        try:
            sig = eval(sig, dict(vars(kt)))  # "int32(float32, float32)": kjit's type names
        except Exception as e:
            raise TypeError(f"cannot read the signature {sig!r}: {e}") from None
    if isinstance(sig, tuple) or not isinstance(sig, kt.Signature):
        raise TypeError("Return type must be provided for device declarations")
    return sig


class DeclaredDevice:
    """What ``cuda.declare_device`` returns: kernels call it; ``.name``,
    ``.sig`` (``.args``, ``.return_type``), ``.link``, ``.abi``."""

    def __init__(self, name, sig, link, abi):
        self.name, self.sig, self.link, self.abi = name, sig, link, abi
        args = ", ".join(a.name for a in sig.args)
        # The callee the compiler sees (compiler/builtins/Cuda.cpp: CudaTyper::declared).
        self._kjit_declared = f"kjit.cuda.declared:{abi}:{name}:{sig.return_type.name}({args})"

    def __call__(self, *args):
        raise TypeError(f"'{self.name}' is a device function of cuda.declare_device: external CUDA code, "
                        f"which runs only in kernels on a GPU (the simulator and the CPU device cannot run it)")

    def __repr__(self):
        return f"<declared device function {self.name}: {self.sig}>"


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Declares the external device function ``name`` with the signature
    ``sig``; ``link`` is the code that defines it (paths or
    CUSource/PTXSource/... objects), linked into the kernels that call it."""
    if abi not in ("numba", "c"):
        raise NotImplementedError(f"Unsupported ABI: {abi}")
    sig = _signature(sig)
    items = link_items(link)
    decl = DeclaredDevice(name, sig, tuple(link) if isinstance(link, (list, tuple, set)) else
                          (() if link is None else (link,)), abi)
    if items:
        _register(name, items)
    return decl


def _register(symbol, items):
    from kjit import devices
    if devices.simulator():
        return
    from kjit import _kjit
    _kjit.cuda_register_link(symbol, items)
