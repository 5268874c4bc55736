# lit configuration for Tessel's golden tests (see testdata/README.md).
import os
import shutil
import subprocess

import lit.formats

config.name = "Tessel"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".tir", ".tk", ".test"]
# Inputs/ folders hold files that tests read but that are not tests.
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
# Bazel's runfiles are read-only: outputs (%t) go to the test's scratch space.
config.test_exec_root = os.environ.get("TEST_TMPDIR", "/tmp/tessel-lit")

# The tools under test come first on PATH, then FileCheck and not.
config.environment["PATH"] = os.pathsep.join(
    [os.environ["TESSEL_TOOL_DIR"], "/usr/lib/llvm-14/bin", "/usr/bin", "/bin"])
config.substitutions.append(("%kernels", os.path.join(config.test_source_root, "kernels")))
config.substitutions.append(("%scripts", os.path.join(os.path.dirname(config.test_source_root), "scripts")))
config.substitutions.append(("%targets", os.environ.get("TESSEL_TARGETS_DIR", "")))

# Tests that run AVX2 or AVX-512 code (targets/x86) need a core that has
# it (and FMA).
with open("/proc/cpuinfo") as cpuinfo:
    flags = cpuinfo.read()
    for feature in ["avx2", "avx512f"]:
        if " " + feature in flags and " fma" in flags:
            config.available_features.add(feature)

# Tests that compile C with Clang as well as with cc need it on PATH.
if shutil.which("clang", path=config.environment["PATH"]):
    config.available_features.add("clang")

# Tools built with AddressSanitizer (bazel test --config=asan) link its
# runtime; tests that limit virtual memory do not apply to them.
for tool in os.listdir(os.environ["TESSEL_TOOL_DIR"]):
    libraries = subprocess.run(
        ["ldd", os.path.join(os.environ["TESSEL_TOOL_DIR"], tool)],
        capture_output=True, text=True).stdout
    if "libasan" in libraries:
        config.available_features.add("asan")
