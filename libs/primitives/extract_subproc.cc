#include "libs/primitives/extract_subproc.h"

#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/names.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;
using ir::Op;
using ir::ParamKind;

namespace {

bool IsBuffer(const Node& decl) {
  return decl.is(Op::kAlloc) || (decl.is(Op::kParam) && ir::IsDataParam(decl));
}

// Whether `node` lies under one of `stmts`.
bool Inside(const Node* node, const std::vector<Node*>& stmts) {
  for (; node != nullptr; node = node->parent()) {
    for (const Node* stmt : stmts) {
      if (node == stmt) return true;
    }
  }
  return false;
}

// The call or vector store of `stmt` that `node` is an argument of (or
// lies in), if any.
const Node* WriterAround(const Node& node, const Node& stmt) {
  for (const Node* at = &node; at != nullptr && at != stmt.parent();
       at = at->parent()) {
    if (at->is(Op::kCall) || at->is(Op::kTransferWrite)) return at;
  }
  return nullptr;
}

// Whether `call` may write the buffer that `node`, in one of its
// arguments, names: the callee's parameter for that argument is not `in`.
bool CallMayWrite(const Node& call, const Node& node) {
  const Node* arg = &node;
  while (arg->parent() != &call) arg = arg->parent();
  std::vector<Node*> params = ir::ParamsOf(*call.def());
  size_t at = arg->position();
  return at >= params.size() || params[at]->param_kind() != ParamKind::kIn;
}

// What the block uses from outside: control values and buffers, in order
// of first use (the sizes of the buffers' types included), the buffers it
// may write, and where it runs: conditions on the captured values that hold
// at every instance of the block.
struct Captures {
  std::vector<const Node*> controls;
  std::vector<const Node*> buffers;
  absl::flat_hash_set<const Node*> written;
  std::vector<Node*> context;  // detached, on the original binders
};

class Capturer {
 public:
  Capturer(ir::Module& module, const std::vector<Node*>& stmts)
      : module_(module), stmts_(stmts) {}

  absl::StatusOr<Captures> Run() {
    for (Node* stmt : stmts_) {
      ir::Walk(*stmt, [&](Node& node) { Use(node, *stmt); });
    }
    // Innermost first: a loop whose bounds or an if whose condition
    // captures an outer loop's variable adds that loop's bounds in turn.
    for (Node* at = stmts_.front()->parent();
         at != nullptr && !at->is(Op::kProc); at = at->parent()) {
      if (at->is(Op::kFor) && seen_.contains(at)) {
        CaptureAll(*at->operand(0));
        CaptureAll(*at->operand(1));
        Node* i = Build::Ref(module_, *at);
        captures_.context.push_back(Build::Binary(
            module_, Op::kLe, module_.Clone(at->operand(0)), i));
        captures_.context.push_back(
            Build::Lt(module_, Build::Ref(module_, *at),
                      module_.Clone(at->operand(1))));
      } else if (at->is(Op::kThen) || at->is(Op::kElse)) {
        Node* cond = at->parent()->operand(0);
        CaptureAll(*cond);
        Node* holds = module_.Clone(cond);
        captures_.context.push_back(
            at->is(Op::kThen) ? holds : Build::Unary(module_, Op::kNot, holds));
      }
    }
    if (!status_.ok()) return status_;
    return std::move(captures_);
  }

 private:
  void Capture(const Node& decl) {
    if (!seen_.insert(&decl).second) return;
    if (IsBuffer(decl)) {
      captures_.buffers.push_back(&decl);
      // The sizes its type names come with it.
      ir::Walk(const_cast<Node&>(decl), [&](Node& inner) {
        if (inner.is(Op::kRef) && inner.def() != nullptr &&
            inner.def()->is(Op::kParam)) {
          Capture(*inner.def());
        }
      });
    } else if (decl.is(Op::kParam) || decl.is(Op::kFor)) {
      captures_.controls.push_back(&decl);
    } else if (status_.ok()) {
      status_ = absl::FailedPreconditionError(absl::StrCat(
          "extract_subproc: the block uses '", decl.name(),
          "', which is neither a parameter, a loop variable nor a buffer"));
    }
  }

  // A reference's binder, when it is the proc's and outside the block.
  const Node* Outside(const Node& node) const {
    if (!node.is(Op::kRef) || node.def() == nullptr) return nullptr;
    const Node* decl = node.def();
    if (Inside(decl, stmts_) ||
        ir::FormOf(const_cast<Node*>(decl)) != ir::FormOf(stmts_.front())) {
      return nullptr;  // bound in the block, or a top-level form
    }
    return decl;
  }

  void CaptureAll(const Node& expr) {
    ir::AnyNode(expr, [&](const Node& node) {
      if (const Node* decl = Outside(node)) Capture(*decl);
      return false;
    });
  }

