"""kjit.np: NumPy support helpers with Numba's names (``numba.np``)."""
