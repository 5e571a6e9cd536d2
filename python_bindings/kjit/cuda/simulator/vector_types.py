"""The vector types under the simulator: the same constructors and values
as compiled kernels' (kjit/cuda/vector_types.py), run in the interpreter."""
from kjit.cuda.vector_types import VectorConstructor, VectorType, VectorValue, vector_types  # noqa: F401
