# Windows line endings: CRLF everywhere, also inside a triple-quoted string
# and after a backslash continuation.
def scale(x, a):
    """Scale
    x."""
    y = a * \
        x[0]
    s = """two
lines"""
    if y > 0:
        return (y,
                s)
    return y
