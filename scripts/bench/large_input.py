#!/usr/bin/python3
"""Writes a large, valid input for one of Tessel's tools: many small kernels,
as a big program is made of, cycling through a few shapes.

  funcs    tensor-level TIR (for parse and saturate)
  procs    loop-level TIR (for parse, emit-c and run-sim: run the entry p0)
  kernels  the kernel language (for parse)

The output is the smallest whole number of kernels that reaches MEGABYTES
(10^6 bytes), so the sizes of the benchmark and the tests are exact enough
to compare tools by bytes of input.

usage: large_input.py funcs|procs|kernels MEGABYTES > FILE
"""

import sys

FUNCS = [
    "(func @f{i} ((alpha f32) (x (f32 4)) (y (f32 4))) ((z (f32 4)))\n"
    "  (build 4 (lam (+ (* alpha (index x %0)) (index y %0)))))\n",
    "(func @f{i} ((x (f32 8)) (y (f32 8))) ((d f32))\n"
    "  (ifold 8 0.0 (lam (lam (+ %0 (* (index x %1) (index y %1)))))))\n",
    "(func @f{i} ((A (f32 4 3)) (x (f32 3))) ((y (f32 4)))\n"
    "  (build 4 (lam (ifold 3 0.0 (lam (lam (+ %0 (* (index (index A %2) %1)"
    " (index x %1)))))))))\n",
]

PROCS = [
    "(proc @p{i} ((in alpha f32) (in x (f32 4)) (in y (f32 4)) (out z (f32 4)))\n"
    "  (for i 0 4 (assign (z i) (+ (* alpha (x i)) (y i)))))\n",
    "(proc @p{i} ((in x (f32 8)) (in y (f32 8)) (out d f32))\n"
    "  (assign d 0.0)\n  (for i 0 8 (reduce d (* (x i) (y i)))))\n",
    "(proc @p{i} ((in A (f32 4 3)) (in x (f32 3)) (out y (f32 4)))\n"
    "  (for i 0 4 (assign (y i) 0.0) (for j 0 3 (reduce (y i) (* (A i j) (x j))))))\n",
]

KERNELS = [
    "kernel k{i}(alpha: f32, x: f32[4], y: f32[4]) -> (z: f32[4]) {{\n"
    "  all (i) in (4) z[i] = alpha * x[i] + y[i];\n}}\n",
    "kernel k{i}(x: f32[8], y: f32[8]) -> (d: f32) {{\n"
    "  all (i) in (8) d += x[i] * y[i];\n}}\n",
    "kernel k{i}(A: f32[4, 3], x: f32[3]) -> (y: f32[4]) {{\n"
    "  all (i, j) in (4, 3) y[i] += A[i, j] * x[j];\n}}\n",
]


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("funcs", "procs", "kernels"):
        sys.exit(__doc__)
    shapes = {"funcs": FUNCS, "procs": PROCS, "kernels": KERNELS}[sys.argv[1]]
    target = int(float(sys.argv[2]) * 1e6)
    out = sys.stdout
    written = 0
    i = 0
    while written < target:
        text = shapes[i % len(shapes)].format(i=i)
        out.write(text)
        written += len(text)
        i += 1


if __name__ == "__main__":
    main()
