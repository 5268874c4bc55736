#include "libs/polysimd/unimodular.h"

#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "isl/aff.h"
#include "isl/constraint.h"
#include "isl/local_space.h"
#include "isl/map.h"
#include "isl/mat.h"
#include "isl/set.h"
#include "isl/val.h"

namespace tessel::polysimd {
namespace {

// The most normals whose combinations are tried: C(8, 4) = 70 candidate
// transformations of a four-dimensional set keep polysimd fast.
constexpr size_t kMaxNormals = 8;

using Normal = std::vector<isl::val>;

bool SameNormal(const Normal& a, const Normal& b) {
  for (size_t k = 0; k < a.size(); ++k) {
    if (!a[k].eq(b[k])) return false;
  }
  return true;
}

// The normals of the constraints of `set` over its variables (those that
// involve no existentially quantified variable), each divided by the gcd
// of its coefficients and with its first non-zero one positive, once.
std::vector<Normal> Normals(const isl::set& set) {
  struct Collect {
    int dims;
    std::vector<Normal> normals;
  } collect{static_cast<int>(set.tuple_dim()), {}};
  isl_set_foreach_basic_set(
      set.get(),
      [](isl_basic_set* basic, void* user) -> isl_stat {
        isl_stat status = isl_basic_set_foreach_constraint(
            basic,
            [](isl_constraint* constraint, void* user) -> isl_stat {
              auto& collect = *static_cast<Collect*>(user);
              isl_size divs = isl_constraint_dim(constraint, isl_dim_div);
              bool uses_divs =
                  divs > 0 && isl_constraint_involves_dims(
                                  constraint, isl_dim_div, 0, divs) ==
                                  isl_bool_true;
              Normal normal;
              isl::val gcd = isl::val::zero(
                  isl::ctx(isl_constraint_get_ctx(constraint)));
              for (int k = 0; k < collect.dims; ++k) {
                normal.push_back(isl::manage(isl_constraint_get_coefficient_val(
                    constraint, isl_dim_set, k)));
                gcd = gcd.gcd(normal.back());
              }
              isl_constraint_free(constraint);
              if (uses_divs || gcd.is_zero()) return isl_stat_ok;
              bool negate = false;
              for (isl::val& value : normal) {
                value = value.div(gcd);
                if (!negate && !value.is_zero()) {
                  negate = value.is_neg();
                }
              }
              if (negate) {
                for (isl::val& value : normal) value = value.neg();
              }
              for (const Normal& seen : collect.normals) {
                if (SameNormal(seen, normal)) return isl_stat_ok;
              }
              collect.normals.push_back(std::move(normal));
              return isl_stat_ok;
            },
            user);
        isl_basic_set_free(basic);
        return status;
      },
      &collect);
  if (collect.normals.size() > kMaxNormals) collect.normals.resize(kMaxNormals);
  return std::move(collect.normals);
}

// Whether the rows `rows` make a unimodular matrix: the diagonal of its
// Hermite normal form is +-1.
bool IsUnimodular(isl::ctx ctx, const std::vector<const Normal*>& rows) {
  const int n = static_cast<int>(rows.size());
  isl_mat* mat = isl_mat_alloc(ctx.get(), n, n);
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      mat = isl_mat_set_element_val(mat, r, c, (*rows[r])[c].copy());
    }
  }
  isl_mat* hermite = isl_mat_left_hermite(mat, 0, nullptr, nullptr);
  bool unimodular = hermite != nullptr;
  for (int k = 0; unimodular && k < n; ++k) {
    unimodular = isl::manage(isl_mat_get_element_val(hermite, k, k))
                     .abs()
                     .is_one();
  }
  isl_mat_free(hermite);
  return unimodular;
}

// Whether every row is a unit vector: the variables permuted and negated,
// which changes no box.
bool PermutesOnly(const std::vector<const Normal*>& rows) {
  for (const Normal* row : rows) {
    int nonzero = 0;
    for (const isl::val& value : *row) nonzero += value.is_zero() ? 0 : 1;
    if (nonzero != 1) return false;
  }
  return true;
}

