f = njit(lambda a, b=2: a ** b if a else -b)
g = [lambda x: x + 1, lambda: 0]
TPB = (16, -2.5)
