// Randomized soundness test of scheduling (issue 21, part 8): random
// directives on random small procedures, and whatever the primitives
// accept must compute what the procedure computed before (run-sim on
// seeded inputs). The programs read and write one array in place with
// shifted indices, so that many rewrites are unsound and must be
// rejected: a primitive that accepts one of them fails here. A parallel
// loop must also compute the same with its iterations in reverse order.
#include <cstdint>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/node.h"
#include "libs/ir/views.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"
#include "libs/schedule/apply.h"
#include "libs/schedule/reader.h"

namespace tessel::schedule {
namespace {

using primitives::testing::Print;
using primitives::testing::ProcNamed;
using primitives::testing::ReadVerified;
using primitives::testing::SameValues;

class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}
  // Uniform in [lo, hi].
  int Int(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(engine_);
  }
  bool Chance(int percent) { return Int(1, 100) <= percent; }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Int(0, static_cast<int>(items.size()) - 1)];
  }

 private:
  std::mt19937_64 engine_;
};

// `var` plus `offset`, as TIR.
std::string Shifted(const std::string& var, int offset) {
  return offset == 0 ? var : absl::StrCat("(+ ", var, " ", offset, ")");
}

// An element of a 10x10 array at loop variables shifted by 0 or 1: in
// bounds for trip counts up to 9.
std::string Element(Random& random, const std::string& array,
                    const std::string& row, const std::string& col) {
  return absl::StrCat("(", array, " ", Shifted(row, random.Int(0, 1)), " ",
                      Shifted(col, random.Int(0, 1)), ")");
}

// A statement of the nest over `row` and `col`: an in-place update of A
// (reading A itself at shifted places, or X), or a reduction into B.
std::string Statement(Random& random, const std::string& row,
                      const std::string& col) {
  std::string source = random.Chance(60) ? "A" : "X";
  std::string read = Element(random, source, row, col);
  switch (random.Int(0, 2)) {
    case 0:
      return absl::StrCat("(assign ", Element(random, "A", row, col), " (+ ",
                          read, " 1.0))");
    case 1:
      return absl::StrCat("(reduce (B ", Shifted(row, random.Int(0, 1)),
                          ") (* ", read, " ", Element(random, "X", row, col),
                          "))");
    default:
      return absl::StrCat("(assign ", Element(random, "A", row, col), " (* ",
                          read, " 0.5))");
  }
}

// A nest of two loops over `row` and `col` with one to three statements.
std::string Nest(Random& random, const std::string& row,
                 const std::string& col) {
  std::vector<std::string> body;
  for (int i = random.Int(1, 3); i > 0; --i) {
    body.push_back(Statement(random, row, col));
  }
  return absl::StrCat("(for ", row, " 0 ", random.Int(1, 8), " (for ", col, " ",
                      random.Int(0, 1), " ", random.Int(2, 8), " ",
                      absl::StrJoin(body, " "), "))");
}

std::string Program(Random& random) {
  std::string nests = Nest(random, "i", "j");
  if (random.Chance(40)) nests += " " + Nest(random, "k", "l");
  return absl::StrCat(
      "(proc @p ((inout A (f32 10 10)) (in X (f32 10 10)) "
      "(inout B (f32 10)))\n  ",
      nests, ")\n");
}

// `module` with the iterations of each parallel loop in reverse order
// (`i` becomes `lo + hi - 1 - i`): a parallel loop may not compute
// anything else for it, so a schedule that parallelizes a loop whose
// iterations depend on each other computes otherwise here.
ir::Module Reversed(const ir::Module& module) {
  ir::Module reversed = ReadVerified(Print(module));
  std::vector<ir::Node*> loops;
  for (ir::Node* form : reversed.forms()) {
    ir::Walk(*form, [&](ir::Node& node) {
      if (node.is(ir::Op::kFor) && node.is_parallel()) loops.push_back(&node);
    });
  }
  for (ir::Node* loop : loops) {
    ir::ForView view(*loop);
    ir::Node* last = ir::Build::Sub(
        reversed,
        ir::Build::Add(reversed, reversed.Clone(view.lo()),
                       reversed.Clone(view.hi())),
        ir::Build::Int(reversed, 1));
    ir::Node* mirrored =
        ir::Build::Sub(reversed, last, ir::Build::Ref(reversed, *loop));
    std::vector<ir::Node*> body(view.body().begin(), view.body().end());
    for (ir::Node* stmt : body) ir::Substitute(reversed, stmt, loop, *mirrored);
  }
  return reversed;
}

