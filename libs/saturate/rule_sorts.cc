#include "libs/saturate/rule_sorts.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "libs/ir/op.h"

namespace tessel::saturate {
namespace {

// What a pattern node is, as far as its form says.
enum class Shape { kUnknown, kLam, kScalar, kArray, kTuple, kBool };

const char* Describe(Shape shape) {
  switch (shape) {
    case Shape::kUnknown:
      return "a value";
    case Shape::kLam:
      return "a lam";
    case Shape::kScalar:
      return "a scalar literal";
    case Shape::kArray:
      return "an array (a build)";
    case Shape::kTuple:
      return "a tuple";
    case Shape::kBool:
      return "a condition";
  }
  return "?";
}

// Where a node stands: where only a function may (a lam), where only a
// value may, or anywhere (a side's root; literal operands).
enum class Place { kAny, kFunction, kValue };

class SortChecker {
 public:
  explicit SortChecker(const egraph::rules::RuleScope& scope) : scope_(scope) {}

  // Checks `node`, standing at `place`, and its operands. (What stands
  // where a lam must is a lam: the reader wants `(lam ...)` there.)
  absl::Status Check(const ir::Node& node, Place place) const {
    if (node.is(ir::Op::kLam) && place == Place::kValue) {
      return scope_.Error(node.loc(),
                          "a lam where a value is needed (a lam is only the "
                          "function of build, ifold or app)");
    }
    if (auto status = CheckOperandShapes(node); !status.ok()) return status;
    const ir::Node* parent = node.parent();
    for (size_t i = 0; i < node.num_operands(); ++i) {
      Place inner = Place::kAny;
      if (node.is(ir::Op::kLam)) {
        // The function of an ifold takes two arguments, one lam each.
        bool curried = parent != nullptr && parent->is(ir::Op::kIfold) &&
                       node.position() == 2;
        inner = curried ? Place::kFunction : Place::kValue;
      } else if (node.is(ir::Op::kLibCall)) {
        inner = Place::kValue;
      } else {
        inner = PlaceOf(node.op(), i);
      }
      if (auto status = Check(*node.operand(i), inner); !status.ok()) {
        return status;
      }
    }
    return absl::OkStatus();
  }

  Shape ShapeOf(const ir::Node& node) const {
    if (ir::IsCondition(node.op())) return Shape::kBool;
    switch (node.op()) {
      case ir::Op::kLam:
        return Shape::kLam;
      case ir::Op::kConst:
        return Shape::kScalar;
      case ir::Op::kBuild:
        return Shape::kArray;
      case ir::Op::kTuple:
        return Shape::kTuple;
      default:
        return Shape::kUnknown;
    }
  }

 private:
  static Place PlaceOf(ir::Op op, size_t i) {
    const std::vector<ir::OperandKind>& kinds = ir::Info(op).operands;
    if (kinds.empty()) return Place::kAny;
    switch (kinds[std::min(i, kinds.size() - 1)]) {
      case ir::OperandKind::kValue:
      case ir::OperandKind::kValues:
      case ir::OperandKind::kValuesPlus:
        return Place::kValue;
      case ir::OperandKind::kLam:
        return Place::kFunction;
      default:
        return Place::kAny;
    }
  }

  // The operands whose form says they cannot have the type `node` needs.
  absl::Status CheckOperandShapes(const ir::Node& node) const {
    auto expect = [&](size_t i, absl::string_view what,
                      std::initializer_list<Shape> wrong) -> absl::Status {
      if (i >= node.num_operands()) return absl::OkStatus();
      Shape found = ShapeOf(*node.operand(i));
      for (Shape shape : wrong) {
        if (found != shape) continue;
        return scope_.Error(
            node.operand(i)->loc(),
            absl::StrCat("'", ir::Spelling(node.op()), "' needs ", what,
                         " here, found ", Describe(found)));
      }
      return absl::OkStatus();
    };
    if (node.is(ir::Op::kIndex)) {
      return expect(0, "an array",
                    {Shape::kScalar, Shape::kTuple, Shape::kBool});
    }
    if (node.is(ir::Op::kFst) || node.is(ir::Op::kSnd)) {
      return expect(0, "a tuple",
                    {Shape::kScalar, Shape::kArray, Shape::kBool});
    }
    if (ir::IsArithmetic(node.op())) {
      for (size_t i = 0; i < node.num_operands(); ++i) {
        if (auto status = expect(i, "a number or an array",
                                 {Shape::kTuple, Shape::kBool});
            !status.ok()) {
          return status;
        }
      }
    }
    return absl::OkStatus();
  }

  const egraph::rules::RuleScope& scope_;
};

}  // namespace

absl::Status CheckRuleSorts(const ir::Node& lhs, const ir::Node& rhs,
                            const egraph::rules::RuleScope& scope) {
  SortChecker checker(scope);
  if (auto status = checker.Check(lhs, Place::kAny); !status.ok()) {
    return status;
  }
  if (auto status = checker.Check(rhs, Place::kAny); !status.ok()) {
    return status;
  }
  Shape left = checker.ShapeOf(lhs);
  Shape right = checker.ShapeOf(rhs);
  bool differ =
      left != right && left != Shape::kUnknown && right != Shape::kUnknown;
  // A lam is never equal to a value, whatever the value is.
  bool lam_and_value = (left == Shape::kLam) != (right == Shape::kLam);
  if (differ || lam_and_value) {
    return scope.Error(rhs.loc(),
                       absl::StrCat("the right side is ", Describe(right),
                                    " and the left side ", Describe(left),
                                    ": they can never be equal"));
  }
  return absl::OkStatus();
}

}  // namespace tessel::saturate
