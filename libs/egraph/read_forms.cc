#include "libs/egraph/read_forms.h"

#include "absl/strings/match.h"
#include "libs/sexpr/reader.h"

namespace tessel::egraph {

namespace {

// Post-order over the forms, so that children are added before parents;
// iterative, so deep forms cannot overflow the stack.
template <typename AddVar, typename AddNode>
absl::Status Walk(const Sexpr& root, FormReader read, bool variables,
                  AddVar add_var, AddNode add_node) {
  struct Frame {
    const Sexpr* form;
    FormReading reading;
    std::vector<uint32_t> kids;
  };
  std::vector<Frame> stack;
  auto push =
      [&](const Sexpr& form) -> absl::StatusOr<std::optional<uint32_t>> {
    if (variables && form.is_symbol() && absl::StartsWith(form.text(), "?")) {
      return std::optional<uint32_t>(add_var(form.text()));
    }
    absl::StatusOr<FormReading> reading = read(form);
    if (!reading.ok()) return reading.status();
    stack.push_back({&form, std::move(*reading), {}});
    return std::optional<uint32_t>();
  };
  absl::StatusOr<std::optional<uint32_t>> first = push(root);
  if (!first.ok()) return first.status();
  if (first->has_value()) return absl::OkStatus();
  while (true) {
    Frame& top = stack.back();
    if (top.kids.size() < top.reading.children.size()) {
      const Sexpr& child = *top.reading.children[top.kids.size()];
      if (stack.size() > kMaxSexprDepth * 4) {
        return ErrorAt(child.loc(), "form nested too deeply");
      }
      absl::StatusOr<std::optional<uint32_t>> index = push(child);
      if (!index.ok()) return index.status();
      if (index->has_value()) stack.back().kids.push_back(**index);
      continue;
    }
    uint32_t index = add_node(top.reading, top.kids);
    stack.pop_back();
    if (stack.empty()) return absl::OkStatus();
    stack.back().kids.push_back(index);
  }
}

}  // namespace

absl::StatusOr<Term> ReadTerm(const Sexpr& form, FormReader read) {
  Term term;
  absl::Status s = Walk(
      form, read, /*variables=*/false, [](absl::string_view) { return 0u; },
      [&](const FormReading& r, const std::vector<uint32_t>& kids) {
        return term.Add(r.op, r.payload, kids);
      });
  if (!s.ok()) return s;
  return term;
}

absl::StatusOr<Pattern> ReadPattern(const Sexpr& form, VarTable* vars,
                                    FormReader read) {
  Pattern pattern;
  absl::Status s = Walk(
      form, read, /*variables=*/true,
      [&](absl::string_view name) {
        return pattern.AddVar(vars->Intern(name));
      },
      [&](const FormReading& r, const std::vector<uint32_t>& kids) {
        return pattern.AddNode(r.op, r.payload, kids);
      });
  if (!s.ok()) return s;
  return pattern;
}

}  // namespace tessel::egraph
