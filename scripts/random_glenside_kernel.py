#!/usr/bin/python3
"""Writes a random Glenside kernel as a TIR module (access-pattern level),
for differential tests of saturate --target gemmini.

The kernels are the three shapes of Glenside's Section 5 at drawn sizes: a
matrix multiplication (Fig. 2b; 1 to 40 rows, columns and reduction, so
that blocking into the 16x16 array meets remainders of every size), a 2-D
convolution (Fig. 2a; batch, channels, image, filters, filter window and
strides drawn, so that im2col meets every layout) and a two-layer
perceptron (dense, relu, dense).

usage: random_glenside_kernel.py SEED > kernel.tir
"""

import random
import sys


def matmul(rng, seed, elem):
    m, k, n = (rng.randint(1, 40) for _ in range(3))
    return f"""(func @matmul{seed} ((X ({elem} {m} {k})) (W ({elem} {k} {n})))
    ((out ({elem} {m} {n})))
  (compute dotProd
    (cartProd (access X 1) (access (transpose (access W 1) (list 1 0)) 1))))
"""


def conv2d(rng, seed, elem):
    batch = rng.randint(1, 2)
    channels = rng.randint(1, 4)
    kh, kw = rng.randint(1, 3), rng.randint(1, 3)
    sh, sw = rng.randint(1, 2), rng.randint(1, 2)
    h, w = rng.randint(kh, 10), rng.randint(kw, 10)
    filters = rng.randint(1, 20)
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    return f"""(func @conv2d{seed} ((act ({elem} {batch} {channels} {h} {w}))
                  (w ({elem} {filters} {channels} {kh} {kw})))
    ((out ({elem} {batch} {filters} {oh} {ow})))
  (transpose
    (squeeze
      (compute dotProd
        (cartProd
          (windows (access act 1) (shape {channels} {kh} {kw})
                   (shape 1 {sh} {sw}))
          (access w 1)))
      1)
    (list 0 3 1 2)))
"""


def mlp(rng, seed, elem):
    batch, inputs, hidden, outputs = (rng.randint(1, 24) for _ in range(4))
    return f"""(func @mlp{seed} ((x ({elem} {batch} {inputs}))
               (w1 ({elem} {hidden} {inputs}))
               (w2 ({elem} {outputs} {hidden})))
    ((out ({elem} {batch} {outputs})))
  (compute dotProd
    (cartProd
      (access (compute relu (compute dotProd
                                     (cartProd (access x 1) (access w1 1))))
              1)
      (access w2 1))))
"""


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: random_glenside_kernel.py SEED")
    seed = int(sys.argv[1])
    rng = random.Random(seed)
    kernel = rng.choice([matmul, matmul, conv2d, conv2d, mlp])
    elem = rng.choice(["f32", "f32", "i32"])
    sys.stdout.write(f"; random Glenside kernel, seed {seed}\n")
    sys.stdout.write(kernel(rng, seed, elem))


if __name__ == "__main__":
    main()
