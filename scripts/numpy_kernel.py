#!/usr/bin/python3
"""Evaluates a kernel-language file with NumPy: Tessel's independent oracle.

It shares no code with the C++ tools: it parses the kernel language itself
(formats/kernel/README.md) and evaluates every statement over its whole
domain at once with NumPy, in the domain's lexicographic order, following
the language's rules (C's usual arithmetic conversions, literals taking the
other operand's type, initialising reductions).

usage: numpy_kernel.py KERNEL.tk [-D NAME=VALUE]... --inputs DIR --outputs DIR
                       [--entry NAME]
"""

import argparse
import os
import re
import sys

import numpy as np

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i8": np.int8,
          "i32": np.int32}
TOKEN = re.compile(
    r"\s*(?:(#[^\n]*)|(\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\.\d+(?:[eE][+-]?\d+)?)"
    r"|(\d+)|(->|max=|min=|\+=|[-+*/=(),:;\[\]{}])|([A-Za-z_]\w*))")


class KernelError(Exception):
    pass


def tokenize(text):
    tokens, pos = [], 0
    while pos < len(text):
        match = TOKEN.match(text, pos)
        if not match or match.end() == pos:
            if text[pos:].strip() == "":
                break
            raise KernelError(f"bad character at offset {pos}")
        pos = match.end()
        comment, flt, integer, punct, name = match.groups()
        if comment is not None:
            continue
        if flt is not None:
            tokens.append(("float", float(flt)))
        elif integer is not None:
            tokens.append(("int", int(integer)))
        elif name is not None:
            tokens.append(("name", name))
        elif punct is not None:
            tokens.append(("punct", punct))
    return tokens


class Parser:
    def __init__(self, tokens):
        self.tokens, self.pos = tokens, 0

    def peek(self, value=None):
        if self.pos >= len(self.tokens):
            return None if value is None else False
        token = self.tokens[self.pos]
        return token if value is None else token[1] == value

    def next(self):
        if self.pos >= len(self.tokens):
            raise KernelError("unexpected end of file")
        self.pos += 1
        return self.tokens[self.pos - 1]

    def expect(self, value):
        token = self.next()
        if token[1] != value:
            raise KernelError(f"expected {value!r}, found {token[1]!r}")

    def name(self):
        kind, value = self.next()
        if kind != "name":
            raise KernelError(f"expected a name, found {value!r}")
        return value

    def comma_list(self, item, close):
        items = []
        if self.peek(close):
            self.next()
            return items
        while True:
            items.append(item())
            if self.peek(","):
                self.next()
                continue
            self.expect(close)
            return items

    def decl(self):
        name = self.name()
        self.expect(":")
        elem = self.name()
        dims = []
        if self.peek("["):
            self.next()
            dims = self.comma_list(self.dim, "]")
        return (name, elem, dims)

    def dim(self):
        kind, value = self.next()
        if kind not in ("int", "name"):
            raise KernelError(f"expected a size, found {value!r}")
        return value

    def kernels(self):
        result = []
        while self.peek() is not None:
            if self.name() != "kernel":
                raise KernelError("expected 'kernel'")
            name = self.name()
            self.expect("(")
            inputs = self.comma_list(self.decl, ")")
            self.expect("->")
            self.expect("(")
            outputs = self.comma_list(self.decl, ")")
            self.expect("{")
            locals_, statements = [], []
            while not self.peek("}"):
                if self.peek("local"):
                    self.next()
                    locals_.append(self.decl())
                    self.expect(";")
                else:
                    statements.append(self.statement())
            self.next()
            result.append((name, inputs, outputs, locals_, statements))
        return result

    def statement(self):
        if self.name() != "all":
            raise KernelError("expected 'all' or 'local'")
        self.expect("(")
        variables = self.comma_list(self.name, ")")
        if self.name() != "in":
            raise KernelError("expected 'in'")
        self.expect("(")
        extents = self.comma_list(self.dim, ")")
        target = self.name()
        indices = []
        if self.peek("["):
            self.next()
            indices = self.comma_list(self.expr, "]")
        op = self.next()[1]
        if op not in ("=", "+=", "max=", "min="):
            raise KernelError(f"expected an assignment operator, found {op!r}")
        value = self.expr()
        self.expect(";")
        return (variables, extents, target, indices, op, value)

    def expr(self):
        left = self.term()
        while self.peek("+") or self.peek("-"):
            left = (self.next()[1], left, self.term())
        return left

    def term(self):
        left = self.unary()
        while self.peek("*") or self.peek("/"):
            left = (self.next()[1], left, self.unary())
        return left

    def unary(self):
        if self.peek("-"):
            self.next()
            return ("neg", self.unary())
        return self.primary()

    def primary(self):
        kind, value = self.next()
        if kind in ("int", "float"):
            return ("lit", value)
        if value == "(":
            inner = self.expr()
            self.expect(")")
            return inner
        if kind != "name":
            raise KernelError(f"unexpected {value!r}")
        if self.peek("("):
            self.next()
            return ("call", value, self.comma_list(self.expr, ")"))
        if self.peek("["):
            self.next()
            return ("read", value, self.comma_list(self.expr, "]"))
        return ("read", value, [])


