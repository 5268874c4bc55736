#!/usr/bin/env python3
"""The malformed-input sweep behind scripts/fuzz-inputs.sh (docs/testing.md).

A case is one tool invocation written on one line of a case list:

    vectorize @in/x.tir --strategy @in/s.strategy -o %out
    parse -D N=8 --emit=loops <@in/k.tk

`@PATH` is an input file (relative to the list's folder) that the sweep
mutates, `<@PATH` the same file given on stdin, `%out` an output path the
sweep chooses, `@@WORD` the word `@WORD`; other words are passed as they
are. `capture` writes such a
list (and copies of the inputs) from the tool invocations of the golden
tests; `sweep` runs every case on the empty file, truncations and random
mutations of each of its inputs and reports what breaks the tools' promise
on bad input: exit 1 with a `file:line:col: error:` line, 2 for a bad
command line, never a crash, a hang or output that does not read back.
"""
import argparse
import concurrent.futures
import hashlib
import os
import random
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile

# Flags whose value the tool writes: the sweep points them at scratch paths.
OUTPUT_FLAGS = {"-o", "--output", "--outputs", "--stats", "--dot", "--trace"}
# Flags whose value is a folder of .npy files the tool reads.
DIR_FLAGS = {"--inputs", "--expect"}
SANITIZER = re.compile(
    r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
    r"runtime error:|ThreadSanitizer")
# `FILE:LINE:COL: error:`, or `FILE: error:` for what concerns the whole
# file (it is empty); not `TOOL: error:`, which is for the command line.
LOCATED_ERROR = re.compile(r"^\S*[/.<]\S*?(:\d+:\d+)?: error: ", re.M)
# run-sim's verdicts on two modules or their outputs concern no one place.
COMPARISON = re.compile(r"^run-sim: error: (\d+ of \d+ outputs differ|"
                        r"@\S+ writes \(.*\) but )", re.M)
ANY_ERROR = re.compile(r"error:", re.M)
# Sanitizers exit with these instead of 1, which the tools use for errors.
SANITIZER_ENV = {
    "ASAN_OPTIONS": "exitcode=86:detect_leaks=1:allocator_may_return_null=1",
    "UBSAN_OPTIONS": "exitcode=87:print_stacktrace=1:halt_on_error=1",
    "LSAN_OPTIONS": "exitcode=88",
}


# ---------------------------------------------------------------- capture --

def shim_main(corpus, real, args):
    """Runs as a tool on PATH during `capture`: records the call in CORPUS,
    then runs the tool REAL."""
    tool = os.path.basename(real)
    mode = os.fstat(0).st_mode
    data = None
    if stat.S_ISFIFO(mode) or stat.S_ISREG(mode):
        data = sys.stdin.buffer.read()
    if "--help" not in args and "--version" not in args:
        words = [tool]
        previous = ""
        for arg in args:
            words.append(_capture_word(corpus, previous, arg))
            previous = arg
        if data:
            words.append("<" + _store(corpus, "stdin", data))
        line = " ".join(shlex.quote(w) if not w.startswith(("@", "<@"))
                        else w for w in words) + "\n"
        with open(os.path.join(corpus, "cases.txt"), "a") as cases:
            cases.write(line)
    result = subprocess.run([real] + args, input=data)
    sys.exit(result.returncode)


def _capture_word(corpus, previous, arg):
    if previous in OUTPUT_FLAGS:
        return "%out"
    if previous in DIR_FLAGS and os.path.isdir(arg):
        digest = _digest_tree(arg)
        target = os.path.join(corpus, "dirs", digest)
        if not os.path.exists(target):
            shutil.copytree(arg, target)
        return "dirs/" + digest
    flag, eq, value = arg.partition("=")
    if eq and flag.startswith("--") and os.path.isfile(value):
        return flag + "=" + _store_file(corpus, value)
    if os.path.isfile(arg):
        return _store_file(corpus, arg)
    if arg.startswith("@"):
        return "@" + arg
    return arg