std::string Directive(Random& random) {
  const std::vector<std::string> loops = {"i", "j", "k", "l"};
  const std::string& loop = random.Pick(loops);
  const std::string pattern = absl::StrCat("\"for ", loop, " in _\"");
  switch (random.Int(0, 20)) {
    case 0:
    case 1:
      return absl::StrCat("divide_loop(", pattern, ", ", random.Int(2, 4),
                          ", [\"", loop, "o\", \"", loop, "i\"], tail=\"",
                          random.Pick(std::vector<std::string>{
                              "guard", "cut", "cut_and_guard"}),
                          "\", perfect=", random.Chance(20) ? "True" : "False",
                          ")");
    case 2:
    case 3:
      return random.Chance(50) ? "reorder_loops(\"i j\")"
                               : "reorder_loops(\"k l\")";
    case 4:
      return absl::StrCat(
          "fission(after(\"",
          random.Pick(std::vector<std::string>{"A[_] = _", "B[_] += _"}),
          "\"), n_lifts=", random.Int(1, 2), ")");
    case 5:
      return absl::StrCat("unroll_loop(", pattern, ")");
    case 6:
      return absl::StrCat("cut_loop(", pattern, ", ", random.Int(0, 4), ")");
    case 7:
      return absl::StrCat("shift_loop(", pattern, ", ", random.Int(0, 3), ")");
    case 8:
      return absl::StrCat("remove_loop(", pattern, ")");
    case 9:
      return "fuse(\"for i in _\", \"for k in _\")";
    case 10:
      return "reorder_stmts(\"A[_] = _ ; B[_] += _\")";
    case 11:
      return absl::StrCat("bind_expr(\"",
                          random.Pick(std::vector<std::string>{
                              "A[_]", "X[_]", "A[_] + 1.0", "A[_] * 0.5"}),
                          "\", \"v", random.Int(0, 9),
                          "\", cse=", random.Chance(50) ? "True" : "False",
                          ")");
    case 12:
      // Two loops to join, but for the cut point's bounds (a schedule of
      // two directives, counted as its last).
      return absl::StrCat("cut_loop(", pattern, ", ", random.Int(0, 4),
                          ")\njoin_loops(", pattern, ", \"for ", loop,
                          " in _ #1\")");
    case 13:
      return absl::StrCat(random.Pick(std::vector<std::string>{
                              "split_write", "fold_into_reduce"}),
                          "(\"A[_] = _\")");
    case 14:
      return absl::StrCat(
          "merge_writes(\"",
          random.Pick(std::vector<std::string>{"A[_] = _ ; A[_] = _",
                                               "B[_] += _ ; A[_] = _",
                                               "B[_] += _ ; B[_] += _"}),
          "\")");
    case 15:
      return random.Chance(50) ? "mult_loops(\"i j\", \"m\")"
                               : "mult_loops(\"k l\", \"m\")";
    case 16:
      return absl::StrCat("commute_expr(\"",
                          random.Pick(std::vector<std::string>{
                              "A[_] + 1.0", "A[_] * 0.5", "_ * X[_]"}),
                          "\")");
    case 17:
      return "inline_assign(\"v0 = _\")";
    case 18:
      return absl::StrCat("parallelize_loop(", pattern, ")");
    case 19:
      // A scalar that bind_expr makes, lifted out of its loops (a schedule
      // of two directives, counted as its last).
      return absl::StrCat("bind_expr(\"A[_]\", \"t\")\n",
                          "autolift_alloc(\"t : _\", n_lifts=",
                          random.Int(1, 2), ", mode=\"",
                          random.Chance(50) ? "row" : "col",
                          "\", keep_dims=",
                          random.Chance(70) ? "True" : "False", ")");
    default:
      return "simplify()";
  }
}

TEST(RandomScheduleTest, AcceptedSchedulesComputeTheSame) {
  const primitives::Registry& registry = primitives::Registry::Builtin();
  int accepted = 0;
  int rejected = 0;
  std::map<std::string, int> accepted_by_primitive;
  for (uint64_t seed = 1; seed <= 500; ++seed) {
    Random random(seed);
    std::string program = Program(random);
    ir::Module module = ReadVerified(program);
    const ir::Node* proc = &ProcNamed(module, "@p");
    std::vector<std::string> applied;
    for (int n = random.Int(1, 4); n > 0; --n) {
      std::string directive = Directive(random);
      absl::StatusOr<Schedule> schedule = ReadSchedule(directive, "r.sched");
      ASSERT_TRUE(schedule.ok()) << directive << ": " << schedule.status();
      std::string before = Print(module);
      absl::Status status =
          ApplySchedule(module, *module.Current(proc), *schedule, registry);
      if (!status.ok()) {
        ++rejected;
        ASSERT_EQ(Print(module), before)
            << "a rejected " << directive << " changed the module";
        continue;
      }
      ++accepted;
      std::string last = directive.substr(directive.rfind('\n') + 1);
      ++accepted_by_primitive[last.substr(0, last.find('('))];
      applied.push_back(directive);
      absl::Status same = SameValues(program, module);
      if (same.ok()) same = SameValues(program, Reversed(module));
      ASSERT_TRUE(same.ok())
          << "seed " << seed << ": the schedule\n  "
          << absl::StrJoin(applied, "\n  ") << "\nchanged what\n"
          << program << "computes:\n"
          << same << "\nscheduled:\n"
          << Print(module);
    }
  }
  // Both kinds must be common, or the test checks little.
  EXPECT_GE(accepted, 250);
  EXPECT_GE(rejected, 250);
  std::printf("accepted %d, rejected %d directives\n", accepted, rejected);
  for (const auto& [name, count] : accepted_by_primitive) {
    std::printf("  %s: %d accepted\n", name.c_str(), count);
  }
}

}  // namespace
}  // namespace tessel::schedule
