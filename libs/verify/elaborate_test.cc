// Elaboration at the loop level: after VerifyModule every value node of a
// proc or instr (its body, its assertions and the dimensions of its types)
// has a type, and the types follow the contract of verifier.h.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/verify/verifier.h"
#include "libs/kernel/compile.h"

namespace tessel::ir {
namespace {

// Nodes that have a value: literals, names, element reads and the
// expression ops other than a window's intervals, splits and permutation.
bool IsValue(const Node& node) {
  switch (node.op()) {
    case Op::kConst:
    case Op::kRef:
    case Op::kLoad:
      return true;
    case Op::kInterval:
    case Op::kSplit:
    case Op::kPermutation:
      return false;
    default:
      return node.info().op_class == OpClass::kExpr;
  }
}

// "LINE:COL OP" of every value node of the procs and instrs of `module`
// (dimensions of declared types and of node types included) that has no
// type.
class UntypedFinder {
 public:
  explicit UntypedFinder(const Module& module) : module_(module) {}

  std::vector<std::string> Find() {
    for (Node* form : module_.forms()) {
      if (form->is(Op::kProc) || form->is(Op::kInstr)) Visit(*form);
    }
    return std::move(untyped_);
  }

 private:
  void Visit(Node& root) {
    Walk(root, [&](Node& node) {
      if (IsValue(node) && node.type().is_none()) {
        untyped_.push_back(absl::StrCat(node.loc().line, ":", node.loc().col,
                                        " ", Spelling(node.op())));
      }
      VisitDims(node.declared_type());
      VisitDims(node.type());
    });
  }

  void VisitDims(const Type& type) {
    for (const Dim& dim : type.dims()) {
      if (!dim.is_constant()) Visit(*module_.Get(dim.expr->id()));
    }
  }

