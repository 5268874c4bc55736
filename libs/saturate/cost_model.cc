#include "libs/saturate/cost_model.h"

#include <cmath>
#include <limits>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/egraph/egraph.h"
#include "libs/sexpr/reader.h"

namespace tessel::saturate {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A compiled price expression.
struct Expr {
  enum class Kind {
    kConstant,
    kSum,
    kProduct,
    kCost,
    kChildren,
    kValue,
    kDim,
    kElements
  };
  Kind kind = Kind::kConstant;
  double constant = 0;
  size_t child = 0;  // kCost, kValue, kDim, kElements
  int64_t k = 0;     // kDim
  std::vector<Expr> args;
};

struct Rule {
  egraph::OpId op;
  // The keywords a named call must have (blas.gemm's N T), if any.
  std::optional<egraph::PayloadId> keywords;
  size_t arity;
  Expr price;
};

// Compiles EXPR with `vars` naming the children of the rule's head.
absl::StatusOr<Expr> CompileExpr(
    const Sexpr& form, const absl::flat_hash_map<std::string, size_t>& vars) {
  if (form.is_number()) {
    double value = form.is_int() ? static_cast<double>(form.int_value())
                                 : form.float_value();
    if (!(value >= 0) || std::isinf(value)) {
      return ErrorAt(form.loc(), "a cost must be finite and non-negative");
    }
    Expr constant;
    constant.constant = value;
    return constant;
  }
  absl::string_view head = form.head();
  auto child = [&](size_t i) -> absl::StatusOr<size_t> {
    if (form.size() <= i || !form[i].is_symbol() ||
        !vars.contains(form[i].text())) {
      return ErrorAt(
          i < form.size() ? form[i].loc() : form.loc(),
          absl::StrCat("'", head, "' needs a ?variable of the rule's head"));
    }
    return vars.at(form[i].text());
  };
  Expr expr;
  if (head == "+" || head == "*") {
    expr.kind = head == "+" ? Expr::Kind::kSum : Expr::Kind::kProduct;
    if (form.size() < 2) {
      return ErrorAt(form.loc(), absl::StrCat("'", head, "' needs operands"));
    }
    for (size_t i = 1; i < form.size(); ++i) {
      auto arg = CompileExpr(form[i], vars);
      if (!arg.ok()) return arg.status();
      expr.args.push_back(*std::move(arg));
    }
    return expr;
  }
  if (head == "children" && form.size() == 1) {
    expr.kind = Expr::Kind::kChildren;
    return expr;
  }
  size_t expected_size = head == "dim" ? 3 : 2;
  if (head == "cost" || head == "value" || head == "elements" ||
      head == "dim") {
    if (form.size() != expected_size) {
      return ErrorAt(form.loc(),
                     absl::StrCat("'", head, "' takes ", expected_size - 1,
                                  " operand(s)"));
    }
    auto index = child(1);
    if (!index.ok()) return index.status();
    expr.child = *index;
    expr.kind = head == "cost"    ? Expr::Kind::kCost
                : head == "value" ? Expr::Kind::kValue
                : head == "dim"   ? Expr::Kind::kDim
                                  : Expr::Kind::kElements;
    if (head == "dim") {
      if (!form[2].is_int() || form[2].int_value() < 0) {
        return ErrorAt(form[2].loc(), "expected a dimension number");
      }
      expr.k = form[2].int_value();
    }
    return expr;
  }
  return ErrorAt(form.loc(),
                 "expected a number, (+ ...), (* ...), (cost ?c), "
                 "(children), (value ?c), (dim ?c K) or (elements ?c)");
}

class FileCostModel : public egraph::CostModel {
 public:
  FileCostModel(std::vector<Rule> rules, std::optional<Expr> fallback,
                const TirEncoding* encoding, const TirAnalysis* analysis)
      : rules_(std::move(rules)),
        fallback_(std::move(fallback)),
        encoding_(encoding),
        analysis_(analysis) {}

  double TreeCost(const egraph::EGraph& g, egraph::ClassId,
                  const egraph::ENodeRef& node,
                  absl::Span<const double> child_costs) const override {
    for (const Rule& rule : rules_) {
      if (rule.op == node.op && rule.arity == node.children.size() &&
          (!rule.keywords || *rule.keywords == node.payload)) {
        return Eval(rule.price, g, node, child_costs);
      }
    }
    // A call of a library the model does not price is not its target's.
    if (encoding_->Meaning(node.op).is_call) return kInfinity;
    if (fallback_) return Eval(*fallback_, g, node, child_costs);
    double sum = 1;
    for (double cost : child_costs) sum += cost;
    return sum;
  }

 private:
  double Eval(const Expr& expr, const egraph::EGraph& g,
              const egraph::ENodeRef& node,
              absl::Span<const double> costs) const {
    switch (expr.kind) {
      case Expr::Kind::kConstant:
        return expr.constant;
      case Expr::Kind::kSum:
      case Expr::Kind::kProduct: {
        bool sum = expr.kind == Expr::Kind::kSum;
        double result = sum ? 0 : 1;
        for (const Expr& arg : expr.args) {
          double value = Eval(arg, g, node, costs);
          result = sum ? result + value : result * value;
        }
        return result;
      }
      case Expr::Kind::kCost:
        return costs[expr.child];
      case Expr::Kind::kChildren: {
        double sum = 0;
        for (double cost : costs) sum += cost;
        return sum;
      }
      case Expr::Kind::kValue: {
        std::optional<int64_t> value =
            analysis_->Get(g, node.children[expr.child]).integer;
        return value ? static_cast<double>(*value) : kInfinity;
      }
      case Expr::Kind::kDim:
      case Expr::Kind::kElements: {
        const std::optional<ir::Type>& type =
            analysis_->Get(g, node.children[expr.child]).type;
        if (!type) return kInfinity;
        if (type->is_elem())
          return expr.kind == Expr::Kind::kDim ? kInfinity : 1;
        std::optional<std::vector<int64_t>> dims;
        if (type->is_shaped()) dims = type->ConstantDims();
        if (!dims) return kInfinity;
        if (expr.kind == Expr::Kind::kDim) {
          return expr.k < static_cast<int64_t>(dims->size())
                     ? static_cast<double>((*dims)[expr.k])
                     : kInfinity;
        }
        double product = 1;
        for (int64_t d : *dims) product *= static_cast<double>(d);
        return product;
      }
    }
    return kInfinity;
  }

