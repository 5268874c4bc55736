#!/bin/bash
# Benchmark: convolutions through parse, vectorize (--target $TARGET,
# default avx512, its default strategy) and emit-c, compiled with the system C compiler, against
# oneDNN (Debian's libdnnl-dev) on one thread in the same run
# (scripts/bench/conv_bench.c), with the core's FMA peak measured first.
# Each result is compared with oneDNN's. Prints figures; asserts nothing.
#   [TARGET=avx2] [STRATEGY=FILE] [CFLAGS_EXTRA=FLAGS] scripts/bench/conv.sh [CASE...]
# A CASE is KIND:N:H:W:C:F:KH:KW:S:D (KIND conv2d or depthwise, F ignored
# for depthwise; H and W are the input's, already padded); the default
# list is the issue's dense 5x82x102x128 -> 128 3x3 layer, ResNet-50's 3x3
# layers at batch 1, a strided and a dilated layer, a 1-D convolution, and
# MobileNet's depthwise 3x3 layers. STRATEGY is passed to vectorize as
# --strategy (formats/strategy/README.md), CFLAGS_EXTRA added to the C
# compiler's flags, to compare strategies or compilations side by side.
set -euo pipefail
cd "$(dirname "$0")/../.."
cases=("$@")
((${#cases[@]})) || cases=(
  conv2d:5:82:102:128:128:3:3:1:1
  conv2d:1:58:58:64:64:3:3:1:1 conv2d:1:30:30:128:128:3:3:1:1
  conv2d:1:16:16:256:256:3:3:1:1 conv2d:1:9:9:512:512:3:3:1:1
  conv2d:1:57:57:64:64:3:3:2:1 conv2d:1:60:60:64:64:3:3:1:2
  conv2d:1:1:1026:64:64:1:3:1:1
  depthwise:1:114:114:32:0:3:3:1:1 depthwise:1:113:113:64:0:3:3:2:1
  depthwise:1:58:58:128:0:3:3:1:1 depthwise:1:30:30:256:0:3:3:1:1
  depthwise:1:16:16:512:0:3:3:1:1 depthwise:1:9:9:1024:0:3:3:1:1)
scripts/setup.sh
if ! dpkg-query -W -f='${Status}' libdnnl-dev 2>/dev/null | grep -q "ok installed"; then
  echo "bench: installing libdnnl-dev (the baseline)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    libdnnl-dev >/dev/null
fi
# One thread, as the vectorized kernel runs.
export OMP_NUM_THREADS=1
. scripts/bench/harness.sh
bench_tools parse vectorize emit-c
cflags=(-std=gnu11 -O3 -march=native ${CFLAGS_EXTRA:-})
echo "compiler: $(cc --version | head -1); flags: ${cflags[*]}; oneDNN $(dpkg-query -W -f='${Version}' libdnnl-dev)"
bench_vectorize_flags
bench_peak
for case in "${cases[@]}"; do
  IFS=: read -r kind n h w c f kh kw s d <<<"$case"
  oh=$(((h - d * (kh - 1) - 1) / s + 1))
  ow=$(((w - d * (kw - 1) - 1) / s + 1))
  sizes=(-D N="$n" -D H="$h" -D W="$w" -D C="$c" -D KH="$kh" -D KW="$kw"
    -D OH="$oh" -D OW="$ow" -D S="$s" -D D="$d")
  depthwise=0
  if [ "$kind" = depthwise ]; then depthwise=1; else sizes+=(-D F="$f"); fi
  "$bin/parse/parse" "scripts/bench/conv/${kind}_nhwc.tk" "${sizes[@]}" \
    -o "$work/conv.tir"
  "$bin/vectorize/vectorize" "$work/conv.tir" "${vectorize_flags[@]}" \
    -o "$work/vector.tir"
  "$bin/emit-c/emit-c" "$work/vector.tir" -o "$work/kernel.c"
  cc "${cflags[@]}" -DTESSEL_KERNEL="\"$work/kernel.c\"" \
    -DKERNEL="${kind}_nhwc" -DDEPTHWISE="$depthwise" -DPEAK="$peak" \
    -DSIZE_N="$n" -DSIZE_H="$h" -DSIZE_W="$w" -DSIZE_C="$c" -DSIZE_F="${f:-0}" \
    -DSIZE_KH="$kh" -DSIZE_KW="$kw" -DSIZE_S="$s" -DSIZE_D="$d" \
    -Iscripts/bench scripts/bench/conv_bench.c -o "$work/bench" -ldnnl -lm
  "$work/bench"
done