def _store_file(corpus, path):
    with open(path, "rb") as f:
        return _store(corpus, os.path.basename(path), f.read())


def _store(corpus, name, data):
    digest = hashlib.sha1(data).hexdigest()[:12]
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    relative = os.path.join("files", digest, safe)
    target = os.path.join(corpus, relative)
    if not os.path.exists(target):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    return "@" + relative


def _digest_tree(folder):
    digest = hashlib.sha1()
    for root, _, files in sorted(os.walk(folder)):
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as f:
                digest.update(name.encode() + f.read())
    return digest.hexdigest()[:12]


def capture(args):
    """Runs the golden suites with recording shims in front of the tools."""
    corpus = os.path.abspath(args.corpus)
    os.makedirs(corpus, exist_ok=True)
    shims = os.path.join(corpus, "shims")
    os.makedirs(shims, exist_ok=True)
    me = os.path.abspath(__file__)
    for tool in os.listdir(args.tools):
        shim = os.path.join(shims, tool)
        with open(shim, "w") as f:
            # lit passes the tests only some of its environment.
            f.write("#!/bin/sh\nexec /usr/bin/python3 %s shim %s %s \"$@\"\n"
                    % (shlex.quote(me), shlex.quote(corpus), shlex.quote(
                        os.path.join(os.path.abspath(args.tools), tool))))
        os.chmod(shim, 0o755)
    env = dict(os.environ, TESSEL_TOOL_DIR=shims,
               TESSEL_TARGETS_DIR=os.path.join(args.repo, "targets"))
    command = ["/usr/bin/python3", "/usr/lib/llvm-14/build/utils/lit/lit.py",
               "-q", "-j", "2"]
    if args.filter_out:
        command += ["--filter-out", args.filter_out]
    command += [os.path.join(args.repo, "testdata", f) for f in args.folders]
    subprocess.run(command, env=env)
    _dedup(os.path.join(corpus, "cases.txt"))


def _dedup(path):
    if not os.path.exists(path):
        return
    with open(path) as f:
        lines = dict.fromkeys(f)
    with open(path, "w") as f:
        f.writelines(lines)


# -------------------------------------------------------------- mutation --

NUMBER = re.compile(r"(?<![A-Za-z0-9_@%$.])-?\d+(\.\d+)?([eE][-+]?\d+)?")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
STRING = re.compile(r"\"[^\"\n]*\"")
TOKEN = re.compile(r"\s+|[A-Za-z_@%$][A-Za-z0-9_.]*|-?\d+(\.\d+)?([eE][-+]?\d+)?"
                   r"|\"[^\"\n]*\"|.")
# A TIR type (f32 8 4) or a kernel type f32[8, 4]: its dimensions.
TYPE_DIMS = re.compile(
    r"\((?:f16|f32|f64|i8|i16|i32|i64|u8|bool|index)((?: [^()\s]+)+)\)|"
    r"(?:f16|f32|f64|i8|i16|i32|i64|u8)\[([^\]]*)\]")
NUMBERS = ["0", "-1", "2147483648", "9223372036854775808",
           "18446744073709551616", "1e308", "1e-320", "nan", "inf", "-0.0"]


def _lines(text):
    return text.splitlines(keepends=True)


