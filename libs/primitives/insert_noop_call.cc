#include "libs/primitives/insert_noop_call.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "isl/cpp.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/poly/model.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {
namespace {

using ir::Node;
using ir::Op;

// The first statement of `body`, or of a body it calls, that may compute a
// value or write one (anything but a loop, an if, an allocation and a
// call); null when there is none. `seen`: the callees looked at already.
const Node* FirstComputing(absl::Span<Node* const> body,
                           absl::flat_hash_set<const Node*>& seen) {
  for (Node* stmt : body) {
    const Node* found = nullptr;
    switch (stmt->op()) {
      case Op::kAlloc:
        break;
      case Op::kFor:
        found = FirstComputing(ir::ForView(*stmt).body(), seen);
        break;
      case Op::kIf: {
        ir::IfView view(*stmt);
        found = FirstComputing(view.then_body(), seen);
        if (found == nullptr) found = FirstComputing(view.else_body(), seen);
        break;
      }
      case Op::kCall: {
        const Node* callee = ir::CallView(*stmt).callee();
        if (seen.insert(callee).second) {
          found = FirstComputing(ir::BodyOf(*callee), seen);
        }
        break;
      }
      default:
        found = stmt;
        break;
    }
    if (found != nullptr) return found;
  }
  return nullptr;
}

// FailedPrecondition naming a location the call at `call` touches.
absl::Status CheckTouchesNothing(const Node& call) {
  effects::ProcAnalysis analysis(*ir::FormOf(const_cast<Node*>(&call)));
  const poly::ProcModel& model = analysis.model();
  auto effects = effects::EffectsOf(model, {const_cast<Node*>(&call)});
  if (!effects.ok()) return effects.status();
  struct Kind {
    const isl::union_map* touched;
    const char* what;
    const char* why;
  };
  // "reads x": what is done to the first location touched, and why it
  // matters; nullopt when the call touches none.
  using Touch = std::optional<std::string>;
  auto touch = poly::Ask<Touch>(model.ctx(), [&]() -> absl::StatusOr<Touch> {
    for (const Kind& kind :
         {Kind{&effects->writes, "writes", ""},
          Kind{&effects->reduces, "reduces", ""},
          Kind{&effects->reads, "reads",
               " (a read may see an element or a field not set yet)"}}) {
      Touch location;
      kind.touched->foreach_map([&](isl::map map) {
        if (location.has_value() || map.is_empty()) return;
        const char* name = isl_map_get_tuple_name(map.get(), isl_dim_out);
        location = absl::StrCat(kind.what, " ", name != nullptr ? name : "?",
                                kind.why);
      });
      if (location.has_value()) return location;
    }
    return Touch();
  });
  if (!touch.ok()) return touch.status();
  if (!touch->has_value()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "'", NodeText(call), "' is not a no-op: it ", **touch));
}

}  // namespace

absl::Status InsertNoopCall(ir::Module& module,
                            const ir::GapCursor& gap_cursor,
                            const Node& callee,
                            absl::Span<const Node* const> args) {
  if (!gap_cursor.is_valid()) return gap_cursor.status();
  if (!ir::ProcView::Is(callee)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "insert_noop_call needs a proc or instr, not ", callee.name()));
  }
  size_t params = ir::ProcView(const_cast<Node&>(callee)).params().size();
  if (args.size() != params) {
    return absl::InvalidArgumentError(
        absl::StrCat("insert_noop_call: ", callee.name(), " takes ", params,
                     " arguments, not ", args.size()));
  }
  absl::flat_hash_set<const Node*> seen = {&callee};
  if (const Node* stmt = FirstComputing(ir::BodyOf(callee), seen)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the body of ", callee.name(), " may do something: '",
        NodeText(*stmt), "' (a no-op's body holds loops, ifs, allocations "
        "and calls of no-ops only)"));
  }
  std::vector<Node*> cloned;
  for (const Node* arg : args) cloned.push_back(module.Clone(arg));
  Node* call = ir::Build::Call(module, callee, cloned);
  std::string what = absl::StrCat("cannot insert '", NodeText(*call), "'");
  Transaction tx(module);
  tx.Insert(gap_cursor.owner(), gap_cursor.position(), call);
  Node& proc = *ir::FormOf(call);
  if (absl::Status s = tx.Verify(proc, what); !s.ok()) return s;
  if (absl::Status s = CheckTouchesNothing(*call); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat(what, ": ", s.message()));
  }
  return tx.Commit(proc, what);
}

PrimitiveSpec InsertNoopCallSpec() {
  return {"insert_noop_call",
          {{"gap_cursor", ArgKind::kGap, std::nullopt},
           {"instr", ArgKind::kInstr, std::nullopt},
           {"args", ArgKind::kExprTexts, std::nullopt}},
          [](Target& target, const Args& args) {
            return InsertNoopCall(target.module, args["gap_cursor"].gap,
                                  *args["instr"].form, args["args"].nodes);
          }};
}

}  // namespace tessel::primitives
