#!/usr/bin/python3
"""Writes a random, valid kernel in the kernel language, for differential tests.

Every kernel is well-formed and in bounds by construction: index expressions
are chosen first (non-negative affine combinations of the domain variables)
and each input is declared just large enough for them. The statements mix
element types, reductions (+=, max=, min=), plain and affine left-hand sides,
locals and scalar inputs, so that parse, run-sim, emit-c and the NumPy oracle
are exercised on shapes nobody wrote by hand.

usage: random_kernel.py SEED > kernel.tk
"""

import random
import sys

TYPES = ["f32", "f64", "i32", "i8"]


class Kernel:
    def __init__(self, rng):
        self.rng = rng
        self.inputs = {}  # name -> [elem, dims]
        self.scalars = {}  # name -> elem
        self.defined = []  # (name, elem, dims) of earlier statements
        self.statements = []
        self.read_types = set()  # element types the current statement reads

    def index(self, variables, extents):
        """A non-negative affine index and the largest value it reaches."""
        rng = self.rng
        terms, top = [], 0
        for var, ext in zip(variables, extents):
            if rng.random() < 0.45:
                coeff = rng.choice([1, 1, 2])
                terms.append(var if coeff == 1 else f"{coeff} * {var}")
                top += coeff * (ext - 1)
        const = rng.choice([0, 0, 1, 2])
        if const or not terms:
            terms.append(str(const))
            top += const
        return " + ".join(terms), top

    def read(self, variables, extents):
        rng = self.rng
        if self.defined and rng.random() < 0.3:
            name, elem, dims = rng.choice(self.defined)
            self.read_types.add(elem)
            if dims:
                # Read an earlier tensor through indices that stay in range.
                indices = []
                for dim in dims:
                    fits = [v for v, e in zip(variables, extents) if e <= dim]
                    indices.append(rng.choice(fits) if fits and rng.random() < 0.8
                                   else str(rng.randrange(dim)))
                return f"{name}[{', '.join(indices)}]"
            return name
        if rng.random() < 0.15:
            name = f"s{len(self.scalars)}"
            self.scalars[name] = rng.choice(TYPES[:3])
            self.read_types.add(self.scalars[name])
            return name
        name = f"x{len(self.inputs)}"
        rank = rng.choice([1, 1, 2, 2, 3])
        indices, dims = [], []
        for _ in range(rank):
            text, top = self.index(variables, extents)
            indices.append(text)
            dims.append(top + 1)
        self.inputs[name] = [rng.choice(TYPES), dims]
        self.read_types.add(self.inputs[name][0])
        return f"{name}[{', '.join(indices)}]"

    def expr(self, variables, extents, depth):
        rng = self.rng
        if depth == 0 or rng.random() < 0.3:
            if rng.random() < 0.1:
                literal = rng.choice(["1", "2", "3", "0.5", "1.25"])
                if "." in literal:
                    self.read_types.add("f64")  # it makes the operation float
                return literal
            return self.read(variables, extents)
        choice = rng.random()
        a = self.expr(variables, extents, depth - 1)
        if choice < 0.1:
            return f"-{a}" if not a.startswith("-") else f"-({a})"
        if choice < 0.2:
            return f"relu({a})"
        if choice < 0.3:
            return f"({a}) / 4"
        b = self.expr(variables, extents, depth - 1)
        if choice < 0.4:
            return f"{rng.choice(['max', 'min'])}({a}, {b})"
        return f"({a} {rng.choice(['+', '-', '*'])} {b})"

    def statement(self, number, last):
        rng = self.rng
        count = rng.randint(1, 4)
        variables = [f"v{i}" for i in range(count)]
        extents = [rng.randint(1, 6) for _ in variables]
        op = rng.choice(["=", "+=", "+=", "max=", "min="])
        keep = list(range(count)) if op == "=" else sorted(
            rng.sample(range(count), rng.randint(0, count)))
        self.read_types = set()
        value = self.expr(variables, extents, rng.randint(1, 3))
        name = f"y{number}" if last else f"t{number}"
        # A float value converted to an integer type is undefined in C when
        # out of range: integer results only from integer operands.
        reads_floats = bool(self.read_types & {"f32", "f64"})
        elem = rng.choice(TYPES[:2] if reads_floats else TYPES)
        if op != "=" and keep and rng.random() < 0.25:
            # An affine left-hand side: several points may meet in one element.
            text, top = self.index(variables, extents)
            lhs_indices, dims = [text], [top + 1]
        else:
            lhs_indices = [variables[i] for i in keep]
            dims = [extents[i] for i in keep]
            if op == "=" and keep and rng.random() < 0.25:
                # A strided target: injective, but it leaves elements that
                # the statement does not reach (they are 0).
                first = keep[0]
                lhs_indices[0] = f"2 * {variables[first]} + 1"
                dims[0] = 2 * extents[first] + rng.randint(0, 1)
        lhs = f"{name}[{', '.join(lhs_indices)}]" if dims else name
        self.statements.append(
            f"  all ({', '.join(variables)}) in ({', '.join(map(str, extents))})\n"
            f"    {lhs} {op} {value};")
        return name, elem, dims

    def text(self, seed):
        outputs, locals_ = [], []
        count = self.rng.randint(1, 3)
        for number in range(count):
            last = number == count - 1 or self.rng.random() < 0.3
            name, elem, dims = self.statement(number, last)
            (outputs if last else locals_).append((name, elem, dims))
            self.defined.append((name, elem, dims))

        def decl(name, elem, dims):
            return f"{name}: {elem}[{', '.join(map(str, dims))}]" if dims else f"{name}: {elem}"

        params = [decl(n, e, d) for n, (e, d) in self.inputs.items()]
        params += [f"{n}: {e}" for n, e in self.scalars.items()]
        lines = [f"# random kernel, seed {seed}",
                 f"kernel random{seed}({', '.join(params)}) -> "
                 f"({', '.join(decl(*o) for o in outputs)}) {{"]
        lines += [f"  local {decl(*l)};" for l in locals_]
        lines += self.statements
        lines.append("}")
        return "\n".join(lines) + "\n"


def main():
    seed = int(sys.argv[1])
    sys.stdout.write(Kernel(random.Random(seed)).text(seed))


if __name__ == "__main__":
    main()
