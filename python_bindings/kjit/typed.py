"""numba.typed for kjit: ``List`` and ``Dict``.

In jitted code, ``List()`` is an empty list typed by what is appended to
it, ``List(seq)`` a list of ``seq``'s items, ``List.empty_list(types.int64)``
an empty list of that type; ``Dict()`` is an empty dict typed by the first
item stored, ``Dict.empty(key_type=types.unicode_type,
value_type=types.int64)`` an empty dict of those types. They are kjit's
lists and dicts.

In Python they are a ``list`` and a ``dict`` (subclasses): passed to a
jitted function, its changes are written back into them after the call,
so they behave as Numba's typed containers, which jitted code shares with
Python. A list or dict a jitted function returns is a plain ``list`` or
``dict``.
"""

__all__ = ["List", "Dict"]


class List(list):
    """A list jitted functions take and change (numba.typed.List)."""

    @classmethod
    def empty_list(cls, item_type=None, allocated=0):
        return cls()


class Dict(dict):
    """A dict jitted functions take and change (numba.typed.Dict)."""

    @classmethod
    def empty(cls, key_type=None, value_type=None, n_keys=0):
        return cls()
