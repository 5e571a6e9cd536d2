@jit("float64(float64[:], int64)", nopython=True, fastmath=True)
def f(a, n=0x1_F, *, k=0b10):
    """doc\tstring"""
    s = 0.0; t = 1e-3 + .5j
    while n > 0 and not s >= 1_000.:
        s += a[n % a.size] ** -2 if n & 1 else -a[::-1][0]
        n //= 2
    else:
        pass
    for i, (j, k) in enumerate(zip(a, a)):
        if i is not None: continue
        elif i in a: break
    assert s == s, 'nan'
    g = lambda x, y=2: x @ y
    x = [1, 2]; y = {1: 2}; z = [i for i in a]
    raise ValueError(r"bad\n" b'x')
    return s, t
