#!/usr/bin/python3
"""Random cases for differential tests of vectorize (scripts/fuzz-vectorize.sh).

  random_strategy.py kernel SEED KERNELS_DIR...
      Prints a kernel and its sizes, one per line: a path and the `-D`
      flags, or `random` (scripts/random_kernel.py's kernel of SEED). A
      kernel of the KERNELS_DIRs takes drawn sizes for the names of its
      `# sizes:` line (else the capitalised names of its signature): small,
      often not a multiple of 8 or 16, sometimes 1; a convolution's input
      size follows from its output's, filter's, stride's and dilation's.
  random_strategy.py strategy SEED LOOPS.tir
      Prints a strategy (formats/strategy/README.md) of valid random values
      for some of its keys, each drawn independently; `tile` and
      `interchange` name loops of LOOPS.tir. The values lean to those that
      change what vectorize does at small sizes: narrow vectors, few rows,
      an `l2` and `l3` of a few KiB (cache blocks and packing), `window` and
      `prefetch` and `prefetch-copies` at small values, `dot` up to 8 columns, `nontemporal` as
      low as 1 byte (every output streamed).

Every choice comes from SEED, so a failing case is reproduced by its seed.
"""

import os
import random
import re
import sys

# Sizes that fill no vector (1, 3), fill some exactly (8, 16, 64) and leave
# tails of every kind (9, 17, 33, ...).
SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 15, 16, 17, 20, 23, 24, 31, 32, 33,
         40, 47, 64, 65]

# Sizes that must stay equal to another's plus the window (a stencil reads
# x[i + k] for k < 3 and declares x of N = M + 2 elements).
DERIVED = {
    "blur1d": {"N": ("M", 2)},
    "jacobi1d": {"N": ("M", 2)},
    "stencil2d": {"H": ("M", 2), "W": ("N", 2)},
}

# A convolution's sizes (scripts/bench/conv): small, as run-sim runs every
# multiply-add of it.
CONV_SIZES = {"N": [1, 2], "C": [1, 3, 8, 13, 16, 17], "F": [1, 5, 8, 16, 17],
              "KH": [1, 2, 3], "KW": [1, 2, 3], "OH": [1, 2, 5, 7],
              "OW": [1, 2, 5, 7, 9, 16], "S": [1, 1, 2], "D": [1, 1, 2]}


def kernel_case(seed, kernels_dirs):
    rng = random.Random(seed)
    if rng.random() < 0.4:
        return ["random", ""]
    paths = sorted(os.path.join(d, n) for d in kernels_dirs
                   for n in os.listdir(d) if n.endswith(".tk"))
    path = rng.choice(paths)
    name = os.path.basename(path)[:-3]
    with open(path) as f:
        text = f.read()
    line = re.search(r"^# sizes:(.*)$", text, re.M)
    if line:
        names = re.findall(r"-D (\w+)=", line.group(1))
    else:
        signature = re.search(r"^kernel .*?\{", text, re.M | re.S).group(0)
        names = sorted(set(re.findall(r"\b[A-Z][A-Z0-9]*\b",
                                      " ".join(re.findall(r"\[(.*?)\]", signature)))))
    if "OH" in names:
        sizes = {n: rng.choice(CONV_SIZES[n]) for n in names if n in CONV_SIZES}
        sizes["H"] = sizes["S"] * (sizes["OH"] - 1) + sizes["D"] * (sizes["KH"] - 1) + 1
        sizes["W"] = sizes["S"] * (sizes["OW"] - 1) + sizes["D"] * (sizes["KW"] - 1) + 1
    else:
        sizes = {n: rng.choice(SIZES) for n in names}
        for size, (base, extra) in DERIVED.get(name, {}).items():
            sizes[size] = sizes[base] + extra
    return [path, " ".join(f"-D {n}={sizes[n]}" for n in names)]


def strategy(seed, loops_path):
    rng = random.Random(seed)
    with open(loops_path) as f:
        loops = sorted(set(re.findall(r"\(for (\w+) ", f.read())))

    def small(*choices):
        return rng.choice(choices)

    keys = {
        "width": lambda: small(1, 2, 3, 4, 5, 7, 8, 8, 16, 16, 32, 64),
        "vectors": lambda: small(1, 1, 2, 2, 3, 4, 5, 8),
        "rows": lambda: small(1, 2, 3, 4, 5, 6, 7, 8, 16),
        "registers": lambda: small(1, 2, 4, 8, 16, 16, 32, 32, 64),
        "shape": lambda: small("fit", "fixed"),
        "depth": lambda: small(1, 2, 3, 4, 7, 8, 16, 64, 1 << 30),
        "tail": lambda: small("pad", "peel", "mask"),
        "contraction": lambda: small("fma", "mul-add", "mul-add"),
        "lowering": lambda: small("contract", "outer-product", "fma"),
        "pack": lambda: small("auto", "yes", "no"),
        "pack-reads": lambda: small(1, 2, 3, 64, 1 << 30),
        "pack-taps": lambda: small(0, 4, 64, 256, 1 << 40),
        "pack-whole": lambda: small(0, 1024, 65536, 1 << 40),
        "window": lambda: small(1, 2, 3, 5, 64),
        "l2": lambda: small(64, 256, 1024, 4096, 8192, 16384, 65536, 1 << 20),
        "prefetch": lambda: small(0, 1, 7, 64, 448, 1 << 20),
        "prefetch-copies": lambda: small(0, 1, 2, 16, 1 << 20),
        "nontemporal": lambda: small(0, 1, 64, 4096, 1 << 19, 1 << 40),
        "dot": lambda: small(0, 1, 2, 4, 4, 8),
        "l3": lambda: small(64, 256, 1024, 4096, 1 << 24),
    }
    lines = [f"# random strategy, seed {seed}"]
    for key, value in keys.items():
        if rng.random() < 0.5:
            lines.append(f"{key} {value()}")
    # The contract level states products and sums rounded apart.
    if "lowering contract" in lines:
        lines = [l for l in lines if not l.startswith("contraction ")]
        lines.append("contraction mul-add")
    if loops and rng.random() < 0.4:
        for loop in rng.sample(loops, rng.randint(1, min(2, len(loops)))):
            lines.append(f"tile {loop} {small(1, 2, 3, 4, 5, 8, 16, 32)}")
    if len(loops) >= 2 and rng.random() < 0.3:
        lines.append("interchange " + " ".join(
            rng.sample(loops, rng.randint(2, min(3, len(loops))))))
    return "\n".join(lines) + "\n"


def main():
    mode, seed = sys.argv[1], int(sys.argv[2])
    if mode == "kernel":
        sys.stdout.write("\n".join(kernel_case(seed, sys.argv[3:])) + "\n")
    elif mode == "strategy":
        sys.stdout.write(strategy(seed, sys.argv[3]))
    else:
        sys.exit(f"random_strategy.py: error: unknown mode '{mode}'")


if __name__ == "__main__":
    main()
