#!/usr/bin/env bash
# Makes the device bundle in DIR (default .device/bundle, ignored by git):
# libkjit_core.so with LLVM 19 linked in statically, kjitc, the fmt headers,
# xz-compressed, plus the seed kernels' PTX. Then, on the GPU machine:
#     tools/gpu/check.sh .device    (with .device copied along with the tree)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.device}
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true
cmake -S . -B build-bundle -G Ninja -DCMAKE_BUILD_TYPE=Release -DKJIT_BUNDLE=ON \
  -DKJIT_PYTHON=OFF -DKJIT_TESTS=OFF -DPython3_EXECUTABLE=/usr/bin/python3 > /dev/null
cmake --build build-bundle --target kjit_core kjitc
rm -rf "$out/bundle" && mkdir -p "$out/bundle/include"
cp build-bundle/libkjit_core.so build-bundle/bin/kjitc "$out/bundle/"
strip --strip-unneeded "$out/bundle/libkjit_core.so" "$out/bundle/kjitc"
cp -r /usr/include/fmt "$out/bundle/include/"
( cd "$out" && tar cf - bundle | xz -T2 -6 > bundle.tar.xz && rm -rf bundle )
ls -la "$out/bundle.tar.xz"
bash tools/gpu/make_ptx.sh "$out/ptx" > /dev/null
echo "bundle ready: carry $out; on the GPU machine run tools/gpu/check.sh $out"