  void Use(const Node& node, const Node& stmt) {
    const Node* decl = Outside(node);
    if (decl == nullptr) return;
    Capture(*decl);
    if (!IsBuffer(*decl)) return;
    const Node* parent = node.parent();
    const Node* access =
        parent != nullptr && parent->is(Op::kLoad) ? parent : &node;
    const Node* user = access->parent();
    bool written =
        user != nullptr && access->position() == 0 &&
        (user->is(Op::kAssign) || user->is(Op::kReduce));
    // A buffer passed to a vector store, or to a call whose parameter is not
    // `in`, may be written; so may one named by a window anywhere else.
    if (const Node* writer = WriterAround(node, stmt)) {
      written |= writer->is(Op::kTransferWrite) || CallMayWrite(*writer, node);
    } else {
      written |= parent != nullptr && parent->is(Op::kWindow);
    }
    if (written) captures_.written.insert(decl);
  }

  ir::Module& module_;
  const std::vector<Node*>& stmts_;
  Captures captures_;
  absl::flat_hash_set<const Node*> seen_;
  absl::Status status_ = absl::OkStatus();
};

// Whether `root` refers only to `params` (and literals).
bool OnlyUses(const Node& root, const absl::flat_hash_set<const Node*>& params) {
  return !ir::AnyNode(root, [&](const Node& node) {
    return node.is(Op::kRef) && node.def() != nullptr &&
           !params.contains(node.def());
  });
}

}  // namespace

absl::StatusOr<ir::Cursor> ExtractSubproc(ir::Module& module,
                                          const ir::BlockCursor& block,
                                          const std::string& subproc_name,
                                          bool include_asserts) {
  if (absl::Status status = block.status(); !status.ok()) return status;
  if (!IsIdentifier(subproc_name)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "extract_subproc: '", subproc_name, "' is not an identifier"));
  }
  const std::string name = "@" + subproc_name;
  if (module.Find(name) != nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("extract_subproc: ", name, " already exists"));
  }
  std::vector<Node*> stmts = block.statements();
  Node& proc = *ir::FormOf(stmts.front());
  auto captures = Capturer(module, stmts).Run();
  if (!captures.ok()) return captures.status();

  std::vector<Node*> params;
  std::vector<Node*> args;
  std::vector<std::pair<const Node*, Node*>> renamed;
  for (const Node* decl : captures->controls) {
    ParamKind kind =
        decl->is(Op::kFor) ? ParamKind::kIndex : decl->param_kind();
    Node* param = Build::ControlParam(module, kind, decl->name());
    params.push_back(param);
    renamed.push_back({decl, param});
    args.push_back(Build::Ref(module, *decl));
  }
  for (const Node* decl : captures->buffers) {
    const ir::Type& type = decl->declared_type();
    ParamKind kind =
        captures->written.contains(decl) ? ParamKind::kInOut : ParamKind::kIn;
    const Node& memory = ir::MemoryOf(module, *decl);
    Node* param = Build::DataParam(
        module, kind, decl->name(),
        type.is_shaped() ? ShapeOf(type.elem(), DimNodes(module, type)) : type,
        &memory == module.dram() ? nullptr : &memory);
    params.push_back(param);
    renamed.push_back({decl, param});
    args.push_back(Build::Ref(module, *decl));
  }
  std::vector<Node*> asserts;
  for (Node* cond : captures->context) {
    asserts.push_back(Build::Assert(module, cond));
  }
  if (include_asserts) {
    absl::flat_hash_set<const Node*> captured;
    for (const auto& [decl, param] : renamed) captured.insert(decl);
    for (Node* assertion : ir::AssertsOf(proc)) {
      if (OnlyUses(*assertion, captured)) {
        asserts.push_back(module.Clone(assertion));
      }
    }
  }
  std::vector<Node*> body;
  for (Node* stmt : stmts) body.push_back(module.Clone(stmt));
  Node* subproc = Build::Proc(module, name, params, asserts, body);
  for (const auto& [decl, param] : renamed) {
    Node* ref = Build::Ref(module, *param);
    ir::Substitute(module, subproc, decl, *ref);
  }
  module.AddForm(subproc);
  if (absl::Status status = ir::VerifyProc(module, *subproc, kEditChecks);
      !status.ok()) {
    module.Detach(subproc);
    return absl::FailedPreconditionError(absl::StrCat(
        "extract_subproc: the new proc does not verify on its own: ",
        status.message()));
  }
  // The call verifies in the block's place with the caller and its
  // callers, or nothing is changed: what it may write must be writable
  // there, and the configuration it leaves must be what the caller may
  // read after it.
  Node* call = Build::Call(module, *subproc, args);
  Transaction tx(module);
  tx.Replace(stmts.front(), call);
  for (size_t k = 1; k < stmts.size(); ++k) tx.Detach(stmts[k]);
  if (absl::Status status = tx.Commit(
          proc, "extract_subproc: the call does not verify in the block's "
                "place");
      !status.ok()) {
    module.Detach(subproc);
    return status;
  }
  module.Forward(stmts.front(), call);
  module.Forward(stmts.back(), call);
  return ir::Cursor(module, call);
}

PrimitiveSpec ExtractSubprocSpec() {
  return {"extract_subproc",
          {{"block", ArgKind::kBlock, std::nullopt},
           {"subproc_name", ArgKind::kString, std::nullopt},
           {"include_asserts", ArgKind::kBool, "True"}},
          [](Target& target, const Args& args) {
            return ExtractSubproc(target.module, args["block"].block,
                                  args["subproc_name"].text,
                                  args["include_asserts"].bool_value)
                .status();
          }};
}

}  // namespace tessel::primitives
