// The consistency of a placement with a kernel (CheckPlacement).
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isl/map.h"
#include "libs/placement/placement.h"
#include "libs/placement/spaces.h"
#include "libs/poly/model.h"

namespace tessel::placement {
namespace {

// The PEs of the grid as an interval per coordinate, for messages.
std::string GridText(const Placement& placement) {
  return absl::StrCat("PE[0:", placement.nx - 1, ", 0:", placement.ny - 1,
                      "]");
}

// `map` without the pairs whose image is in `set`.
isl::map SubtractRange(const isl::map& map, const isl::set& set) {
  return isl::manage(isl_map_subtract_range(map.copy(), set.copy()));
}

// The first point of the domain of `map` that has two images or more, and
// the first two of them, as FirstPoint writes them.
struct Images {
  std::string point;
  std::string one;
  std::string other;
};
std::optional<Images> TwoImages(const isl::map& map) {
  isl::map less = isl::manage(isl_map_lex_lt(map.range().space().release()));
  isl::set several = map.intersect(map.apply_range(less)).domain();
  if (several.is_empty()) return std::nullopt;
  isl::set first(Least(several));
  isl::set images = map.intersect_domain(first).range();
  isl::set one(Least(images));
  return Images{FirstPoint(first), FirstPoint(one),
                FirstPoint(images.subtract(one))};
}

// The first point of the domain of `map` and its first image.
std::pair<std::string, std::string> FirstPair(const isl::map& map) {
  isl::set first(Least(map.domain()));
  return {FirstPoint(first), FirstPoint(map.intersect_domain(first).range())};
}

class Checker {
 public:
  Checker(const Placement& placement,
          absl::Span<const KernelStatement> statements,
          absl::Span<const KernelTensor> tensors)
      : placement_(placement),
        statements_(statements),
        tensors_(tensors),
        grid_(placement.Grid()) {}

  absl::Status Run() {
    if (auto status = Statements(); !status.ok()) return status;
    for (const auto* clauses : {&placement_.inputs, &placement_.outputs}) {
      for (const TensorClause& clause : *clauses) {
        if (auto status = Tensor(clause, clauses == &placement_.inputs);
            !status.ok()) {
          return status;
        }
      }
    }
    for (const KernelTensor& tensor : tensors_) {
      const TensorClause* clause = tensor.input
                                       ? placement_.Input(tensor.name)
                                       : placement_.Output(tensor.name);
      if (clause == nullptr) {
        return ErrorAt(End(),
                       absl::StrCat("the placement says nothing of ",
                                    tensor.input ? "input '" : "output '",
                                    tensor.name, "': add '",
                                    tensor.input ? "in " : "out ", tensor.name,
                                    " stream ...' or '",
                                    tensor.input ? "in " : "out ", tensor.name,
                                    " resident ...'"));
      }
    }
    return absl::OkStatus();
  }

 private:
  Location End() const {
    const std::string& text = placement_.source->text();
    auto [line, col] =
        placement_.source->LineColumn(static_cast<uint32_t>(text.size()));
    return Location{placement_.source, line, col};
  }

  absl::Status PlaceError(const std::string& message) const {
    return ErrorAt(placement_.place_loc, message);
  }

  absl::Status Statements() {
    std::optional<absl::Status> unknown;
    placement_.place.foreach_map([&](isl::map piece) {
      if (unknown) return;
      isl::set domain = piece.domain();
      for (const KernelStatement& statement : statements_) {
        if (domain.space().is_equal(statement.instances.space())) return;
      }
      unknown = PlaceError(absl::StrCat(
          "the kernel has no statement '", SpaceText(domain.space()),
          "' (its statements: ",
          absl::StrJoin(statements_, ", ",
                        [](std::string* out, const KernelStatement& s) {
                          absl::StrAppend(out, SpaceText(s.instances.space()));
                        }),
          ")"));
    });
    if (unknown) return *unknown;
    for (const KernelStatement& statement : statements_) {
      isl::union_map placed =
          placement_.place.intersect_domain(isl::union_set(statement.instances));
      isl::set unplaced =
          statement.instances.subtract(placed.domain().extract_set(
              statement.instances.space()));
      if (!unplaced.is_empty()) {
        return PlaceError(absl::StrCat(FirstPoint(unplaced),
                                       " is not placed: no PE runs it"));
      }
      std::optional<isl::map> map = OneMap(placed);
      if (auto twice = TwoImages(*map)) {
        return PlaceError(absl::StrCat(twice->point, " is placed on ",
                                       twice->one, " and on ", twice->other,
                                       ": each instance runs on one PE"));
      }
      isl::map outside = SubtractRange(*map, grid_);
      if (!outside.is_empty()) {
        auto [instance, pe] = FirstPair(outside);
        return PlaceError(absl::StrCat(instance, " is placed on ", pe,
                                       ", outside the grid ",
                                       GridText(placement_)));
      }
    }
    return absl::OkStatus();
  }

