#!/usr/bin/python3
"""Writes a random linear-algebra kernel in the kernel language, for
differential tests of saturate's idiom rules (LIAR's BLAS and PyTorch sets).

scripts/random_kernel.py draws any affine statement, so its kernels seldom
contain an idiom. These are chains of the statements the idioms are about:
scaled sums of vectors and matrices, matrix-vector and matrix-matrix
products with either operand transposed, dot products, sums, outer products
and fills, each reading the kernel's inputs or the results of earlier
statements (some of them locals). Extents are small, 1 included, and shared
between operands so that the shapes fit.

usage: random_linalg_kernel.py SEED > kernel.tk
"""

import random
import sys


class Kernel:
    def __init__(self, rng):
        self.rng = rng
        self.elem = rng.choice(["f32", "f64"])
        self.extents = [rng.choice([1, 2, 3, 4, 5, 7]) for _ in range(3)]
        self.inputs = []  # (name, dims)
        self.scalars = []
        self.results = []  # (name, dims, is_local), in order
        self.statements = []

    def dims(self, rank):
        return tuple(self.rng.randrange(3) for _ in range(rank))

    def operand(self, dims):
        """An array of extents `dims` (indices into self.extents): an earlier
        result or a kernel input, most often a new one."""
        known = [name for name, d, _ in self.results if d == dims]
        known += [name for name, d in self.inputs if d == dims]
        if known and self.rng.random() < 0.6:
            return self.rng.choice(known)
        name = "x%d" % len(self.inputs)
        self.inputs.append((name, dims))
        return name

    def scalar(self):
        """A scale factor: a scalar input or a literal, or nothing."""
        r = self.rng.random()
        if r < 0.3:
            if not self.scalars or self.rng.random() < 0.5:
                self.scalars.append("a%d" % len(self.scalars))
            return self.rng.choice(self.scalars) + " * "
        if r < 0.45:
            return self.rng.choice(["2.0", "-1.0", "0.5"]) + " * "
        return ""

    def result(self, dims):
        name = "y%d" % len(self.results)
        self.results.append((name, dims, self.rng.random() < 0.3))
        return name

    def access(self, name, indices):
        return "%s[%s]" % (name, ", ".join(indices)) if indices else name

    def statement(self):
        kind = self.rng.choice([
            "scale_add", "scale_add", "gemv", "gemv", "gemm", "gemm", "dot",
            "sum", "outer", "fill"])
        names = ["i", "j", "k"]
        if kind in ("scale_add", "fill"):
            rank = self.rng.choice([1, 2])
            dims = self.dims(rank)
            idx = names[:rank]
            if kind == "fill":
                rhs = self.rng.choice(["0", "0.0", "1.5", "-2.0"])
            else:
                terms = []
                for _ in range(self.rng.choice([1, 2, 2, 3])):
                    # A matrix term may be read transposed.
                    if rank == 2 and self.rng.random() < 0.3:
                        src = self.operand((dims[1], dims[0]))
                        terms.append(self.scalar() + self.access(src, ["j", "i"]))
                    else:
                        terms.append(self.scalar() +
                                     self.access(self.operand(dims), idx))
                rhs = " + ".join(terms)
            out = self.result(dims)
            return self.loop(idx, dims, self.access(out, idx), "=", rhs)
        if kind == "gemv":
            m, n = self.dims(2)
            if self.rng.random() < 0.5:
                a = self.access(self.operand((m, n)), ["i", "j"])
            else:
                a = self.access(self.operand((n, m)), ["j", "i"])
            x = self.access(self.operand((n,)), ["j"])
            out = self.result((m,))
            return self.loop(["i", "j"], (m, n), self.access(out, ["i"]), "+=",
                             self.scalar() + a + " * " + x)
        if kind == "gemm":
            m, n, p = self.dims(3)
            if self.rng.random() < 0.7:
                a = self.access(self.operand((m, p)), ["i", "k"])
            else:
                a = self.access(self.operand((p, m)), ["k", "i"])
            if self.rng.random() < 0.7:
                b = self.access(self.operand((p, n)), ["k", "j"])
            else:
                b = self.access(self.operand((n, p)), ["j", "k"])
            out = self.result((m, n))
            return self.loop(["i", "j", "k"], (m, n, p),
                             self.access(out, ["i", "j"]), "+=",
                             self.scalar() + a + " * " + b)
        if kind in ("dot", "sum"):
            (n,) = self.dims(1)
            rhs = self.access(self.operand((n,)), ["i"])
            if kind == "dot":
                rhs += " * " + self.access(self.operand((n,)), ["i"])
            out = self.result(())
            return self.loop(["i"], (n,), out, "+=", self.scalar() + rhs)
        m, n = self.dims(2)  # outer product
        u = self.access(self.operand((m,)), ["i"])
        v = self.access(self.operand((n,)), ["j"])
        out = self.result((m, n))
        return self.loop(["i", "j"], (m, n), self.access(out, ["i", "j"]), "=",
                         self.scalar() + u + " * " + v)

    def loop(self, idx, dims, lhs, op, rhs):
        extents = ", ".join(str(self.extents[d]) for d in dims)
        return "  all (%s) in (%s)\n    %s %s %s;" % (", ".join(idx), extents,
                                                    lhs, op, rhs)

    def declare(self, name, dims):
        if not dims:
            return "%s: %s" % (name, self.elem)
        shape = ", ".join(str(self.extents[d]) for d in dims)
        return "%s: %s[%s]" % (name, self.elem, shape)

    def text(self, seed):
        for _ in range(self.rng.choice([1, 2, 3, 4])):
            self.statements.append(self.statement())
        # The last result is an output, whatever was drawn for it.
        name, dims, _ = self.results[-1]
        self.results[-1] = (name, dims, False)
        params = [self.declare(s, ()) for s in self.scalars]
        params += [self.declare(n, d) for n, d in self.inputs]
        outputs = [self.declare(n, d) for n, d, local in self.results
                   if not local]
        lines = ["# random linear-algebra kernel, seed %d" % seed,
                 "kernel linalg%d(%s) -> (%s) {" % (seed, ", ".join(params),
                                                   ", ".join(outputs))]
        lines += ["  local %s;" % self.declare(n, d)
                  for n, d, local in self.results if local]
        lines += self.statements
        lines.append("}")
        return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: random_linalg_kernel.py SEED")
    seed = int(sys.argv[1])
    sys.stdout.write(Kernel(random.Random(seed)).text(seed))


if __name__ == "__main__":
    main()
