#include "libs/primitives/autolift_alloc.h"

#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/primitives/checkpoint.h"
#include "libs/primitives/expand_dim.h"
#include "libs/primitives/lift_alloc.h"
#include "libs/primitives/loop_support.h"
#include "libs/primitives/rearrange_dim.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

// What each name of a proc depends on: a buffer on every name read by a
// statement that may write it, and on the guards and loop bounds around
// that statement; a loop variable on its bounds. Writes through a let's
// window are writes of its buffer. A call or any other statement that is
// not an assignment or a reduction may write every buffer it names.
class Dependencies {
 public:
  explicit Dependencies(const Node& proc) {
    std::vector<const Node*> context;
    for (const Node* stmt : ir::BodyOf(proc)) Visit(*stmt, context);
  }

  // The names `decl`'s values depend on, transitively.
  absl::flat_hash_set<const Node*> Of(const Node* decl) const {
    absl::flat_hash_set<const Node*> done = {decl};
    std::vector<const Node*> todo = {decl};
    while (!todo.empty()) {
      const Node* at = todo.back();
      todo.pop_back();
      auto it = depends_.find(at);
      if (it == depends_.end()) continue;
      for (const Node* on : it->second) {
        if (done.insert(on).second) todo.push_back(on);
      }
    }
    return done;
  }

 private:
  // The binder of `decl`, through let windows.
  const Node* Resolved(const Node* decl) const {
    auto it = alias_.find(decl);
    return it == alias_.end() ? decl : it->second;
  }

  // The binders `root` refers to.
  static std::vector<const Node*> Refs(const Node& root) {
    std::vector<const Node*> refs;
    ir::AnyNode(root, [&](const Node& node) {
      if (node.is(Op::kRef) && node.def() != nullptr) {
        refs.push_back(node.def());
      }
      return false;
    });
    return refs;
  }

  void Visit(const Node& stmt, std::vector<const Node*>& context) {
    if (stmt.is(Op::kFor)) {
      ir::ForView loop(const_cast<Node&>(stmt));
      size_t mark = context.size();
      for (const Node* bound : {loop.lo(), loop.hi()}) {
        for (const Node* ref : Refs(*bound)) {
          depends_[&stmt].insert(ref);
          context.push_back(ref);
        }
      }
      for (const Node* inner : loop.body()) Visit(*inner, context);
      context.resize(mark);
      return;
    }
    if (stmt.is(Op::kIf)) {
      ir::IfView branch(const_cast<Node&>(stmt));
      size_t mark = context.size();
      for (const Node* ref : Refs(*branch.cond())) context.push_back(ref);
      for (const Node* inner : branch.then_body()) Visit(*inner, context);
      for (const Node* inner : branch.else_body()) Visit(*inner, context);
      context.resize(mark);
      return;
    }
    if (stmt.is(Op::kLet)) {
      const Node* buffer = ir::WindowView(*stmt.operand(0)).buffer();
      alias_[&stmt] = Resolved(buffer);
      return;
    }
    std::vector<const Node*> reads = Refs(stmt);
    std::vector<const Node*> written;
    if (stmt.is(Op::kAssign) || stmt.is(Op::kReduce)) {
      const Node* location = stmt.operand(0);
      written.push_back(
          (location->is(Op::kLoad) ? location->operand(0) : location)->def());
    } else {
      written = reads;
    }
    for (const Node* decl : written) {
      auto& on = depends_[Resolved(decl)];
      on.insert(reads.begin(), reads.end());
      on.insert(context.begin(), context.end());
    }
  }

  absl::flat_hash_map<const Node*, absl::flat_hash_set<const Node*>> depends_;
  absl::flat_hash_map<const Node*, const Node*> alias_;
};

absl::Status Prefixed(const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat("autolift_alloc: ", status.message()));
}

}  // namespace

absl::StatusOr<ir::Cursor> AutoliftAlloc(ir::Module& module,
                                         const ir::Cursor& alloc,
                                         int64_t n_lifts,
                                         const std::string& mode,
                                         int64_t size, bool keep_dims) {
  if (absl::Status status = alloc.status(); !status.ok()) return status;
  Node* node = alloc.node();
  if (!node->is(Op::kAlloc)) {
    return absl::InvalidArgumentError("autolift_alloc: expected an alloc");
  }
  if (n_lifts < 1) {
    return absl::InvalidArgumentError(
        "autolift_alloc: n_lifts must be at least 1");
  }
  if (mode != "row" && mode != "col") {
    return absl::InvalidArgumentError(absl::StrCat(
        "autolift_alloc: unknown mode '", mode, "' (\"row\" or \"col\")"));
  }
  if (size < 0) {
    return absl::InvalidArgumentError(
        "autolift_alloc: size must be positive (or 0 for the loops' bounds)");
  }
  // The loops it leaves whose variable it depends on, innermost first.
  std::vector<Node*> kept;
  int64_t scopes = 0;
  Node& proc = *ir::FormOf(node);
  Dependencies dependencies(proc);
  absl::flat_hash_set<const Node*> depends = dependencies.Of(node);
  for (Node* at = ScopeOf(*node); at != nullptr && scopes < n_lifts;
       at = ScopeOf(*at), ++scopes) {
    if (keep_dims && at->is(Op::kFor) && depends.contains(at)) {
      kept.push_back(at);
    }
  }
  if (scopes < n_lifts) {
    return absl::InvalidArgumentError(absl::StrCat(
        "autolift_alloc: cannot lift ", n_lifts, " times: there are ", scopes,
        " loops and ifs around '", node->name(), "'"));
  }
  Checkpoint checkpoint(module, proc);
  // Each new dimension goes in front: the innermost loop's first.
  for (Node* loop : kept) {
    const Node* extent = size > 0 ? ir::Build::Int(module, size)
                                  : ir::ForView(*loop).hi();
    if (absl::Status status =
            ExpandDim(module, alloc, *extent, *ir::Build::Ref(module, *loop));
        !status.ok()) {
      return Prefixed(status);
    }
  }
  int64_t rank = node->declared_type().rank();
  int64_t added = kept.size();
  if (mode == "col" && added > 0 && rank > added) {
    std::vector<int64_t> permutation;
    for (int64_t dim = added; dim < rank; ++dim) permutation.push_back(dim);
    for (int64_t dim = 0; dim < added; ++dim) permutation.push_back(dim);
    if (absl::Status status = RearrangeDim(module, alloc, permutation);
        !status.ok()) {
      return Prefixed(status);
    }
  }
  auto lifted = LiftAlloc(module, alloc, n_lifts);
  if (!lifted.ok()) return lifted.status();
  checkpoint.Keep();
  return lifted;
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return AutoliftAlloc(target.module, args["alloc_cursor"].cursor,
                       args["n_lifts"].int_value, args["mode"].text,
                       args["size"].int_value, args["keep_dims"].bool_value)
      .status();
}

}  // namespace

PrimitiveSpec AutoliftAllocSpec() {
  return {"autolift_alloc",
          {{"alloc_cursor", ArgKind::kAlloc, {}},
           {"n_lifts", ArgKind::kInt, "1"},
           {"mode", ArgKind::kString, "\"row\""},
           {"size", ArgKind::kInt, "0"},
           {"keep_dims", ArgKind::kBool, "False"}},
          &Run};
}

}  // namespace tessel::primitives