  absl::Status Tensor(const TensorClause& clause, bool input) {
    const KernelTensor* tensor = nullptr;
    std::vector<std::string> names;
    for (const KernelTensor& candidate : tensors_) {
      if (candidate.input != input) continue;
      names.push_back(candidate.name);
      if (candidate.name == clause.tensor) tensor = &candidate;
    }
    if (tensor == nullptr) {
      return ErrorAt(clause.loc,
                     absl::StrCat("'", clause.tensor, "' is not ",
                                  input ? "an input" : "an output",
                                  " of the kernel (",
                                  input ? "inputs: " : "outputs: ",
                                  names.empty() ? "none"
                                                : absl::StrJoin(names, ", "),
                                  ")"));
    }
    const Location& at = clause.map_loc;
    if (clause.map.domain_tuple_dim() != tensor->elements.tuple_dim()) {
      return ErrorAt(at, absl::StrCat("'", clause.tensor, "' has ",
                                      tensor->elements.tuple_dim(),
                                      " dimensions, not ",
                                      clause.map.domain_tuple_dim()));
    }
    isl::map map = clause.map.intersect_domain(tensor->elements);
    isl::set missing = tensor->elements.subtract(map.domain());
    if (!missing.is_empty()) {
      return ErrorAt(
          at, absl::StrCat(FirstPoint(missing),
                           clause.stream()
                               ? (input ? " never arrives" : " never leaves")
                               : (input ? " is held by no PE"
                                        : " is kept by no PE")));
    }
    if (clause.stream()) return Stream(clause, map, input);
    isl::map outside = SubtractRange(map, grid_);
    if (!outside.is_empty()) {
      auto [element, pe] = FirstPair(outside);
      return ErrorAt(at, absl::StrCat(element,
                                      input ? " is held by " : " is kept by ",
                                      pe, ", outside the grid ",
                                      GridText(placement_)));
    }
    return input ? absl::OkStatus() : ProducedOnce(map, at, "is kept by");
  }

  // An output element is produced on one PE: kept by one, or leaving once.
  static absl::Status ProducedOnce(const isl::map& map, const Location& at,
                                   absl::string_view verb) {
    std::optional<Images> twice = TwoImages(map);
    if (!twice) return absl::OkStatus();
    return ErrorAt(at, absl::StrCat(twice->point, " ", verb, " ", twice->one,
                                    " and ", verb, " ", twice->other,
                                    ": an output element is produced on one "
                                    "PE"));
  }

  absl::Status Stream(const TensorClause& clause, const isl::map& map,
                      bool input) {
    const Location& at = clause.map_loc;
    isl::map to_pe = map.range_factor_domain();
    isl::map astray = SubtractRange(to_pe, placement_.Border());
    if (!astray.is_empty()) {
      auto [element, pe] = FirstPair(astray);
      return ErrorAt(at, absl::StrCat(element,
                                      input ? " arrives from " : " leaves to ",
                                      pe, ", which is not next to the grid ",
                                      GridText(placement_)));
    }
    if (!input) {
      if (auto status = ProducedOnce(map, at, "leaves as"); !status.ok()) {
        return status;
      }
    }
    if (auto twice = TwoImages(map.reverse())) {
      return ErrorAt(at, absl::StrCat(twice->one, " and ", twice->other,
                                      " both ",
                                      input ? "arrive as " : "leave as ",
                                      twice->point,
                                      ": the index values of elements sent "
                                      "through one PE differ"));
    }
    return absl::OkStatus();
  }

  const Placement& placement_;
  absl::Span<const KernelStatement> statements_;
  absl::Span<const KernelTensor> tensors_;
  isl::set grid_;
};

}  // namespace

absl::Status CheckPlacement(const Placement& placement,
                            absl::Span<const KernelStatement> statements,
                            absl::Span<const KernelTensor> tensors) {
  auto checked = poly::Ask<bool>(
      placement.place.ctx(), [&]() -> absl::StatusOr<bool> {
        if (auto status = Checker(placement, statements, tensors).Run();
            !status.ok()) {
          return status;
        }
        return true;
      });
  return checked.status();
}

}  // namespace tessel::placement
