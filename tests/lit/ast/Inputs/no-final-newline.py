def last(x):
    if x:
        return x
    return -x