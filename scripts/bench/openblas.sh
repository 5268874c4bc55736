# Sourced by the benchmarks that compare with OpenBLAS: installs Debian's
# libopenblas-dev when it is missing, sets `openblas` (the directory of its
# cblas.h: Debian's pthreads flavour keeps it apart from other BLAS
# implementations' headers) and `openblas_lib`, and runs OpenBLAS at its
# best on one thread: these machines set OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE for old OpenBLAS builds, which hold it to its AVX2
# kernels.
if ! dpkg-query -W -f='${Status}' libopenblas-dev 2>/dev/null | grep -q "ok installed"; then
  echo "bench: installing libopenblas-dev (the baseline)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    libopenblas-dev >/dev/null
fi
openblas=/usr/include/x86_64-linux-gnu/openblas-pthread
[ -d "$openblas" ] || openblas=/usr/include
openblas_lib=/usr/lib/x86_64-linux-gnu/openblas-pthread
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
export OPENBLAS_NUM_THREADS=1
