"""On the GPU machine: bfloat16 arrays between kjit and PyTorch, CuPy and
JAX (what each exports, what kjit reads), checked bitwise against PyTorch's
own bfloat16 arithmetic. Prints one line per check."""
import numpy as np

import kjit
from kjit import bfloat16, cuda
from kjit import bfloat16_host as host


@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def mul(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * y[i]


print("ml_dtypes present:", host.ml_dtypes_present(), "host dtype:", host.dtype())
try:
    import torch
    t = torch.randn(1 << 16, device="cuda").to(torch.bfloat16)
    u = torch.randn(1 << 16, device="cuda").to(torch.bfloat16)
    try:
        print("torch", torch.__version__, "bf16 typestr:", t.__cuda_array_interface__["typestr"])
    except Exception as e:
        print("torch bf16 __cuda_array_interface__ raises:", type(e).__name__, e)
    out = torch.empty_like(t)
    n = t.numel()
    try:
        mul[(n + 255) // 256, 256](t, u, out)
        torch.cuda.synchronize()
        ok = torch.equal(out.view(torch.int16), (t * u).view(torch.int16))
        print("kernel on torch bf16 tensors (CAI), bitwise = torch's t*u:", ok)
    except Exception as e:
        print("kernel on torch bf16 tensors fails:", type(e).__name__, e)
    try:
        d = cuda.from_dlpack(t)
        print("from_dlpack(torch bf16):", d.dtype, d.shape, "is bf16:", host.is_bfloat16(d.dtype))
        o2 = cuda.device_array(n, dtype=kjit.bfloat16_dtype())
        mul[(n + 255) // 256, 256](d, cuda.from_dlpack(u), o2)
        back = torch.from_dlpack(o2)
        print("torch.from_dlpack(kjit bf16):", back.dtype, torch.equal(back.view(torch.int16), (t * u).view(torch.int16)))
    except Exception as e:
        print("DLPack with torch fails:", type(e).__name__, e)
except ImportError as e:
    print("no torch:", e)

try:
    import cupy as cp
    c = cp.arange(8, dtype=cp.float32)
    print("cupy", cp.__version__)
    try:
        import ml_dtypes
        cb = c.astype(ml_dtypes.bfloat16)
        print("cupy bf16 typestr:", cb.__cuda_array_interface__["typestr"])
        o = cuda.device_array(8, dtype=kjit.bfloat16_dtype())
        mul[1, 8](cb, cb, o)
        print("kernel on cupy bf16:", host.to_float32(o.copy_to_host()).tolist())
    except Exception as e:
        print("cupy bf16 fails:", type(e).__name__, e)
except ImportError as e:
    print("no cupy:", e)
