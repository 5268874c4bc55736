"""A scheduling primitive: its library and its test."""

def primitive(name, deps = [], test_deps = []):
    """A primitive NAME: NAME.h/.cc and its test NAME_test.cc.

    Args:
      name: the primitive's file name (Exo's name: "divide_loop").
      deps: what the library needs besides the primitive interface, the IR
        and Abseil.
      test_deps: what the test needs besides the library, the primitives'
        test helpers, the IR and its verifier, Abseil and GoogleTest.
    """
    native.cc_library(
        name = name,
        srcs = [name + ".cc"],
        hdrs = [name + ".h"],
        deps = depset([
            ":primitive",
            "//libs/ir",
            "//third_party/system:absl",
        ] + deps).to_list(),
    )
    native.cc_test(
        name = name + "_test",
        size = "small",
        srcs = [name + "_test.cc"],
        deps = depset([
            ":" + name,
            ":testing",
            "//libs/ir",
            "//libs/verify",
            "//third_party/system:absl",
            "//third_party/system:gtest_main",
        ] + test_deps).to_list(),
    )
