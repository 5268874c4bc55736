#include "libs/saturate/de_bruijn_terms.h"

#include <vector>

namespace tessel::saturate {
namespace {

// Copies the subterm at `i` of `from` into `to`, rewriting each variable
// %K found under `depth` lams of the copy with `var(K, depth)`, which adds
// the replacement to `to` and returns its index.
template <typename VarFn>
uint32_t Rewrite(const egraph::Term& from, uint32_t i, int64_t depth,
                 const TirEncoding& encoding, egraph::Term& to, VarFn& var) {
  const egraph::Term::Node& node = from.node(i);
  if (node.op == encoding.var_op()) {
    return var(encoding.VarIndex(node.payload), depth);
  }
  int64_t inner = encoding.IsLam(node.op) ? depth + 1 : depth;
  std::vector<uint32_t> children;
  children.reserve(node.arity);
  for (uint32_t child : from.children(i)) {
    children.push_back(Rewrite(from, child, inner, encoding, to, var));
  }
  return to.Add(node.op, node.payload, children);
}

// Copies the whole of `from` into `to`; returns the root's index there.
uint32_t Copy(const egraph::Term& from, egraph::Term& to) {
  std::vector<uint32_t> index(from.size());
  for (uint32_t i = 0; i < from.size(); ++i) {
    std::vector<uint32_t> children;
    for (uint32_t child : from.children(i)) children.push_back(index[child]);
    index[i] = to.Add(from.node(i).op, from.node(i).payload, children);
  }
  return index[from.root()];
}

}  // namespace

std::optional<egraph::Term> ExtractAvoiding(const egraph::EGraph& g,
                                            const TirEncoding& encoding,
                                            egraph::ClassId id, int64_t bound) {
  return AvoidingExtractor(g, encoding).Extract(id, bound);
}

const std::optional<egraph::Term>& AvoidingTerms::Get(
    const egraph::EGraph& g, const TirEncoding& encoding, egraph::ClassId id,
    int64_t bound) {
  if (g.serial() != graph_ || g.epoch() != epoch_) {
    terms_.clear();
    extractor_.reset();
    graph_ = g.serial();
    epoch_ = g.epoch();
  }
  auto [it, inserted] = terms_.try_emplace({g.Find(id), bound});
  if (!inserted) return it->second;
  // A new variable can make a window matter that did not when the
  // extractor walked the classes.
  if (!extractor_ ||
      extractor_->max_var() != AvoidingExtractor::MaxVar(g, encoding)) {
    extractor_.emplace(g, encoding);
  }
  it->second = extractor_->Extract(id, bound);
  return it->second;
}

egraph::Term ShiftTerm(const egraph::Term& term, TirEncoding& encoding,
                       int64_t by, int64_t cutoff) {
  egraph::Term shifted;
  auto var = [&](int64_t k, int64_t depth) {
    int64_t moved = k >= cutoff + depth ? k + by : k;
    return shifted.Add(encoding.var_op(), encoding.payloads().Int(moved));
  };
  Rewrite(term, term.root(), 0, encoding, shifted, var);
  return shifted;
}

egraph::Term SubstituteTerm(const egraph::Term& body, const egraph::Term& value,
                            TirEncoding& encoding) {
  egraph::Term result;
  auto var = [&](int64_t k, int64_t depth) -> uint32_t {
    if (k < depth) {
      return result.Add(encoding.var_op(), encoding.payloads().Int(k));
    }
    if (k == depth) {
      egraph::Term moved = ShiftTerm(value, encoding, depth);
      return Copy(moved, result);
    }
    return result.Add(encoding.var_op(), encoding.payloads().Int(k - 1));
  };
  Rewrite(body, body.root(), 0, encoding, result, var);
  return result;
}

}  // namespace tessel::saturate