def promote(t):
    return "i32" if t == "i8" else t


def common_type(a, b, literal=None):
    """C's usual arithmetic conversions; a literal ('lit', whose value is
    `literal`) takes the other side's type, except that a float literal
    meeting an integer makes the operation f64, as in C and NumPy."""
    if a == "lit" and b == "lit":
        return "lit"
    if "lit" in (a, b):
        other = promote(b if a == "lit" else a)
        if isinstance(literal, float) and other[0] == "i":
            return "f64"
        return other
    a, b = promote(a), promote(b)
    for t in ("f64", "f32", "f16"):
        if t in (a, b):
            return t
    return "i32"


def convert(value, vtype, target):
    if vtype == "lit":
        return np.asarray(value).astype(DTYPES[target])
    return np.asarray(value).astype(DTYPES[target])


def c_divide(a, b, ctype):
    if ctype[0] == "f":
        with np.errstate(divide="ignore", invalid="ignore"):
            return a / b
    if np.any(b == 0):
        raise KernelError("integer division by zero")
    quotient = np.abs(a.astype(np.int64)) // np.abs(b.astype(np.int64))
    return (np.sign(a) * np.sign(b) * quotient).astype(DTYPES[ctype])


class Evaluator:
    def __init__(self, env, types, grid, variables, defines):
        self.env, self.types, self.defines = env, types, defines
        self.index = {v: grid[i] for i, v in enumerate(variables)}

    def affine(self, node):
        kind = node[0]
        if kind == "lit":
            return np.int64(node[1])
        if kind == "read" and not node[2] and node[1] in self.index:
            return self.index[node[1]]
        if kind == "read" and not node[2] and node[1] in self.defines:
            return np.int64(self.defines[node[1]])  # a size, as a constant
        if kind == "neg":
            return -self.affine(node[1])
        if kind in ("+", "-", "*"):
            a, b = self.affine(node[1]), self.affine(node[2])
            return a + b if kind == "+" else a - b if kind == "-" else a * b
        raise KernelError("index is not affine")

    def value(self, node):
        """Returns (array or python number, type)."""
        kind = node[0]
        if kind == "lit":
            return node[1], "lit"
        if kind == "read":
            name, indices = node[1], node[2]
            if name in self.index and not indices:
                raise KernelError(f"domain variable {name} used as a value")
            array = self.env[name]
            if indices:
                array = array[tuple(self.affine(i) for i in indices)]
            return array, self.types[name]
        if kind == "neg":
            a, t = self.value(node[1])
            return -a, ("lit" if t == "lit" else promote(t))
        if kind == "call":
            name, args = node[1], node[2]
            if name == "relu":
                node = ("call", "max", [args[0], ("lit", 0)])
                name, args = "max", node[2]
            a, ta = self.value(args[0])
            b, tb = self.value(args[1])
            ctype = common_type(ta, tb, a if ta == "lit" else b)
            if ctype == "lit":  # folded as Python numbers, like + - * /
                return (b if a < b else a) if name == "max" else (b if b < a else a), "lit"
            a, b = convert(a, ta, ctype), convert(b, tb, ctype)
            if name == "max":
                return np.where(a < b, b, a), ctype
            if name == "min":
                return np.where(b < a, b, a), ctype
            raise KernelError(f"unknown function {name}")
        a, ta = self.value(node[1])
        b, tb = self.value(node[2])
        ctype = common_type(ta, tb, a if ta == "lit" else b)
        if ctype == "lit":
            return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[kind], "lit"
        a, b = convert(a, ta, ctype), convert(b, tb, ctype)
        if kind == "/":
            return c_divide(a, b, ctype), ctype
        with np.errstate(over="ignore"):
            return {"+": a + b, "-": a - b, "*": a * b}[kind], ctype