def mutations(text, rng, count):
    """Yields (description, mutated text): the empty file, truncations at
    line boundaries and at random bytes, then random edits."""
    yield "empty", ""
    lines = _lines(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    boundaries = offsets[1:-1]
    rng.shuffle(boundaries)
    budget = max(1, count // 4)
    for offset in sorted(boundaries[:budget]):
        yield "truncate at byte %d (a line end)" % offset, text[:offset]
    for _ in range(budget):
        if len(text) > 1:
            offset = rng.randrange(1, len(text))
            yield "truncate at byte %d" % offset, text[:offset]
    edits = [_delete_line, _duplicate_line, _swap_lines, _delete_token,
             _duplicate_token, _swap_tokens, _replace_number, _replace_number,
             _rename, _swap_dims]
    for _ in range(count):
        edit = rng.choice(edits)
        result = edit(text, rng)
        if result is not None and result[1] != text:
            yield result


def _delete_line(text, rng):
    lines = _lines(text)
    if not lines:
        return None
    i = rng.randrange(len(lines))
    return "delete line %d" % (i + 1), "".join(lines[:i] + lines[i + 1:])


def _duplicate_line(text, rng):
    lines = _lines(text)
    if not lines:
        return None
    i = rng.randrange(len(lines))
    return ("duplicate line %d" % (i + 1),
            "".join(lines[:i + 1] + [lines[i]] + lines[i + 1:]))


def _swap_lines(text, rng):
    lines = _lines(text)
    if len(lines) < 2:
        return None
    i, j = sorted(rng.sample(range(len(lines)), 2))
    lines[i], lines[j] = lines[j], lines[i]
    return "swap lines %d and %d" % (i + 1, j + 1), "".join(lines)


def _tokens(text):
    spans = [m.span() for m in TOKEN.finditer(text) if not m.group().isspace()]
    return spans


def _delete_token(text, rng):
    spans = _tokens(text)
    if not spans:
        return None
    a, b = rng.choice(spans)
    return "delete token %r at byte %d" % (text[a:b], a), text[:a] + text[b:]


def _duplicate_token(text, rng):
    spans = _tokens(text)
    if not spans:
        return None
    a, b = rng.choice(spans)
    return ("duplicate token %r at byte %d" % (text[a:b], a),
            text[:b] + " " + text[a:b] + text[b:])


def _swap_tokens(text, rng):
    spans = _tokens(text)
    if len(spans) < 2:
        return None
    i = rng.randrange(len(spans) - 1)
    (a, b), (c, d) = spans[i], spans[i + 1]
    return ("swap tokens %r and %r at byte %d" % (text[a:b], text[c:d], a),
            text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:])


def _outside_strings(text, matches):
    """The matches outside string literals: those hold C (instrs' templates)
    that the tools copy, so that an edit there is the C compiler's to
    reject, not the tool's."""
    strings = [m.span() for m in STRING.finditer(text)]
    return [m for m in matches
            if not any(a <= m.start() < b for a, b in strings)]


def _replace_number(text, rng):
    found = _outside_strings(text, NUMBER.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    new = rng.choice(NUMBERS)
    return ("replace %r at byte %d by %s" % (m.group(), m.start(), new),
            text[:m.start()] + new + text[m.end():])


def _rename(text, rng):
    found = _outside_strings(text, WORD.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    return ("rename %r at byte %d to an unbound name" % (m.group(), m.start()),
            text[:m.start()] + "zz_unbound" + text[m.end():])


def _swap_dims(text, rng):
    found = list(TYPE_DIMS.finditer(text))
    if not found:
        return None
    if len(found) >= 2 and rng.random() < 0.5:
        m, n = sorted(rng.sample(found, 2), key=lambda x: x.start())
        gm = 1 if m.group(1) else 2
        gn = 1 if n.group(1) else 2
        if gm != gn:
            return None
        (a, b), (c, d) = m.span(gm), n.span(gn)
        return ("swap the dimensions of the types at bytes %d and %d"
                % (m.start(), n.start()),
                text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:])
    m = rng.choice(found)
    g = 1 if m.group(1) else 2
    separator = " " if g == 1 else ","
    dims = [x for x in m.group(g).split(separator) if x.strip()]
    if len(dims) < 2:
        return None
    dims.reverse()
    new = (" " + " ".join(x.strip() for x in dims)) if g == 1 else \
        ", ".join(x.strip() for x in dims)
    a, b = m.span(g)
    return ("reverse the dimensions of the type at byte %d" % m.start(),
            text[:a] + new + text[b:])


# ------------------------------------------------------------------ sweep --

class Case:
    def __init__(self, line, base):
        self.line = line.strip()
        self.words = shlex.split(self.line)
        self.tool = self.words[0]
        self.base = base
        # Indices of words that are inputs: @PATH, <@PATH, --flag=@PATH.
        self.inputs = [i for i, w in enumerate(self.words)
                       if (w.startswith(("@", "<@")) and not
                           w.startswith("@@") or "=@" in w)
                       and os.path.isfile(self.input_path(i))]

    def input_path(self, i):
        word = self.words[i]
        return os.path.join(self.base, word[word.index("@") + 1:])

    def command(self, tools, scratch, replace=None):
        """The argv, stdin path and output path; `replace` is (I, PATH), the
        input word I replaced by the file PATH, or (I, WORD), the argument
        word I by WORD."""
        argv = [_tool(tools, self.tool)]
        stdin = None
        output = None
        for i, word in enumerate(self.words[1:], start=1):
            if replace and replace[0] == i and i not in self.inputs:
                argv.append(replace[1])
                continue
            prefix = ""
            if "=@" in word and i in self.inputs:
                prefix, word = word.split("=", 1)
                prefix += "="
            if word.startswith("@@"):
                word = word[1:]
            elif i in self.inputs and word.startswith(("@", "<@")):
                path = self.input_path(i)
                if replace and replace[0] == i:
                    path = replace[1]
                if word.startswith("<"):
                    stdin = path
                    continue
                word = path
            elif word == "%out":
                word = os.path.join(scratch, "out%d" % i)
                if self.words[i - 1] in ("-o", "--output"):
                    output = word
            elif word.startswith("dirs/"):
                word = os.path.join(self.base, word)
            argv.append(prefix + word)
        return argv, stdin, output


def _tool(tools, name):
    """The tool NAME in the folder TOOLS, or on PATH without one."""
    if tools:
        return os.path.join(tools, name)
    return shutil.which(name) or name


def run(argv, stdin, timeout, cwd):
    env = dict(os.environ, **SANITIZER_ENV)
    with open(stdin or os.devnull, "rb") as f:
        try:
            p = subprocess.run(argv, stdin=f, capture_output=True,
                               timeout=timeout, env=env, cwd=cwd)
        except subprocess.TimeoutExpired:
            return None, b"", b""
    return p.returncode, p.stdout, p.stderr


def _is_tir(data):
    for line in data.decode(errors="replace").splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith(";"):
            return stripped.startswith("(")
    return False


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
C_TOOLS = ("emit-c", "emit-cs1")


def reads_back(tools, tool, data, timeout):
    """Whether what TOOL wrote reads back: its TIR in parse, its C in the C
    compiler (as emit-c's and emit-cs1's users compile it)."""
    if tool in C_TOOLS:
        with tempfile.NamedTemporaryFile(suffix=".c") as f:
            f.write(data)
            f.flush()
            code, _, err = run(
                ["cc", "-std=c99", "-fsyntax-only", "-march=native",
                 "-I" + os.path.join(REPO, "targets", "cs1"), f.name],
                None, timeout, None)
        return code == 0, err.decode(errors="replace")
    if not _is_tir(data):
        return True, ""
    with tempfile.NamedTemporaryFile(suffix=".tir") as f:
        f.write(data)
        f.flush()
        code, _, err = run([_tool(tools, "parse"), f.name], None,
                           timeout, None)
    return code == 0, err.decode(errors="replace")


def judge(result, baseline_reads_back, tools, tool, timeout, output,
          located=True):
    """The problem with one run, or None. LOCATED: whether an input file
    was mutated, so that an error must say where in it."""
    code, out, err = result
    text = err.decode(errors="replace")
    if code is None:
        return "timeout"
    if SANITIZER.search(text):
        return "sanitizer"
    if code < 0:
        return "signal %d" % -code
    if code not in (0, 1, 2):
        return "exit %d" % code
    if code == 1 and not ANY_ERROR.search(text):
        return "exit 1 without error:"
    if code == 1 and located and not LOCATED_ERROR.search(text) and \
            not COMPARISON.search(text):
        return "error without location"
    if code == 0 and baseline_reads_back:
        data = out
        if output and os.path.exists(output):
            with open(output, "rb") as f:
                data = f.read()
        ok, why = reads_back(tools, tool, data, timeout)
        if not ok:
            return "output does not read back: " + why.strip().split("\n")[0]
    return None


def sweep(args):
    tools = args.tools and os.path.abspath(args.tools)
    case_list = os.path.abspath(args.cases)
    base = os.path.dirname(case_list)
    with open(case_list) as f:
        cases = [Case(line, base) for line in f
                 if line.strip() and not line.startswith("#")]
    # Large inputs (the out-of-memory tests') take seconds each run.
    cases = [c for c in cases if c.inputs and
             os.path.exists(_tool(tools, c.tool))
             and (not args.only or c.tool in args.only)
             and all(os.path.getsize(c.input_path(i)) <= args.max_input_bytes
                     for i in c.inputs)]
    rng = random.Random(args.seed)
    out_dir = os.path.abspath(args.out or
                              tempfile.mkdtemp(prefix="fuzz-inputs."))
    os.makedirs(out_dir, exist_ok=True)
    by_tool = {}
    for case in cases:
        by_tool.setdefault(case.tool, []).append(case)
    jobs = []
    for tool, tool_cases in sorted(by_tool.items()):
        rng.shuffle(tool_cases)
        chosen = tool_cases[:args.cases_per_tool]
        for case in chosen:
            jobs.append(case)
    counts = {}
    findings = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(_sweep_case, case, tools, args,
                               random.Random(rng.random()), out_dir)
                   for case in jobs]
        # OUT/progress.txt tells how far a long sweep has come.
        with open(os.path.join(out_dir, "progress.txt"), "a") as progress:
            for future in concurrent.futures.as_completed(futures):
                tool, ran, found = future.result()
                counts[tool] = counts.get(tool, 0) + ran
                findings.extend(found)
                progress.write("%s %d %d\n" % (tool, ran, len(found)))
                progress.flush()
    for tool in sorted(counts):
        print("%s: %d runs" % (tool, counts[tool]))
    kinds = {}
    for finding in findings:
        kinds.setdefault((finding["tool"], finding["kind"]), []).append(
            finding)
    for (tool, kind), group in sorted(kinds.items()):
        print("FINDING %s: %s (%d cases), e.g. %s" %
              (tool, kind, len(group), group[0]["dir"]))
    print("fuzz-inputs: %d runs, %d findings (in %s)" %
          (sum(counts.values()), len(findings), out_dir))
    return 1 if findings else 0


def _sweep_case(case, tools, args, rng, out_dir):
    findings = []
    ran = 0
    with tempfile.TemporaryDirectory() as scratch:
        argv, stdin, output = case.command(tools, scratch)
        baseline = run(argv, stdin, args.timeout, scratch)
        ran += 1
        baseline_ok = baseline[0] == 0
        if baseline_ok:
            data = baseline[1]
            if output and os.path.exists(output):
                with open(output, "rb") as f:
                    data = f.read()
            baseline_ok = reads_back(tools, case.tool, data, args.timeout)[0]
        # The golden tests' own errors without a location concern the
        # command line (--writable-args B): not the mutations' doing.
        problem = judge(baseline, False, tools, case.tool, args.timeout,
                        output)
        unlocated = problem == "error without location"
        if problem and not unlocated:
            findings.append(_record(out_dir, case, None, "unmutated", "",
                                    problem, baseline, argv, stdin))
        if problem == "timeout":
            # Too slow to sweep here (a sanitized build, a loaded machine):
            # reported once, not once per edit.
            return case.tool, ran, findings
        for index in case.inputs:
            with open(case.input_path(index), "rb") as f:
                text = f.read().decode(errors="replace")
            name = os.path.basename(case.input_path(index))
            main = index == case.inputs[0]
            count = args.mutations if main else max(4, args.mutations // 3)
            for description, mutated in mutations(text, rng, count):
                path = os.path.join(scratch, "m", name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(mutated)
                argv, stdin, output = case.command(tools, scratch,
                                                   (index, path))
                if output and os.path.exists(output):
                    os.remove(output)
                result = run(argv, stdin, args.timeout, scratch)
                ran += 1
                problem = judge(result, baseline_ok, tools, case.tool,
                                args.timeout, output, located=not unlocated)
                if problem:
                    findings.append(_record(out_dir, case, name, description,
                                            mutated, problem, result, argv,
                                            stdin))
        # Numbers of the command line (-D N=32, --seed 7) at the extremes.
        numeric = [i for i, w in enumerate(case.words) if i > 0 and
                   i not in case.inputs and NUMBER.search(w) and
                   not w.startswith(("@", "<@", "dirs/"))]
        for index in numeric:
            word = case.words[index]
            for new in rng.sample(NUMBERS, 3):
                m = NUMBER.search(word)
                edited = word[:m.start()] + new + word[m.end():]
                argv, stdin, output = case.command(tools, scratch,
                                                   (index, edited))
                result = run(argv, stdin, args.timeout, scratch)
                ran += 1
                problem = judge(result, baseline_ok, tools, case.tool,
                                args.timeout, output, located=False)
                if problem:
                    findings.append(_record(
                        out_dir, case, None, "argument %r as %r" %
                        (word, edited), "", problem, result, argv, stdin))
    return case.tool, ran, findings


def _record(out_dir, case, name, description, mutated, problem, result, argv,
            stdin):
    key = hashlib.sha1((case.line + description + problem).encode())
    folder = os.path.join(out_dir, case.tool + "-" + key.hexdigest()[:10])
    os.makedirs(folder, exist_ok=True)
    if name is not None:
        with open(os.path.join(folder, name), "w") as f:
            f.write(mutated)
    with open(os.path.join(folder, "README"), "w") as f:
        f.write("case: %s\nmutation of %s: %s\nproblem: %s\nexit: %s\n"
                "command: %s%s\n" % (case.line, name, description, problem,
                                     result[0], shlex.join(argv),
                                     " < " + stdin if stdin else ""))
    with open(os.path.join(folder, "stderr"), "wb") as f:
        f.write(result[2])
    return {"tool": case.tool, "kind": re.sub(r":.*", "", problem),
            "dir": folder}


def main():
    if len(sys.argv) > 3 and sys.argv[1] == "shim":
        shim_main(sys.argv[2], sys.argv[3], sys.argv[4:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    cap = commands.add_parser("capture", help="record the golden tests' "
                              "tool calls as a case list")
    cap.add_argument("tools", help="folder of the tool binaries")
    cap.add_argument("corpus", help="folder for cases.txt and the inputs")
    cap.add_argument("folders", nargs="+", help="testdata folders to run")
    cap.add_argument("--repo", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    cap.add_argument("--filter-out", default="",
                     help="regex of tests not to run")
    swp = commands.add_parser("sweep", help="run the cases on mutations")
    swp.add_argument("cases", help="the case list")
    swp.add_argument("--tools", help="folder of the tool binaries "
                     "(default: PATH)")
    swp.add_argument("--out", help="folder for the findings' repros "
                     "(default: a new temporary one)")
    swp.add_argument("--seed", type=int, default=1)
    swp.add_argument("--mutations", type=int, default=40,
                     help="random edits of each case's main input")
    swp.add_argument("--cases-per-tool", type=int, default=1000000)
    swp.add_argument("--only", nargs="*", help="tools to sweep")
    swp.add_argument("--jobs", type=int, default=2)
    swp.add_argument("--max-input-bytes", type=int, default=100000)
    swp.add_argument("--timeout", type=float, default=10)
    args = parser.parse_args()
    sys.exit(capture(args) if args.command == "capture" else sweep(args))


if __name__ == "__main__":
    main()
