import os
import sys

# The package is used in place: python_bindings/ holds kjit/ and the built _kjit.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python_bindings"))