def size(value, defines):
    if isinstance(value, int):
        return value
    if value not in defines:
        raise KernelError(f"size {value} is not bound")
    return defines[value]


def run_kernel(kernel, defines, inputs_dir):
    name, inputs, outputs, locals_, statements = kernel
    env, types, shapes = {}, {}, {}
    for (var, elem, dims) in inputs + outputs + locals_:
        types[var] = elem
        shapes[var] = tuple(size(d, defines) for d in dims)
    for (var, elem, dims) in inputs:
        array = np.load(os.path.join(inputs_dir, var + ".npy"))
        if array.dtype != DTYPES[elem] or array.shape != shapes[var]:
            raise KernelError(f"{var}.npy does not match {elem}{list(shapes[var])}")
        env[var] = array
    for (variables, extents, target, indices, op, value) in statements:
        extents = [size(e, defines) for e in extents]
        grid = np.indices(extents).reshape(len(extents), -1) if extents else np.zeros((0, 1), np.int64)
        ev = Evaluator(env, types, grid, variables, defines)
        values, vtype = ev.value(value)
        elem = types[target]
        dtype = DTYPES[elem]
        points = grid.shape[1]
        values = np.broadcast_to(convert(values, vtype, elem), (points,))
        shape = shapes[target]
        if indices:
            flat = np.ravel_multi_index(
                tuple(np.broadcast_to(ev.affine(i), (points,)) for i in indices), shape)
        else:
            flat = np.zeros(points, dtype=np.int64)
        count = int(np.prod(shape)) if shape else 1
        if op in ("=", "+="):
            result = np.zeros(count, dtype)
        elif op == "max=":
            result = np.full(count, -np.inf if elem[0] == "f" else np.iinfo(dtype).min, dtype)
        else:
            result = np.full(count, np.inf if elem[0] == "f" else np.iinfo(dtype).max, dtype)
        if op == "=":
            result[flat] = values
        elif op == "+=":
            with np.errstate(over="ignore"):
                np.add.at(result, flat, values)
        elif op == "max=":
            for i, v in zip(flat, values):  # (y < e) ? e : y, in order
                if result[i] < v:
                    result[i] = v
        else:
            for i, v in zip(flat, values):
                if v < result[i]:
                    result[i] = v
        env[target] = result.reshape(shape)
    return {var: env[var] for (var, _, _) in outputs}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernel")
    parser.add_argument("-D", dest="defines", action="append", default=[])
    parser.add_argument("--inputs", required=True)
    parser.add_argument("--outputs", required=True)
    parser.add_argument("--entry")
    args = parser.parse_args()
    try:
        defines = {}
        for definition in args.defines:
            key, _, value = definition.partition("=")
            defines[key] = int(value)
        with open(args.kernel) as f:
            kernels = Parser(tokenize(f.read())).kernels()
        if args.entry:
            kernels = [k for k in kernels if k[0] == args.entry]
        if len(kernels) != 1:
            raise KernelError("expected exactly one kernel (use --entry)")
        outputs = run_kernel(kernels[0], defines, args.inputs)
    except (KernelError, OSError, ValueError) as error:
        print(f"numpy_kernel: error: {error}", file=sys.stderr)
        return 1
    os.makedirs(args.outputs, exist_ok=True)
    for var, array in outputs.items():
        np.save(os.path.join(args.outputs, var + ".npy"), array)
    return 0


if __name__ == "__main__":
    sys.exit(main())
