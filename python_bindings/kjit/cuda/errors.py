"""Errors of kjit.cuda."""
from kjit.errors import KjitError


class CudaSupportError(KjitError):
    """CUDA is not available for what was asked (no driver, no device, or no
    runtime in this build)."""
