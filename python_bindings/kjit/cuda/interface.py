"""Numba's rules for a consumer of ``__cuda_array_interface__``, shared by
the GPU's device arrays (devicearray.py) and the CPU device's (hostapi.py)."""


def consumer_stream(desc, sync, external_stream):
    """The stream of an array made from the interface ``desc``: masked arrays
    are refused; a stream the producer names becomes the array's stream
    (made with ``external_stream``), synchronized first when ``sync`` and
    ``config.CUDA_ARRAY_INTERFACE_SYNC`` are true; else 0 (the default)."""
    from kjit import config
    if desc.get("mask") is not None:
        raise NotImplementedError("Masked arrays are not supported")
    stream_ptr = desc.get("stream")
    if stream_ptr is None:
        return 0
    stream = external_stream(stream_ptr)
    if sync and config.CUDA_ARRAY_INTERFACE_SYNC:
        stream.synchronize()
    return stream
