// Typed accessors: a node of one op seen through the names of its parts,
// so that code says `ForView(loop).hi()` rather than `loop.operand(1)`,
// and the operand order of ops.def is written down once, here. A view is
// a pointer to its node, checked (in debug builds) to be of its op.
#ifndef TESSEL_LIBS_IR_VIEWS_H_
#define TESSEL_LIBS_IR_VIEWS_H_

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "libs/ir/forms.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// What every view has: its node, and an op check.
template <Op kOp>
class OpView {
 public:
  explicit OpView(Node& node) : node_(&node) { assert(node.is(kOp)); }
  static bool Is(const Node& node) { return node.is(kOp); }
  Node& node() const { return *node_; }

 protected:
  Node* operand(size_t i) const { return node_->operand(i); }
  Node* node_;
};

// (proc @NAME (PARAM...) [(c TEMPLATE)] ASSERT... STMT...), or an instr.
class ProcView {
 public:
  explicit ProcView(Node& node) : node_(&node) {
    assert(node.is(Op::kProc) || node.is(Op::kInstr));
  }
  static bool Is(const Node& node) {
    return node.is(Op::kProc) || node.is(Op::kInstr);
  }
  Node& node() const { return *node_; }
  const std::string& name() const { return node_->name(); }
  std::vector<Node*> params() const { return ParamsOf(*node_); }
  std::vector<Node*> asserts() const { return AssertsOf(*node_); }
  absl::Span<Node* const> body() const { return BodyOf(*node_); }

 private:
  Node* node_;
};

// (for VAR LO HI STMT...): the loop binds `var`.
class ForView : public OpView<Op::kFor> {
 public:
  explicit ForView(Node& node) : OpView(node) {}
  const std::string& var() const { return node_->name(); }
  Node* lo() const { return operand(0); }
  Node* hi() const { return operand(1); }
  absl::Span<Node* const> body() const { return StatementsOf(*node_); }
};

// (if COND (then STMT...) [(else STMT...)]).
class IfView : public OpView<Op::kIf> {
 public:
  explicit IfView(Node& node) : OpView(node) {}
  Node* cond() const { return operand(0); }
  Node* then_block() const { return operand(1); }
  // Null without an else-branch.
  Node* else_block() const {
    return node_->num_operands() > 2 ? operand(2) : nullptr;
  }
  absl::Span<Node* const> then_body() const {
    return StatementsOf(*then_block());
  }
  absl::Span<Node* const> else_body() const {
    return else_block() == nullptr ? absl::Span<Node* const>()
                                   : StatementsOf(*else_block());
  }
};

// (NAME I...): an element read, or the element an assign or reduce writes.
class LoadView : public OpView<Op::kLoad> {
 public:
  explicit LoadView(Node& node) : OpView(node) {}
  // The Ref naming the tensor or window, and what it refers to.
  Node* ref() const { return operand(0); }
  Node* buffer() const { return ref()->def(); }
  absl::Span<Node* const> indices() const {
    return node_->operands().subspan(1);
  }
};

// (assign LHS EXPR) and (reduce LHS EXPR): LHS is a scalar's Ref or a Load.
template <Op kOp>
class UpdateView : public OpView<kOp> {
 public:
  explicit UpdateView(Node& node) : OpView<kOp>(node) {}
  Node* lhs() const { return this->operand(0); }
  Node* rhs() const { return this->operand(1); }
  // The binder of what is written.
  Node* buffer() const {
    return lhs()->is(Op::kLoad) ? LoadView(*lhs()).buffer() : lhs()->def();
  }
  // The indices of the element written; none for a scalar.
  absl::Span<Node* const> indices() const {
    return lhs()->is(Op::kLoad) ? LoadView(*lhs()).indices()
                                : absl::Span<Node* const>();
  }
};
using AssignView = UpdateView<Op::kAssign>;
using ReduceView = UpdateView<Op::kReduce>;

// (alloc NAME TYPE [@MEM]).
class AllocView : public OpView<Op::kAlloc> {
 public:
  explicit AllocView(Node& node) : OpView(node) {}
  const std::string& name() const { return node_->name(); }
  const Type& type() const { return node_->declared_type(); }
  // The memory written, or null for @DRAM.
  Node* memory() const { return node_->def(); }
};

// (let NAME WINDOW).
class LetView : public OpView<Op::kLet> {
 public:
  explicit LetView(Node& node) : OpView(node) {}
  const std::string& name() const { return node_->name(); }
  Node* window() const { return operand(0); }
};

// (call @P ARG...).
class CallView : public OpView<Op::kCall> {
 public:
  explicit CallView(Node& node) : OpView(node) {}
  Node* callee() const { return node_->def(); }
  absl::Span<Node* const> args() const { return node_->operands(); }
};

// (: LO HI [STEP]): elements LO, LO + STEP, ... below HI, ceil((HI - LO) /
// STEP) of them; STEP a positive integer literal, 1 when absent.
class IntervalView : public OpView<Op::kInterval> {
 public:
  explicit IntervalView(Node& node) : OpView(node) {}
  Node* lo() const { return operand(0); }
  Node* hi() const { return operand(1); }
  int64_t step() const { return StepOf(*node_); }
  // The step of a verified interval.
  static int64_t StepOf(const Node& interval) {
    return interval.num_operands() > 2 ? interval.operand(2)->int_value() : 1;
  }
};

