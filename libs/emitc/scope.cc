#include "libs/emitc/scope.h"

#include "absl/strings/str_cat.h"
#include "libs/emitc/c_names.h"

namespace tessel::emitc {

View WholeView(CExpr base, std::vector<CExpr> strides,
               std::vector<CExpr> extents, Binding* root) {
  View view;
  view.base = std::move(base);
  view.extents = std::move(extents);
  view.offsets.assign(strides.size(), IntLiteral(0));
  view.strides = std::move(strides);
  for (size_t d = 0; d < view.strides.size(); ++d) {
    view.kept.push_back(static_cast<int>(d));
  }
  view.root = root;
  return view;
}

std::vector<CExpr> RowMajorStrides(const std::vector<CExpr>& dims) {
  std::vector<CExpr> strides(dims.size(), IntLiteral(1));
  for (size_t d = dims.size(); d > 1; --d) {
    strides[d - 2] = Multiply(dims[d - 1], strides[d - 1]);
  }
  return strides;
}

Scope::Scope(const absl::flat_hash_set<std::string>& globals)
    : globals_(globals), blocks_(1) {}

void Scope::Push() { blocks_.emplace_back(); }

void Scope::Pop() { blocks_.pop_back(); }

bool Scope::Visible(absl::string_view c_name) const {
  if (globals_.contains(c_name)) return true;
  for (const Block& block : blocks_) {
    if (block.c_names.contains(c_name)) return true;
  }
  return false;
}

Binding* Scope::Bind(const ir::Node& binder, Binding binding) {
  binding.c_name = Fresh(binder.name());
  return BindAlias(binder, std::move(binding));
}

Binding* Scope::BindAlias(const ir::Node& binder, Binding binding) {
  Binding* stored = &bindings_.emplace_back(std::move(binding));
  blocks_.back().binders[&binder] = stored;
  return stored;
}

std::string Scope::Fresh(absl::string_view base) {
  std::string name = UniqueIdentifier(
      base, [this](absl::string_view name) { return Visible(name); });
  blocks_.back().c_names.insert(name);
  return name;
}

Binding* Scope::Lookup(const ir::Node& binder) const {
  for (auto block = blocks_.rbegin(); block != blocks_.rend(); ++block) {
    auto it = block->binders.find(&binder);
    if (it != block->binders.end()) return it->second;
  }
  return nullptr;
}

void Scope::Commit(const Uses& uses, Needs& needs) {
  needs.Merge(uses.needs);
  for (Binding* binding : uses.writes) binding->used = true;
  for (Binding* binding : uses.reads) {
    binding->used = true;
    binding->read = true;
  }
}

}  // namespace tessel::emitc
