#!/usr/bin/python3
"""Writes `y[v0, ..., vR-1] = x[v0 + SHIFT, v1, ..., vR-1]`, every extent 1:
a kernel whose cost to check grows with its rank R and nothing else.

usage: high_rank_kernel.py RANK [SHIFT]
"""

import sys

rank = int(sys.argv[1])
shift = int(sys.argv[2]) if len(sys.argv) > 2 else 0
variables = [f"v{i}" for i in range(rank)]
read = [f"v0 + {shift}"] + variables[1:] if shift else variables
ones = ", ".join(["1"] * rank)
print(f"kernel k(x: f32[{ones}]) -> (y: f32[{ones}]) {{")
print(f"  all ({', '.join(variables)}) in ({ones})")
print(f"    y[{', '.join(variables)}] = x[{', '.join(read)}];")
print("}")
