#!/usr/bin/env bash
# Installs what kjit needs from Debian 12's apt, idempotently: apt-get update
# runs only when a package is missing. Needs root (or sudo).
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build ccache git clang-format-19
  llvm-19-dev llvm-19-tools lld-19 liblld-19-dev clang-19 libclang-rt-19-dev
  libzstd-dev zlib1g-dev libxml2-dev libedit-dev libcurl4-openssl-dev libffi-dev
  pybind11-dev libfmt-dev catch2
  python3-dev python3-numpy python3-pytest python3-numba liblapack3
  python3-dask python3-distributed python3-cloudpickle
  rocm-device-libs libamdhip64-dev
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install_deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