// (split LO HI N): elements LO to HI - 1 as (HI - LO) / N rows of N, two
// dimensions (an expanding reshape of that interval).
class SplitView : public OpView<Op::kSplit> {
 public:
  explicit SplitView(Node& node) : OpView(node) {}
  Node* lo() const { return operand(0); }
  Node* hi() const { return operand(1); }
  int64_t inner() const { return operand(2)->int_value(); }
};

// (window NAME SEL... [(perm P...)]): each selector a point, an Interval
// or a Split. The selectors keep dimensions in order (an interval one, a
// split two), the window's "natural" dimensions; a trailing (perm P...)
// makes dimension k of the window natural dimension Pk (as a tensor
// `transpose`'s list does).
class WindowView : public OpView<Op::kWindow> {
 public:
  explicit WindowView(Node& node) : OpView(node) {}
  Node* ref() const { return operand(0); }
  Node* buffer() const { return ref()->def(); }
  absl::Span<Node* const> selectors() const { return SelectorsOf(*node_); }
  // The (perm P...) operand, or null.
  Node* permutation() const { return PermutationOf(*node_); }

  // The same, for a const window node.
  static absl::Span<Node* const> SelectorsOf(const Node& window) {
    absl::Span<Node* const> rest = window.operands().subspan(1);
    if (!rest.empty() && rest.back()->is(Op::kPermutation)) {
      rest.remove_suffix(1);
    }
    return rest;
  }
  static Node* PermutationOf(const Node& window) {
    Node* last = window.operands().back();
    return last->is(Op::kPermutation) ? last : nullptr;
  }
  // The dimensions a selector keeps: 0 for a point, 1 for an interval, 2
  // for a split.
  static int KeptBy(const Node& selector) {
    return selector.is(Op::kInterval) ? 1 : selector.is(Op::kSplit) ? 2 : 0;
  }
  // The natural dimension of each dimension of `window`: its permutation's
  // entries, else 0, 1, ... (the verifier checks they are a permutation of
  // the kept dimensions).
  static std::vector<int> OrderOf(const Node& window) {
    std::vector<int> order;
    if (const Node* perm = PermutationOf(window)) {
      for (const Node* entry : perm->operands()) {
        order.push_back(static_cast<int>(entry->int_value()));
      }
      return order;
    }
    int kept = 0;
    for (const Node* selector : SelectorsOf(window)) kept += KeptBy(*selector);
    for (int k = 0; k < kept; ++k) order.push_back(k);
    return order;
  }

  // Whether `window` is a box of what it views: points and intervals of
  // step 1, its dimensions in their order (no step, split or permutation).
  // Rewrites that compose windows by adding offsets need one.
  static bool IsBox(const Node& window) {
    if (PermutationOf(window) != nullptr) return false;
    for (const Node* selector : SelectorsOf(window)) {
      if (selector->is(Op::kSplit)) return false;
      if (selector->is(Op::kInterval) && selector->num_operands() > 2) {
        const Node& step = *selector->operand(2);
        if (!step.is(Op::kConst) || step.int_value() != 1) return false;
      }
    }
    return true;
  }

  // Where a dimension of a window goes: index x of it moves `scale * x`
  // along the dimension of the viewed tensor that selector `selector`
  // (counted from 0) selects in, from the selector's LO.
  struct DimMap {
    int selector;
    int64_t scale;
  };
  // The map of each dimension of a verified `window`, in the window's
  // order: an interval's step, a split's row length for its rows and 1
  // within a row, permuted.
  static std::vector<DimMap> DimMapsOf(const Node& window) {
    std::vector<DimMap> natural;
    absl::Span<Node* const> selectors = SelectorsOf(window);
    for (size_t i = 0; i < selectors.size(); ++i) {
      const Node& selector = *selectors[i];
      const int at = static_cast<int>(i);
      if (selector.is(Op::kInterval)) {
        natural.push_back({at, IntervalView::StepOf(selector)});
      } else if (selector.is(Op::kSplit)) {
        natural.push_back({at, selector.operand(2)->int_value()});
        natural.push_back({at, 1});
      }
    }
    std::vector<DimMap> maps;
    for (int k : OrderOf(window)) maps.push_back(natural[k]);
    return maps;
  }
};

// (write-config @CFG FIELD EXPR).
class WriteConfigView : public OpView<Op::kWriteConfig> {
 public:
  explicit WriteConfigView(Node& node) : OpView(node) {}
  Node* config() const { return node_->def(); }
  const std::string& field() const { return node_->name(); }
  Node* value() const { return operand(0); }
};

// (read-config @CFG FIELD).
class ReadConfigView : public OpView<Op::kReadConfig> {
 public:
  explicit ReadConfigView(Node& node) : OpView(node) {}
  Node* config() const { return node_->def(); }
  const std::string& field() const { return node_->name(); }
};

// (stride NAME K).
class StrideView : public OpView<Op::kStride> {
 public:
  explicit StrideView(Node& node) : OpView(node) {}
  Node* buffer() const { return operand(0)->def(); }
  int64_t dim() const { return operand(1)->int_value(); }
};

// (select COND A B).
class SelectView : public OpView<Op::kSelect> {
 public:
  explicit SelectView(Node& node) : OpView(node) {}
  Node* cond() const { return operand(0); }
  Node* if_true() const { return operand(1); }
  Node* if_false() const { return operand(2); }
};

// (cast ELEM A).
class CastView : public OpView<Op::kCast> {
 public:
  explicit CastView(Node& node) : OpView(node) {}
  ElemType elem() const { return node_->declared_type().elem(); }
  Node* value() const { return operand(0); }
};

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_VIEWS_H_
