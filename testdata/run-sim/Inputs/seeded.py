"""Regenerates run-sim's seeded inputs from the rule in docs/run-sim.md and
checks them against the files run-sim wrote.

usage: seeded.py DIR SEED NAME...
"""
import sys

import numpy as np

MASK = 2**64 - 1


def fnv1a64(text):
    h = 0xcbf29ce484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001b3) & MASK
    return h


def draws(seed, name, count):
    state = seed ^ fnv1a64(name)
    for _ in range(count):
        state = (state + 0x9e3779b97f4a7c15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & MASK
        z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & MASK
        yield z ^ (z >> 31)


def expected(seed, name, dtype, shape):
    values = []
    for z in draws(seed, name, int(np.prod(shape, dtype=np.int64))):
        if dtype == np.float16:
            values.append((z >> 53) * 2.0**-10 - 1)
        elif dtype == np.float32:
            values.append((z >> 40) * 2.0**-23 - 1)
        elif dtype == np.float64:
            values.append((z >> 11) * 2.0**-52 - 1)
        elif dtype == np.int8:
            values.append(z % 17 - 8)
        else:
            values.append(z % 129 - 64)
    return np.array(values, dtype=dtype).reshape(shape)


def main():
    folder, seed, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    for name in names:
        actual = np.load(f"{folder}/{name}.npy")
        want = expected(seed, name, actual.dtype.type, actual.shape)
        same = np.array_equal(actual, want)
        print(f"{name}: {actual.dtype} {actual.shape} {'same' if same else 'DIFFERENT'}")


main()
