import os
import sys

# Every function that the suite compiles has its typed IR verified after each
# pass (compiler/Pipeline.cpp): an invalid IR fails the test that made it.
os.environ.setdefault("KJIT_VERIFY", "1")

# The package is used in place: python_bindings/ holds kjit/ and the built _kjit.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python_bindings"))