// y = T z on the space of `set`, T's rows `rows`.
isl::multi_aff Transformation(const isl::set& set,
                              const std::vector<const Normal*>& rows) {
  isl::space space = set.space();
  isl::aff_list list(set.ctx(), static_cast<int>(rows.size()));
  for (const Normal* row : rows) {
    isl::aff y = isl::manage(isl_aff_zero_on_domain_space(space.copy()));
    for (size_t k = 0; k < row->size(); ++k) {
      isl::aff z = isl::manage(isl_aff_var_on_domain(
          isl_local_space_from_space(space.copy()), isl_dim_set,
          static_cast<unsigned>(k)));
      y = y.add(z.scale((*row)[k]));
    }
    list = list.add(y);
  }
  return isl::multi_aff(
      isl::manage(isl_space_map_from_set(space.copy())), list);
}

// The points of the fixed-size box hull of `set`, or -1 without one.
int64_t BoxHullPoints(const isl::set& set) {
  isl::fixed_box box = set.simple_fixed_box_hull();
  if (!box.is_valid()) return -1;
  int64_t points = 1;
  isl::multi_val size = box.size();
  for (int k = 0; k < static_cast<int>(size.size()); ++k) {
    points *= size.at(k).get_num_si();
  }
  return points;
}

// Calls `visit` with every choice of `count` of `normals`, in order.
template <typename Visit>
void ForEachChoice(const std::vector<Normal>& normals, size_t count,
                   std::vector<const Normal*>& chosen, size_t from,
                   Visit& visit) {
  if (chosen.size() == count) {
    visit(chosen);
    return;
  }
  for (size_t k = from; k < normals.size(); ++k) {
    chosen.push_back(&normals[k]);
    ForEachChoice(normals, count, chosen, k + 1, visit);
    chosen.pop_back();
  }
}

}  // namespace

bool IsBoxOfItsBounds(const isl::set& set, const isl::set& known) {
  isl_size n = isl_set_dim(set.get(), isl_dim_set);
  isl::pw_aff_list lows(set.ctx(), n), highs(set.ctx(), n);
  for (int d = 0; d < n; ++d) {
    lows = lows.add(isl::manage(isl_set_dim_min(set.copy(), d)));
    highs = highs.add(isl::manage(isl_set_dim_max(set.copy(), d)));
  }
  isl::space space = set.space();
  isl::set box = isl::manage(isl_set_upper_bound_multi_pw_aff(
      isl_set_lower_bound_multi_pw_aff(
          isl_set_universe(space.copy()),
          isl::multi_pw_aff(space, lows).release()),
      isl::multi_pw_aff(space, highs).release()));
  return box.intersect_params(known).is_subset(set);
}

std::optional<Unimodular> FindUnimodular(const isl::set& set,
                                         const isl::set& known) {
  const size_t dims = set.tuple_dim();
  if (dims < 2 || IsBoxOfItsBounds(set, known)) return std::nullopt;
  const std::vector<Normal> normals = Normals(set.gist_params(known));
  const int64_t own = BoxHullPoints(set);
  std::optional<Unimodular> best;
  int64_t best_points = own;
  bool box = false;
  std::vector<const Normal*> chosen;
  auto visit = [&](const std::vector<const Normal*>& rows) {
    if (box || PermutesOnly(rows) || !IsUnimodular(set.ctx(), rows)) return;
    isl::multi_aff forward = Transformation(set, rows);
    isl::map map = isl::manage(isl_map_from_multi_aff(forward.copy()));
    isl::set image = set.apply(map).coalesce();
    box = IsBoxOfItsBounds(image, known);
    const int64_t points = BoxHullPoints(image);
    if (!box && (points < 0 || (best_points >= 0 && points >= best_points))) {
      return;
    }
    best_points = points;
    isl::pw_multi_aff inverse = map.reverse().as_pw_multi_aff();
    best = Unimodular{
        forward, inverse.as_multi_aff(), image,
        box ? std::string("its image is a box")
            : absl::StrCat("its image's fixed-size box hull has ", points,
                           " points",
                           own < 0 ? ", and the set has none"
                                   : absl::StrCat(" instead of ", own))};
  };
  ForEachChoice(normals, dims, chosen, 0, visit);
  return best;
}

}  // namespace tessel::polysimd
