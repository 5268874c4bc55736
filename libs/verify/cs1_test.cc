// The CS-1 level: reading, typing and every static check, with located
// diagnostics. Modules are written before the target library
// (targets/cs1/cs1.tir), which is appended, so that positions are theirs.
#include <string>

#include "gtest/gtest.h"
#include "libs/verify/first_error.h"
#include "libs/verify/verifier.h"
#include "targets/cs1/testing.h"

namespace tessel::ir {
namespace {

std::string Error(const std::string& module) {
  return FirstError(module + "\n" + cs1::LibraryText());
}

// `text` with the first occurrence of `from` replaced by `to`.
std::string Replace(std::string text, const std::string& from,
                    const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The 1-d convolution of LAIR's listing 3, edited: `from` replaced by `to`.
std::string Conv1d(const std::string& from = "", const std::string& to = "") {
  std::string text =
      "(pe-program @conv1d ((in x (f32 16)) (in W (f32 2 3)) "
      "(out y (f32 2 14)))\n"
      "  (grid (px 1) (py 2))\n"
      "  (local W_local (f32 1 3) @PE (holds W py 0))\n"
      "  (local y_local (f32 1 18) @PE (holds y py -2))\n"
      "  (task (call @fzeros 18 1 1 1 (dsd y_local 0 (18 1))))\n"
      "  (task (recv x (i) v)\n"
      "    (call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1))\n"
      "      (dsd W_local 0 (3 1)) v)))\n";
  return from.empty() ? text : Replace(text, from, to);
}

TEST(Cs1Test, AcceptsTheConvolution) { EXPECT_EQ(Error(Conv1d()), "ok"); }

TEST(Cs1Test, TypesTheLevel) {
  auto module = ReadText(MakeSource("m.tir", Conv1d() + cs1::LibraryText()));
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(VerifyModule(*module).ok());
  Node* program = module->Find("@conv1d");
  ASSERT_NE(program, nullptr);
  Node* task = program->operand(program->num_operands() - 1);
  Node* recv = task->operand(0);
  Node* call = task->operand(1);
  ASSERT_TRUE(recv->is(Op::kRecv));
  EXPECT_EQ(TypeText(recv->operand(0)->type()), "(f32 16)");  // x
  Node* dst = call->operand(4);
  ASSERT_TRUE(dst->is(Op::kDescriptor));
  // A descriptor has every dimension of the SIMD engine's loop nest.
  EXPECT_EQ(TypeText(dst->type()), "(window f32 3 1 1 1)");
  EXPECT_EQ(TypeText(dst->operand(0)->type()), "(f32 1 18)");
  Node* base = dst->operand(1);  // (+ i 2)
  EXPECT_EQ(TypeText(base->type()), "index");
  EXPECT_EQ(TypeText(base->operand(0)->type()), "index");
  EXPECT_EQ(TypeText(call->operand(6)->type()), "f32");  // the value v
}

TEST(Cs1Test, ReadsItsForms) {
  EXPECT_EQ(Error("(pe-program @p ((in x f32)))"),
            "1:1: error: expected (pe-program @NAME (PARAM...) (grid (X NX) "
            "(Y NY)) (local ...)... (task ...)...)");
  EXPECT_EQ(Error(Conv1d("(grid (px 1) (py 2))", "(grid (px 1))")),
            "2:3: error: expected (grid (X NX) (Y NY)): two PE coordinates "
            "with their extents");
  EXPECT_EQ(Error(Conv1d("(py 2)", "(py y)")),
            "2:16: error: expected a PE coordinate (NAME EXTENT), found "
            "'(py y)'");
  EXPECT_EQ(Error(Conv1d("(local W_local", "(alloc W_local")),
            "3:3: error: expected (local ...), (task ...) or (sparse INPUT) "
            "in a pe-program, found '(alloc W_local (f32 1 3) @PE (holds W "
            "py 0))'");
  EXPECT_EQ(Error(Conv1d("@PE (holds W py 0)", "(holds W py 0) @PE")),
            "3:43: error: expected [@MEM] [(holds GLOBAL OFFSET...) [(partial "
            "OP)]] after the type of 'W_local', found '@PE'");
  EXPECT_EQ(Error(Conv1d("(task (recv x (i) v)", "(task (recv x (i) v) v")),
            "6:3: error: expected (task [(recv GLOBAL (I...) V [COND])] (call "
            "@PROC ARG...))");
  EXPECT_EQ(Error(Conv1d("(recv x (i) v)", "(recv x i v)")),
            "6:9: error: expected (recv GLOBAL (I...) V [COND])");
  EXPECT_EQ(Error(Conv1d("(3 -1)", "(3)")),
            "7:47: error: expected a dimension (EXTENT STRIDE) of integer "
            "literals, found '(3)'");
  EXPECT_EQ(Error(Conv1d("(dsd W_local 0", "(dsd (W_local) 0")),
            "8:12: error: expected the name of the tensor a dsd describes, "
            "found '(W_local)'");
  EXPECT_EQ(Error(Conv1d("@PE (holds W", "@Nowhere (holds W")),
            "3:28: error: unknown memory '@Nowhere'");
}

TEST(Cs1Test, ChecksTheParameters) {
  EXPECT_EQ(Error(Conv1d("(in x (f32 16))", "(size n) (in x (f32 16))")),
            "1:22: error: a pe-program is fully specialised: its parameters "
            "are data, and 'n' is a size");
  EXPECT_EQ(Error(Conv1d("(in x (f32 16))", "(in x (window f32 16))")),
            "1:28: error: a parameter of a pe-program is a tensor or a "
            "scalar, and 'x' is (window f32 16)");
  EXPECT_EQ(Error(Conv1d("(in x (f32 16))", "(in x (f32 16) @PE)")),
            "1:37: error: the data of a pe-program's parameters lives outside "
            "the grid, in @DRAM, not in @PE");
}

TEST(Cs1Test, ChecksTheGridAndTheLocalArrays) {
  EXPECT_EQ(Error(Conv1d("(py 2)", "(py 0)")),
            "2:20: error: the extent of a grid is positive, found 0");
  EXPECT_EQ(Error(Conv1d("(local W_local",
                         "(local px (f32 1) @PE)\n"
                         "  (local W_local")),
            "3:10: error: 'px' is already bound (names may not be shadowed)");
  EXPECT_EQ(Error(Conv1d("(f32 1 3) @PE", "(vector f32 3) @PE")),
            "3:18: error: a local array is a tensor or a scalar, and "
            "'W_local' is (vector f32 3)");
  EXPECT_EQ(Error(Conv1d("(f32 1 3) @PE", "(f32 1 (+ 1 2)) @PE")),
            "3:18: error: the memory of a PE is laid out before the program "
            "runs: the dimensions of 'W_local' must be literals");
  EXPECT_EQ(Error(Conv1d("(holds W py 0)", "(holds v py 0)")),
            "3:39: error: unbound name 'v'");
  EXPECT_EQ(Error(Conv1d("(holds y py -2)", "(holds W_local py -2)")),
            "4:40: error: a local array holds part of a parameter of the "
            "pe-program, and 'W_local' is not one");
  EXPECT_EQ(Error(Conv1d("(holds W py 0)", "(holds W py)")),
            "3:32: error: 'W' has rank 2, but 1 offset is given");
  EXPECT_EQ(Error(Conv1d("(f32 1 3) @PE", "(f64 1 3) @PE")),
            "3:18: error: 'W_local' is (f64 1 3) and holds part of 'W', "
            "(f32 2 3): a local array has the element type and the rank of "
            "what it holds");
  EXPECT_EQ(Error(Conv1d("(holds W py 0)", "(holds W (* py py) 0)")),
            "3:41: error: control expressions are quasi-affine: '*' needs an "
            "integer literal on one side");
  EXPECT_EQ(Error(Conv1d("(holds W py 0)", "(holds W py x)")),
            "3:44: error: 'x' is data, but control expressions cannot depend "
            "on data");
}

TEST(Cs1Test, ChecksWhatComesBack) {
  // Every element of y from exactly one PE.
  EXPECT_EQ(Error(Conv1d("(holds y py -2)", "(holds y 0 -2)")),
            "4:33: error: 'y_local' of PE (0, 0) and of PE (0, 1) both hold "
            "y[0, 0]: an element of an output comes back from one PE");
  EXPECT_EQ(Error(Conv1d("(holds y py -2)", "(holds y py 5)")),
            "4:33: error: no PE holds y[0, 0]: every element of an output "
            "comes back from the local array of one PE");
  EXPECT_EQ(Error(Conv1d("@PE (holds y py -2)", "@PE")),
            "1:55: error: 'y' is written, but no local array holds it: a "
            "pe-program writes its outputs back from the local arrays that "
            "hold them");
  EXPECT_EQ(Error(Conv1d("(local y_local (f32 1 18) @PE (holds y py -2))",
                         "(local y_local (f32 1 18) @PE (holds y py -2))\n"
                         "  (local y2 (f32 1 18) @PE (holds y py -2))")),
            "5:28: error: 'y' is held by 'y_local' and by 'y2': what a "
            "pe-program writes comes back from one local array");
}

TEST(Cs1Test, PartialResultsComeBackFromEveryPeThatHoldsThem) {
  // With (partial add), both PEs may hold all of y: their values are added.
  EXPECT_EQ(Error(Conv1d("(local y_local (f32 1 18) @PE (holds y py -2))",
                         "(local y_local (f32 2 18) @PE (holds y 0 -2) "
                         "(partial add))")),
            "ok");
  EXPECT_EQ(Error(Conv1d("(holds y py -2)", "(holds y py -2) (partial mul)")),
            "4:49: error: partial results are combined by add, not 'mul'");
  EXPECT_EQ(Error(Conv1d("(holds W py 0)", "(holds W py 0) (partial add)")),
            "3:47: error: 'W' is not an out parameter: only an output is made "
            "of partial results");
  EXPECT_EQ(Error(Conv1d("(holds y py -2)", "(partial add)")),
            "4:33: error: expected [@MEM] [(holds GLOBAL OFFSET...) [(partial "
            "OP)]] after the type of 'y_local', found '(partial add)'");
  EXPECT_EQ(Error(Conv1d("(holds y py -2)", "(holds y py -2) (sum)")),
            "4:49: error: expected [@MEM] [(holds GLOBAL OFFSET...) [(partial "
            "OP)]] after the type of 'y_local', found '(sum)'");
  // Still, every element from some PE.
  EXPECT_EQ(Error(Conv1d("(holds y py -2)", "(holds y py 5) (partial add)")),
            "4:33: error: no PE holds y[0, 0]: every element of an output "
            "comes back from the local array of one PE");
}

TEST(Cs1Test, ChecksTheTasks) {
  EXPECT_EQ(Error(Conv1d("(recv x (i) v)", "(recv y (i j) v)")),
            "6:15: error: 'y' is an out parameter: only the inputs of a "
            "pe-program arrive at its grid");
  EXPECT_EQ(Error(Conv1d("(recv x (i) v)", "(recv x (i j) v)")),
            "6:17: error: 'x' has rank 1, but the recv names 2 indices");
  EXPECT_EQ(Error(Conv1d("(recv x (i) v)", "(recv x (i) v (< i 0))")),
            "6:9: error: no element of 'x' arrives at any PE: the task never "
            "runs");
  EXPECT_EQ(Error(Conv1d("(recv x (i) v)", "(recv x (i) v (< v 0))")),
            "6:26: error: 'v' is data, but control expressions cannot depend "
            "on data");
  EXPECT_EQ(Error(Conv1d("(recv x (i) v)", "(recv x (py) v)")),
            "7:42: error: unbound name 'i'");
  EXPECT_EQ(Error(Conv1d("(dsd W_local 0 (3 1)) v", "(dsd W_local 0 (3 1)) x")),
            "8:29: error: 'x' is a parameter of the pe-program: a task "
            "reaches its data only through the local arrays that hold it and "
            "the elements it receives");
  // A task is a call: checked as calls are.
  EXPECT_EQ(Error(Conv1d("(call @fmacs 3 1", "(call @fmacs 2 1")),
            "7:26: error: dimension 0 of argument 'dst' of '@fmacs' is 3, but "
            "'@fmacs' expects n0 = 2 (at px = 0, py = 0, i = 0)");
  EXPECT_EQ(Error(Conv1d("@fmacs", "@fmovs")),
            "7:5: error: '@fmovs' takes 6 arguments, found 7");
  EXPECT_EQ(Error(Conv1d("(dsd W_local 0 (3 1))", "(dsd y_local 0 (3 1))")),
            "8:7: error: arguments 'dst' and 'a' of '@fmacs' overlap: (dsd "
            "y_local (+ i 2) (3 -1)) and (dsd y_local 0 (3 1)) share "
            "elements, and '@fmacs' writes 'dst'; distinct data parameters "
            "must not alias (at px = 0, py = 0, i = 0)");
}

TEST(Cs1Test, ChecksTheSparseInputs) {
  const std::string grid = "(grid (px 1) (py 2))";
  EXPECT_EQ(Error(Conv1d(grid, grid + " (sparse x)")), "ok");
  EXPECT_EQ(Error(Conv1d(grid, grid + " (sparse y)")),
            "2:32: error: (sparse y) names an input of the pe-program: 'y' "
            "is not one");
  EXPECT_EQ(Error(Conv1d(grid, grid + " (sparse x) (sparse x)")),
            "2:35: error: 'x' is declared sparse twice");
  EXPECT_EQ(Error(Conv1d(grid, grid + " (sparse x x)")),
            "2:24: error: expected (local ...), (task ...) or (sparse INPUT) "
            "in a pe-program, found '(sparse x x)'");
}

TEST(Cs1Test, TasksEstablishTheAssertionsOfWhatTheyCall) {
  const std::string task =
      "(proc @acc ((index j) (in v f32) (inout y_local (f32 1 18) @PE)\n"
      "            (in W_local (f32 1 3) @PE))\n"
      "  (assert (and (<= 0 j) (< j 14)))\n"
      "  (call @fmacs 3 1 1 1 (dsd y_local (+ j 2) (3 -1))\n"
      "    (dsd W_local 0 (3 1)) v))\n";
  std::string call =
      "(call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1))\n"
      "      (dsd W_local 0 (3 1)) v)";
  EXPECT_EQ(Error(task + Conv1d(call, "(call @acc i v y_local W_local)")),
            "12:5: error: call to '@acc' does not establish its assertion "
            "(and (<= 0 j) (< j 14)) (at px = 0, py = 0, i = 14)");
  EXPECT_EQ(Error(task + Replace(Conv1d(call,
                                        "(call @acc i v y_local "
                                        "W_local)"),
                                 "(recv x (i) v)", "(recv x (i) v (< i 14))")),
            "ok");
  EXPECT_EQ(Error(task + Conv1d(call, "(call @acc i v W_local y_local)")),
            "12:20: error: dimension 1 of argument 'y_local' of '@acc' is 3, "
            "but '@acc' expects 18 (at px = 0, py = 0, i = 0)");
  EXPECT_EQ(Error(task + Conv1d(call, "(call @acc i y_local v W_local)")),
            "12:18: error: argument 'v' of '@acc' is (f32 1 18), expected "
            "f32");
  EXPECT_EQ(Error(task + Conv1d(call, "(call @acc i v v W_local)")),
            "12:20: error: argument 'y_local' of '@acc' is f32, expected (f32 "
            "1 18)");
}

TEST(Cs1Test, ChecksTheDescriptors) {
  EXPECT_EQ(Error(Conv1d("(+ i 2) (3 -1)", "(+ i 3) (3 -1)")),
            "7:26: error: the dsd on 'y_local' can reach element 18, past the "
            "last of its 18 elements (at px = 0, py = 0, i = 15)");
  EXPECT_EQ(Error(Conv1d("(+ i 2) (3 -1)", "i (3 -1)")),
            "7:26: error: the dsd on 'y_local' can reach element -2, below "
            "its first (at px = 0, py = 0, i = 0)");
  EXPECT_EQ(Error(Conv1d("(dsd W_local 0 (3 1))",
                         "(dsd W_local 0 (3 1) (1 0) (1 0) (1 0) (1 0))")),
            "8:46: error: a dsd has at most 4 dimensions, the depth of the "
            "SIMD engine's loop nest; found 5");
  EXPECT_EQ(Error(Conv1d("(dsd W_local 0 (3 1))", "(dsd W_local 0 (0 1))")),
            "8:23: error: the extent of a dsd dimension is a positive "
            "literal, found 0");
  EXPECT_EQ(Error(Conv1d("(dsd W_local 0 (3 1))", "(dsd v 0 (3 1))")),
            "8:12: error: a dsd describes a tensor in memory, and 'v' is a "
            "scalar");
  EXPECT_EQ(
      Error(Conv1d("(dsd W_local 0 (3 1))", "(dsd W_local (* i i) (3 1))")),
      "8:20: error: control expressions are quasi-affine: '*' needs an "
      "integer literal on one side");
  EXPECT_EQ(Error("(proc @p ((size n) (inout a (f32 n) @PE))\n"
                  "  (call @fzeros 1 1 1 1 (dsd a 0 (1 1))))\n"),
            "2:30: error: a dsd addresses memory of a fixed size, and the "
            "dimensions of 'a' are not literals");
  EXPECT_EQ(Error("(proc @p ((inout a (window f32 4) @PE))\n"
                  "  (call @fzeros 4 1 1 1 (dsd a 0 (4 1))))\n"),
            "2:30: error: a dsd describes a tensor in memory, and 'a' is a "
            "window, not memory of its own");
  EXPECT_EQ(Error("(proc @p ((inout a (f32 4) @PE))\n"
                  "  (assign (a 0) (dsd a 0 (4 1))))\n"),
            "2:18: error: 'dsd' is not a data operation");
}

}  // namespace
}  // namespace tessel::ir
