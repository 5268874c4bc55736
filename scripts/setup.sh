#!/bin/bash
# Installs what Tessel needs from Debian's packages, once: the compiler, Bazel
# (bazel-bootstrap) and its rule packages, the libraries, LLVM's lit and
# FileCheck, NumPy and OpenBLAS (the BLAS calls' compiled C) for the tests.
# Quiet and fast when all is installed.
set -euo pipefail

packages=(
  g++ bazel-bootstrap bazel-rules-java bazel-rules-proto
  libabsl-dev libre2-dev libz3-dev libisl-dev libgtest-dev
  llvm-14-tools clang-14 python3 python3-numpy libopenblas-dev
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null |
      grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "tessel: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    echo "tessel: error: run as root or install sudo to install: ${missing[*]}" >&2
    exit 1
  }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