  const Module& module_;
  std::vector<std::string> untyped_;
};

std::vector<std::string> UntypedNodes(const Module& module) {
  return UntypedFinder(module).Find();
}

// The example kernels, lowered to the loop level with literal and with
// symbolic sizes.
TEST(ElaborateTest, EveryValueOfTheExampleKernelsIsTyped) {
  int verified = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator("testdata/kernels")) {
    if (entry.path().extension() != ".tk") continue;
    auto source = ReadSource(entry.path().string());
    ASSERT_TRUE(source.ok()) << source.status();
    for (const std::map<std::string, int64_t>& sizes :
         {std::map<std::string, int64_t>{{"M", 6}, {"N", 5}, {"K", 3}},
          std::map<std::string, int64_t>{}}) {
      auto forms =
          kernel::CompileKernels(*source, sizes, kernel::EmitLevel::kLoops);
      if (!forms.ok()) continue;  // a kernel that needs its sizes
      auto module = ReadForms(*forms, *source);
      ASSERT_TRUE(module.ok()) << entry.path() << ": " << module.status();
      absl::Status status = VerifyModule(*module);
      ASSERT_TRUE(status.ok()) << entry.path() << ": " << status;
      EXPECT_EQ(UntypedNodes(*module), std::vector<std::string>{})
          << entry.path();
      ++verified;
    }
  }
  EXPECT_GE(verified, 20);
}

// The target level: instructions, memories, configurations, windows and
// calls (testdata/run-sim/instr_windows_config.tir).
TEST(ElaborateTest, EveryValueOfTheTargetExampleIsTyped) {
  auto module = ReadText(MakeSource("m.tir", R"(
(memory @SCRATCHPAD
  (alloc "static {type} {name}[{size}];")
  (free "")
  (addressable false))

(config @ConfigLoad (src_stride stride) (scale f32))

(instr @config_ld ((stride s) (in scale f32))
  (c "config_ld({s}, {scale});")
  (write-config @ConfigLoad src_stride s)
  (write-config @ConfigLoad scale scale))

(instr @ld_data ((size n) (size m) (in src (window f32 n m) @DRAM)
                 (out dst (window f32 n 16) @SCRATCHPAD))
  (c "mvin({src_data}, {dst_data}, {m}, {n});")
  (assert (<= m 16))
  (assert (== (read-config @ConfigLoad src_stride) (stride src 0)))
  (for i 0 n
    (for j 0 m
      (assign (dst i j) (* (read-config @ConfigLoad scale) (src i j))))))

(instr @fill ((size n) (out dst (window f32 n 16) @SCRATCHPAD))
  (c "fill({dst_data}, {n});")
  (for i 0 n (for j 0 16 (assign (dst i j) -1.0))))

(instr @st_data ((size n) (in src (window f32 n 16) @SCRATCHPAD)
                 (out dst (window f32 n 16) @DRAM))
  (c "mvout({src_data}, {dst_data}, {n});")
  (for i 0 n (for j 0 16 (assign (dst i j) (src i j)))))

(proc @main ((size m) (in A (f32 6 24)) (out B (f32 6 16)))
  (assert (<= m 16))
  (alloc two f32)
  (assign two 2.0)
  (call @config_ld (stride A 0) two)
  (write-config @ConfigLoad src_stride (stride A 0))
  (alloc buf (f32 6 16) @SCRATCHPAD)
  (call @fill 6 buf)
  (for half 0 2
    (let rows (window A (: (* 3 half) (+ (* 3 half) 3)) (: 0 24)))
    (call @ld_data 3 m
      (window rows (: 0 3) (: 2 (+ 2 m)))
      (window buf (: (* 3 half) (+ (* 3 half) 3)) (: 0 16))))
  (call @st_data 6 buf B))
)"));
  ASSERT_TRUE(module.ok()) << module.status();
  absl::Status status = VerifyModule(*module);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(UntypedNodes(*module), std::vector<std::string>{});
}

Module Verified(const std::string& text) {
  auto module = ReadText(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return Module();
  absl::Status status = VerifyModule(*module);
  EXPECT_TRUE(status.ok()) << status;
  return *std::move(module);
}

TEST(ElaborateTest, LiteralsTakeTheTypeOfTheirPosition) {
  Module module = Verified(R"(
(proc @p ((size n) (in x (f32 n)) (out y (f32 n)) (out k i8))
  (for i 0 n (assign (y i) (+ (x i) 1)))
  (assign k (cast i8 (+ 2 3))))
)");
  EXPECT_EQ(UntypedNodes(module), std::vector<std::string>{});
  Node* loop = module.forms()[0]->operand(4);
  EXPECT_EQ(loop->operand(0)->type(), Type::Control(ControlType::kIndex));
  EXPECT_EQ(loop->operand(1)->type(), Type::Control(ControlType::kSize));
  Node* assign = loop->operand(2);
  Node* load = assign->operand(0);
  EXPECT_EQ(load->type(), Type::Elem(ElemType::kF32));
  EXPECT_EQ(load->operand(0)->type().kind(), TypeKind::kTensor);
  EXPECT_EQ(load->operand(1)->type(), Type::Control(ControlType::kIndex));
  Node* sum = assign->operand(1);
  EXPECT_EQ(sum->type(), Type::Elem(ElemType::kF32));
  EXPECT_EQ(sum->operand(1)->type(), Type::Elem(ElemType::kF32));
  // Literals with no context: C's default, i32.
  Node* cast = module.forms()[0]->operand(5)->operand(1);
  EXPECT_EQ(cast->type(), Type::Elem(ElemType::kI8));
  EXPECT_EQ(cast->operand(0)->type(), Type::Elem(ElemType::kI32));
  EXPECT_EQ(cast->operand(0)->operand(0)->type(), Type::Elem(ElemType::kI32));
}

TEST(ElaborateTest, SteppedSplitAndPermutedWindowsHaveTheirDimensions) {
  Module module = Verified(R"(
(proc @p ((size n) (in x (f32 n 24)) (out y f32))
  (let a (window x 0 (: 1 24 4)))
  (let b (window x (: 0 n 2) 3))
  (let c (window x (: 0 n) (split 0 24 6) (perm 2 0 1)))
  (assign y (+ (a 0) (+ (b 0) (c 0 0 0)))))
)");
  EXPECT_EQ(UntypedNodes(module), std::vector<std::string>{});
  const Node* proc = module.forms()[0];
  // ceil((24 - 1) / 4) elements; ceil(n / 2), symbolic.
  EXPECT_EQ(TypeText(proc->operand(3)->operand(0)->type()), "(window f32 6)");
  EXPECT_EQ(TypeText(proc->operand(4)->operand(0)->type()),
            "(window f32 (/ (+ n 1) 2))");
  // Natural dimensions (n 4 6), permuted.
  EXPECT_EQ(TypeText(proc->operand(5)->operand(0)->type()),
            "(window f32 6 n 4)");
}

TEST(ElaborateTest, WindowsHaveTheDimensionsTheyKeep) {
  Module module = Verified(R"(
(proc @p ((size n) (index k) (in x (f32 n 16)) (out y f32))
  (assert (and (<= 0 k) (< k 8)))
  (let a (window x (: 0 n) 3))
  (let b (window x 0 (: 4 12)))
  (let c (window x (: 0 n) (: k (+ k 8))))
  (assign y (+ (a 0) (+ (b 0) (c 0 (stride c 1))))))
)");
  EXPECT_EQ(UntypedNodes(module), std::vector<std::string>{});
  const Node* proc = module.forms()[0];
  const Type& a = proc->operand(5)->operand(0)->type();
  ASSERT_EQ(a.kind(), TypeKind::kWindow);
  ASSERT_EQ(a.rank(), 1);
  ASSERT_FALSE(a.dims()[0].is_constant());
  EXPECT_EQ(TypeText(a), "(window f32 n)");
  EXPECT_EQ(TypeText(proc->operand(6)->operand(0)->type()), "(window f32 8)");
  EXPECT_EQ(TypeText(proc->operand(7)->operand(0)->type()),
            "(window f32 n (- (+ k 8) k))");
  // A reference to a let has the window's type.
  const Node* read_a = proc->operand(8)->operand(1)->operand(0)->operand(0);
  EXPECT_EQ(TypeText(read_a->type()), "(window f32 n)");
  EXPECT_EQ(proc->operand(4)->operand(0)->type(),
            Type::Control(ControlType::kBool));
}

TEST(ElaborateTest, ConfigurationReadsHaveTheFieldsTypes) {
  Module module = Verified(R"(
(config @C (scale f32) (rows size))
(proc @p ((inout A (f32 16)))
  (assert (<= (read-config @C rows) 16))
  (for i 0 (read-config @C rows)
    (assign (A i) (* (A i) (read-config @C scale)))))
)");
  EXPECT_EQ(UntypedNodes(module), std::vector<std::string>{});
  const Node* loop = module.forms()[1]->operand(2);
  EXPECT_EQ(loop->operand(1)->type(), Type::Control(ControlType::kSize));
  EXPECT_EQ(loop->operand(2)->operand(1)->operand(1)->type(),
            Type::Elem(ElemType::kF32));
}

}  // namespace
}  // namespace tessel::ir
