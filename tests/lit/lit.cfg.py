# lit configuration for kjit's goldens: each test is a file with RUN lines,
# checked with FileCheck. `%kjitc` is the driver under test.
import os
import sys
import lit.formats

config.name = "kjit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".py", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kjit_obj_root, "tests", "lit")
config.substitutions.append(("%kjitc", os.path.join(config.kjit_bin_dir, "kjitc")))
# For tests that generate their input (very long lines).
config.substitutions.append(("%{python}", sys.executable))
# The typed IR of every golden is verified after each pass
# (compiler/Pipeline.cpp): an invalid IR is an error that fails the test.
config.environment["KJIT_VERIFY"] = "1"
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])

# ptxas (CUDA's PTX assembler) validates the PTX that kjitc emits. Tests
# that run it say `REQUIRES: ptxas`: without it they are UNSUPPORTED, never
# passed. Found at $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas or on PATH.
def _find_ptxas():
    import shutil
    candidates = []
    if os.environ.get("CUDA_HOME"):
        candidates.append(os.path.join(os.environ["CUDA_HOME"], "bin", "ptxas"))
    candidates.append("/usr/local/cuda/bin/ptxas")
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return shutil.which("ptxas")


_ptxas = _find_ptxas()
if _ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))

# The ROCm device libraries (ocml, ockl) that AMD GPU kernels calling math
# link: tests that need them say `REQUIRES: rocm-device-libs`.
def _find_rocm_device_libs():
    for d in (os.environ.get("KJIT_ROCM_DEVICE_LIBS", ""), os.environ.get("ROCM_PATH", "") + "/amdgcn/bitcode",
              "/opt/rocm/amdgcn/bitcode", "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"):
        if d and os.path.isfile(os.path.join(d, "ocml.bc")):
            return d
    return None


if _find_rocm_device_libs():
    config.available_features.add("rocm-device-libs")
