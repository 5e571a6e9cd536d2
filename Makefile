# Thin wrapper over CMake. The two commands of the README:
#   make demo   install what is missing, build, run an example
#   make test   install what is missing, build, run every test
PYTHON    ?= /usr/bin/python3
BUILD     ?= build
GENERATOR ?= Ninja
CMAKE_ARGS ?=
FUZZ_SECONDS ?= 600
export PYTHONPATH := $(CURDIR)/python_bindings$(if $(PYTHONPATH),:$(PYTHONPATH))
# ccache hits across clones in other folders (CI builds a fresh clone).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := true

.PHONY: all deps configure build test unit lit pytest demo asan tsan fuzz fuzz-diff fuzz-kernels clean

all: build

deps:
	bash tools/install_deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G $(GENERATOR) -DPython3_EXECUTABLE=$(PYTHON) $(CMAKE_ARGS)

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD)

# ctest runs the Catch2 unit tests and the lit goldens; pytest runs last so
# that its summary line closes the output. The Python tests run twice: with
# kjit reading every function's bytecode (KJIT_FRONTEND=bytecode;
# --assert=plain keeps pytest from rewriting the bytecode of the functions
# the tests define), then as users run it, source first.
test: deps build
	cd $(BUILD) && ctest --output-on-failure
	KJIT_FRONTEND=bytecode $(PYTHON) -m pytest -q --assert=plain -p no:cacheprovider tests/python
	$(PYTHON) -m pytest -q tests/python

unit: build
	$(BUILD)/bin/kjit_unit_tests

lit: build
	cd $(BUILD) && ctest -R '^lit$$' --output-on-failure -V

pytest: build
	$(PYTHON) -m pytest -q tests/python

demo: deps build
	$(PYTHON) examples/jit_basics.py
	$(PYTHON) examples/saxpy.py

# Unit tests and goldens under AddressSanitizer + UndefinedBehaviorSanitizer.
asan: deps
	cmake -S . -B build-asan -G $(GENERATOR) -DCMAKE_BUILD_TYPE=Debug -DKJIT_SANITIZE=ON \
	  -DKJIT_PYTHON=OFF -DPython3_EXECUTABLE=$(PYTHON)
	cmake --build build-asan
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure

# The JIT driver's thread tests (eight threads compiling one function at
# once: tests/unit/test_jit_threads.cpp) under ThreadSanitizer.
tsan: deps
	cmake -S . -B build-tsan -G $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKJIT_TSAN=ON \
	  -DKJIT_PYTHON=OFF -DPython3_EXECUTABLE=$(PYTHON)
	cmake --build build-tsan --target kjit_unit_tests
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" build-tsan/bin/kjit_unit_tests "[threads]"

# libFuzzer on the lexer and parser, FUZZ_SECONDS long, from the seed corpus
# (tests/fuzz/corpus plus the CUDA kernels of tools/gpu/seed_kernels.py).
fuzz: deps
	CC=clang-19 CXX=clang++-19 cmake -S . -B build-fuzz -G $(GENERATOR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DKJIT_FUZZ=ON -DKJIT_SANITIZE=ON -DKJIT_PYTHON=OFF -DKJIT_TESTS=OFF
	cmake --build build-fuzz --target fuzz_parser -j 2
	mkdir -p fuzz-out/corpus
	cp tools/gpu/seed_kernels.py fuzz-out/corpus/cuda_seeds.py
	build-fuzz/bin/fuzz_parser -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 \
	  -print_final_stats=1 -artifact_prefix=fuzz-out/ fuzz-out/corpus tests/fuzz/corpus

# Random @njit programs run by kjit and by Numba, compared (tools/fuzz_diff.py):
# FUZZ_SECONDS long, from FUZZ_SEED; each divergence is printed with its program.
FUZZ_SEED ?= 1
fuzz-diff: build
	KJIT_DEVICE=cpu $(PYTHON) tools/fuzz_diff.py --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED)

# Random kernels (tools/fuzz_kernels.py): PTX for every supported compute
# capability checked by ptxas, the CPU device against the simulator.
FUZZ_KERNELS ?= 2000
fuzz-kernels: build
	KJIT_DEVICE=cpu $(PYTHON) tools/fuzz_kernels.py --kernels $(FUZZ_KERNELS) --seed $(FUZZ_SEED)

clean:
	rm -rf $(BUILD) build-asan build-fuzz
