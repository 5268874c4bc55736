#include "libs/primitives/extract_subproc.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::StmtAt;

// extract_subproc of the statement at `path` of the proc of `text`, run
// with n = 5 and n = 8.
std::string Extracted(const std::string& text, const std::vector<size_t>& path,
                      const std::string& name = "sub") {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Cursor stmt = StmtAt(module, proc, path);
        return ExtractSubproc(module, stmt.as_block(), name).status();
      },
      {{{"n", 8}}, {{"n", 4}}}));
}

constexpr char kText[] =
    R"((proc @foo ((size n) (in x (f32 n)) (out y (f32 n)))
  (assert (== (% n 4) 0))
  (alloc t (f32 n))
  (for i 0 n (assign (t i) (* (x i) 2.0)))
  (for i 0 n (assign (y i) (+ (t i) 1.0))))
)";

// Exo's test_extract_subproc: the block's sizes, buffers (in order of
// first use) and assertions.
TEST(ExtractSubproc, MakesAProcOfTheBlock) {
  EXPECT_EQ(Extracted(kText, {1}),
            R"((proc @foo ((size n) (in x (f32 n)) (out y (f32 n)))
  (assert (== (% n 4) 0))
  (alloc t (f32 n))
  (call @sub n t x)
  (for i 0 n (assign (y i) (+ (t i) 1.0))))

(proc @sub ((size n) (inout t (f32 n)) (in x (f32 n)))
  (assert (== (% n 4) 0))
  (for i 0 n (assign (t i) (* (x i) 2.0))))
)");
}

// A loop variable around the block becomes an index parameter.
TEST(ExtractSubproc, PassesTheLoopVariable) {
  EXPECT_EQ(Extracted("(proc @foo ((size n) (in x (f32 n)) (out y (f32 n)))\n"
                      "  (for i 0 n (assign (y i) (x i))))\n",
                      {0, 0}),
            R"((proc @foo ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n (call @sub n i y x)))

(proc @sub ((size n) (index i) (inout y (f32 n)) (in x (f32 n)))
  (assert (<= 0 i))
  (assert (< i n))
  (assign (y i) (x i)))
)");
}

// The conditions of the ifs around the block are assertions too, so that
// x[i + 3] is in bounds in the new proc on its own.
TEST(ExtractSubproc, AssertsTheConditionsAroundIt) {
  EXPECT_EQ(
      Extracted("(proc @foo ((size n) (in x (f32 (+ n 3))) (out y (f32 n)))\n"
                "  (for i 0 n (if (< i 2) (then (assign (y i) (x (+ i 3)))) "
                "(else (assign (y i) 0.0)))))\n",
                {0, 0, 0}),
      R"((proc @foo ((size n) (in x (f32 (+ n 3))) (out y (f32 n)))
  (for i 0 n (if (< i 2) (then (call @sub n i y x)) (else (assign (y i) 0.0)))))

(proc @sub ((size n) (index i) (inout y (f32 n)) (in x (f32 (+ n 3))))
  (assert (< i 2))
  (assert (<= 0 i))
  (assert (< i n))
  (assign (y i) (x (+ i 3))))
)");
}

TEST(ExtractSubproc, RejectsANameInUse) {
  EXPECT_EQ(Extracted(kText, {1}, "foo"),
            "extract_subproc: @foo already exists");
}

// A configuration and a proc that clobbers it, before the proc rewritten.
constexpr char kSetter[] = R"((config @Cfg (scale f32))

(proc @set ((in v (f32 4)) (index i))
  (clobbers @Cfg scale)
  (assert (<= 0 i))
  (assert (< i 4))
  (write-config @Cfg scale (v i)))

)";

// A buffer the block passes to a callee's `in` parameter is only read: it
// stays `in` (an `inout` would not take the caller's `in` parameter).
TEST(ExtractSubproc, PassesABufferACalleeReadsAsIn) {
  EXPECT_EQ(Outcome(testing::Rewrite(
                std::string(kSetter) +
                    R"((proc @p ((in x (f32 4)) (out y (f32 4)))
  (clobbers @Cfg scale)
  (for i 0 4
    (call @set x i)
    (write-config @Cfg scale (* 2.0 (x i)))
    (assign (y i) (* (read-config @Cfg scale) (x i)))))
)",
                [&](ir::Module& module, ir::Node& proc) {
                  ir::BlockCursor block(StmtAt(module, proc, {0, 0}),
                                        StmtAt(module, proc, {0, 1}));
                  return ExtractSubproc(module, block, "setup").status();
                })),
            std::string(kSetter) + R"((proc @p ((in x (f32 4)) (out y (f32 4)))
  (clobbers @Cfg scale)
  (for i 0 4
    (call @setup i x)
    (assign (y i) (* (read-config @Cfg scale) (x i)))))

(proc @setup ((index i) (in x (f32 4)))
  (assert (<= 0 i))
  (assert (< i 4))
  (call @set x i)
  (write-config @Cfg scale (* 2.0 (x i))))
)");
}

// A window of the caller's `in` parameter named in the block makes it
// `inout` of the new proc, which the call cannot pass: a rejection, and the
// module as it was (the new proc removed with the call).
TEST(ExtractSubproc, RejectsACallThatDoesNotVerifyInTheBlocksPlace) {
  EXPECT_EQ(Extracted(R"((proc @foo ((size n) (in x (f32 8)) (out y (f32 4)))
  (for i 0 4
    (let w (window x (: i (+ i 4))))
    (assign (y i) (w 0))))
)",
                      {0}),
            "extract_subproc: the call does not verify in the block's place: "
            "error: argument 'x' of '@sub' is written by '@sub', but it comes "
            "from the in parameter 'x'");
}

}  // namespace
}  // namespace tessel::primitives