  std::vector<Rule> rules_;
  std::optional<Expr> fallback_;
  const TirEncoding* encoding_;
  const TirAnalysis* analysis_;
};

}  // namespace

absl::Status CostModelLibrary::AddSource(const SourceRef& source) {
  auto forms = ReadSexprs(source);
  if (!forms.ok()) return forms.status();
  for (const Sexpr& form : *forms) {
    if (!form.is_form("costmodel") || form.size() < 2 || !form[1].is_symbol()) {
      return ErrorAt(form.loc(), "expected (costmodel NAME RULE...)");
    }
    Decl decl;
    decl.name = form[1].text();
    decl.loc = form[1].loc();
    if (Find(decl.name) != nullptr) {
      return ErrorAt(decl.loc, absl::StrCat("cost model '", decl.name,
                                            "' is already defined"));
    }
    for (size_t i = 2; i < form.size(); ++i) {
      const Sexpr& item = form[i];
      if (item.is_form("extends") && item.size() == 2 && item[1].is_symbol() &&
          i == 2) {
        decl.base = item[1].text();
        decl.base_loc = item[1].loc();
      } else if ((item.is_form("cost") && item.size() == 3 &&
                  item[1].is_list() && !item[1].head().empty()) ||
                 (item.is_form("default") && item.size() == 2)) {
        decl.rules.push_back(item);
      } else {
        return ErrorAt(item.loc(),
                       "expected (extends BASE) first, (cost (HEAD "
                       "?child...) EXPR) or (default EXPR)");
      }
    }
    models_.push_back(std::move(decl));
  }
  return absl::OkStatus();
}

std::vector<std::string> CostModelLibrary::Names() const {
  std::vector<std::string> names;
  for (const Decl& decl : models_) names.push_back(decl.name);
  return names;
}

const CostModelLibrary::Decl* CostModelLibrary::Find(
    absl::string_view name) const {
  for (const Decl& decl : models_) {
    if (decl.name == name) return &decl;
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<egraph::CostModel>> CostModelLibrary::Compile(
    absl::string_view name, TirEncoding& encoding,
    const TirAnalysis& analysis) const {
  const Decl* decl = Find(name);
  if (decl == nullptr) {
    std::string known;
    for (const std::string& model : Names()) {
      absl::StrAppend(&known, known.empty() ? "" : ", ", model);
    }
    return absl::NotFoundError(
        absl::StrCat("no cost model named '", name, "' (known: ", known, ")"));
  }
  std::vector<Rule> rules;
  std::optional<Expr> fallback;
  // The model's own rules first, then its bases'; a cycle of bases is an
  // error.
  std::vector<const Decl*> chain;
  for (const Decl* d = decl; d != nullptr;) {
    for (const Decl* seen : chain) {
      if (seen == d) {
        return ErrorAt(
            d->loc, absl::StrCat("cost model '", d->name, "' extends itself"));
      }
    }
    chain.push_back(d);
    if (d->base.empty()) break;
    const Decl* base = Find(d->base);
    if (base == nullptr) {
      return ErrorAt(d->base_loc,
                     absl::StrCat("unknown cost model '", d->base, "'"));
    }
    d = base;
  }
  for (const Decl* d : chain) {
    for (const Sexpr& item : d->rules) {
      absl::flat_hash_map<std::string, size_t> vars;
      if (item.is_form("default")) {
        if (fallback) continue;  // the most derived default wins
        auto price = CompileExpr(item[1], vars);
        if (!price.ok()) return price.status();
        fallback = *std::move(price);
        continue;
      }
      const Sexpr& head = item[1];
      std::optional<egraph::OpId> op = encoding.OpNamed(head.head());
      if (!op) {
        return ErrorAt(head[0].loc(),
                       absl::StrCat("unknown op '", head.head(), "'"));
      }
      // Keywords first (a named call's), then a variable per child.
      size_t first = 1;
      std::vector<std::string> keywords;
      while (first < head.size() && head[first].is_symbol() &&
             !absl::StartsWith(head[first].text(), "?")) {
        keywords.push_back(head[first++].text());
      }
      for (size_t i = first; i < head.size(); ++i) {
        if (!head[i].is_symbol() || head[i].text().size() < 2 ||
            head[i].text()[0] != '?' ||
            !vars.emplace(head[i].text(), i - first).second) {
          return ErrorAt(head[i].loc(),
                         "expected a distinct ?variable for each child");
        }
      }
      auto price = CompileExpr(item[2], vars);
      if (!price.ok()) return price.status();
      std::optional<egraph::PayloadId> payload;
      if (!keywords.empty()) {
        payload = encoding.payloads().Symbol(absl::StrJoin(keywords, " "));
      }
      rules.push_back({*op, payload, head.size() - first, *std::move(price)});
    }
  }
  return std::make_unique<FileCostModel>(std::move(rules), std::move(fallback),
                                         &encoding, &analysis);
}

}  // namespace tessel::saturate
