"""A golden-test suite: lit with FileCheck over one folder of testdata/."""

def lit_test(name, folder, tools, data = [], shard_count = None, size = "small"):
    """Runs every test under testdata/FOLDER with TOOLS on PATH.

    Args:
      name: the test target.
      folder: the folder under testdata/ holding the tests.
      tools: tool binaries the RUN lines call by name.
      data: further files the tests read (shared kernels, targets).
      shard_count: the number of shards that share the tests (Bazel runs
        them in parallel, each with the size's time limit).
      size: the test size, which sets the time limit of each shard.
    """
    native.sh_test(
        name = name,
        size = size,
        shard_count = shard_count,
        srcs = ["run_lit.sh"],
        args = [folder] + ["$(location %s)" % tool for tool in tools],
        data = tools + data + native.glob([folder + "/**"]) + [
            "lit.cfg.py",
            "//testdata/kernels",
        ],
    )
