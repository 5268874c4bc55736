#include "libs/poly/poly.h"

#include <isl/ctx.h>
#include <isl/map.h>
#include <isl/options.h>
#include <isl/point.h>
#include <isl/set.h>
#include <isl/space.h>
#include <isl/val.h>

#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::poly {
namespace {

// isl counts the elementary steps of its algorithms; a query that needs more
// than this many is abandoned. Real kernels need a few thousand.
constexpr unsigned long kMaxOperations = 20'000'000;

// isl objects are reference counted and freed by their own *_free function;
// Owned<> releases one reference. Functions that consume an argument
// (__isl_take) are passed `x.release()`, the others `x.get()`.
template <typename T, T* (*Free)(T*)>
struct Deleter {
  void operator()(T* object) const { Free(object); }
};
template <typename T, T* (*Free)(T*)>
using Owned = std::unique_ptr<T, Deleter<T, Free>>;

using Set = Owned<isl_set, isl_set_free>;
using Map = Owned<isl_map, isl_map_free>;
using Point = Owned<isl_point, isl_point_free>;
using Val = Owned<isl_val, isl_val_free>;

// The status for the error isl just reported (every isl function returns
// null or isl_bool_error after one, since errors do not abort).
absl::Status IslError(isl_ctx* ctx, absl::string_view doing) {
  if (isl_ctx_last_error(ctx) == isl_error_quota) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "isl gave up ", doing, ": the constraints are too complex"));
  }
  const char* message = isl_ctx_last_error_msg(ctx);
  return absl::InternalError(absl::StrCat(
      "isl failed ", doing, ": ", message != nullptr ? message : "error"));
}

// Every query starts with a fresh error state and operation budget.
void BeginQuery(isl_ctx* ctx) {
  isl_ctx_reset_error(ctx);
  isl_ctx_reset_operations(ctx);
}

absl::StatusOr<Set> ReadSet(Context& context, absl::string_view text) {
  Set set(context.ReadSet(text));
  if (set == nullptr) {
    return IslError(context.get(),
                    absl::StrCat("to read the set '", text, "'"));
  }
  return set;
}

absl::StatusOr<Map> ReadMap(isl_ctx* ctx, absl::string_view text) {
  Map map(isl_map_read_from_str(ctx, std::string(text).c_str()));
  if (map == nullptr) {
    return IslError(ctx, absl::StrCat("to read the map '", text, "'"));
  }
  return map;
}

// Checks the result of an isl operation that returns an object.
template <typename T>
absl::StatusOr<T> Checked(isl_ctx* ctx, T result, absl::string_view doing) {
  if (result == nullptr) return IslError(ctx, doing);
  return result;
}

absl::StatusOr<bool> CheckedBool(isl_ctx* ctx, isl_bool result,
                                 absl::string_view doing) {
  if (result == isl_bool_error) return IslError(ctx, doing);
  return result == isl_bool_true;
}

// The name of dimension `pos` of `type` in `map`, or a positional stand-in
// for unnamed dimensions (as in "{ [i + 1] }").
std::string DimName(isl_map* map, isl_dim_type type, int pos) {
  const char* name = isl_map_get_dim_name(map, type, pos);
  return name != nullptr ? std::string(name) : absl::StrCat("d", pos);
}

std::vector<std::string> DimNames(isl_map* map, isl_dim_type type) {
  std::vector<std::string> names;
  isl_size count = isl_map_dim(map, type);
  for (int pos = 0; pos < count; ++pos) {
    names.push_back(DimName(map, type, pos));
  }
  return names;
}

// The coordinates of a point of the non-empty `set`, its parameters first.
// The lexicographically smallest point is preferred (parameters count
// first, so the report is about the smallest problem size and the earliest
// iteration); when the set is unbounded below, isl picks any point.
absl::StatusOr<std::vector<std::string>> PickPoint(isl_ctx* ctx, Set set) {
  isl_size params = isl_set_dim(set.get(), isl_dim_param);
  if (params < 0) return IslError(ctx, "to inspect a set");
  auto flat = Checked(ctx,
                      Set(isl_set_move_dims(set.release(), isl_dim_set, 0,
                                            isl_dim_param, 0, params)),
                      "to move the parameters of a set");
  if (!flat.ok()) return flat.status();
  Set least(isl_set_lexmin(isl_set_copy(flat->get())));
  if (least == nullptr) {
    if (isl_ctx_last_error(ctx) == isl_error_quota) {
      return IslError(ctx, "to find the least point of a set");
    }
    isl_ctx_reset_error(ctx);  // an unbounded optimum: sample instead
    least = *std::move(flat);
  }
  isl_size dims = isl_set_dim(least.get(), isl_dim_set);
  auto point = Checked(ctx, Point(isl_set_sample_point(least.release())),
                       "to sample a point");
  if (!point.ok()) return point.status();
  if (isl_point_is_void(point->get()) == isl_bool_true) {
    return absl::InternalError("isl found no point in a non-empty set");
  }
  std::vector<std::string> coordinates;
  for (int pos = 0; pos < dims; ++pos) {
    Val value(isl_point_get_coordinate_val(point->get(), isl_dim_set, pos));
    char* text = value == nullptr ? nullptr : isl_val_to_str(value.get());
    if (text == nullptr) return IslError(ctx, "to read a point");
    coordinates.emplace_back(text);
    std::free(text);
  }
  return coordinates;
}

// "n1 = v1, n2 = v2" for names[i] and values[first + i].
std::string FormatAssignment(const std::vector<std::string>& names,
                             const std::vector<std::string>& values,
                             size_t first) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < names.size(); ++i) {
    parts.push_back(absl::StrCat(names[i], " = ", values[first + i]));
  }
  return absl::StrJoin(parts, ", ");
}

std::vector<std::string> Concat(std::vector<std::string> a,
                                const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// `access` with its domain restricted to `domain`.
absl::StatusOr<Map> RestrictedAccess(Context& context, absl::string_view domain,
                                     absl::string_view access) {
  isl_ctx* ctx = context.get();
  auto dom = ReadSet(context, domain);
  if (!dom.ok()) return dom.status();
  auto acc = ReadMap(ctx, access);
  if (!acc.ok()) return acc.status();
  return Checked(ctx,
                 Map(isl_map_intersect_domain(acc->release(), dom->release())),
                 "to restrict an access to its domain");
}

}  // namespace

// The sets a context parsed most recently, by their text. Bounded: when
// full, it starts over.
struct Context::ParsedSets {
  static constexpr size_t kCapacity = 64;

  ~ParsedSets() { Clear(); }
  void Clear() {
    for (auto& [text, set] : sets) isl_set_free(set);
    sets.clear();
  }

  absl::flat_hash_map<std::string, isl_set*> sets;
};

Context::Context()
    : ctx_(isl_ctx_alloc()), parsed_(std::make_unique<ParsedSets>()) {
  isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(ctx_, kMaxOperations);
}

Context::~Context() {
  parsed_.reset();  // its sets belong to ctx_
  isl_ctx_free(ctx_);
}

isl_set* Context::ReadSet(absl::string_view text) {
  auto it = parsed_->sets.find(text);
  if (it != parsed_->sets.end()) return isl_set_copy(it->second);
  isl_set* set = isl_set_read_from_str(ctx_, std::string(text).c_str());
  if (set == nullptr) return nullptr;
  if (parsed_->sets.size() >= ParsedSets::kCapacity) parsed_->Clear();
  parsed_->sets.emplace(std::string(text), isl_set_copy(set));
  return set;
}

absl::StatusOr<std::optional<OutOfBounds>> FindOutOfBoundsImage(
    Context& context, absl::string_view domain, absl::string_view access,
    absl::string_view bounds) {
  isl_ctx* ctx = context.get();
  BeginQuery(ctx);
  auto restricted = RestrictedAccess(context, domain, access);
  if (!restricted.ok()) return restricted.status();
  auto inside = ReadSet(context, bounds);
  if (!inside.ok()) return inside.status();
  auto outside = Checked(
      ctx,
      Map(isl_map_subtract_range(restricted->release(), inside->release())),
      "to subtract the bounds from an access");
  if (!outside.ok()) return outside.status();
  auto empty = CheckedBool(ctx, isl_map_is_empty(outside->get()),
                           "to test an access for emptiness");
  if (!empty.ok()) return empty.status();
  if (*empty) return std::nullopt;

  std::vector<std::string> names =
      Concat(DimNames(outside->get(), isl_dim_param),
             DimNames(outside->get(), isl_dim_in));
  auto wrapped =
      Checked(ctx, Set(isl_map_wrap(outside->release())), "to wrap an access");
  if (!wrapped.ok()) return wrapped.status();
  auto coordinates = PickPoint(ctx, *std::move(wrapped));
  if (!coordinates.ok()) return coordinates.status();
  OutOfBounds result;
  result.point = FormatAssignment(names, *coordinates, 0);
  result.image.assign(coordinates->begin() + names.size(), coordinates->end());
  return result;
}

absl::StatusOr<std::optional<Counterexample>> FindOutOfBounds(
    Context& context, absl::string_view domain, absl::string_view access,
    absl::string_view bounds) {
  auto found = FindOutOfBoundsImage(context, domain, access, bounds);
  if (!found.ok()) return found.status();
  if (!found->has_value()) return std::nullopt;
  return (*found)->point;
}

absl::StatusOr<std::optional<Counterexample>> FindCollision(
    Context& context, absl::string_view domain, absl::string_view access) {
  isl_ctx* ctx = context.get();
  BeginQuery(ctx);
  auto restricted = RestrictedAccess(context, domain, access);
  if (!restricted.ok()) return restricted.status();
  isl_space* space = isl_space_domain(isl_map_get_space(restricted->get()));
  // { x -> y : access(x) = access(y) and x <lex y }: pairs of distinct
  // points with a common image, the earlier one first.
  Map forward(isl_map_copy(restricted->get()));
  Map shared(isl_map_apply_range(forward.release(),
                                 isl_map_reverse(restricted->release())));
  auto pairs = Checked(
      ctx, Map(isl_map_intersect(shared.release(), isl_map_lex_lt(space))),
      "to pair the points of an access");
  if (!pairs.ok()) return pairs.status();
  auto empty = CheckedBool(ctx, isl_map_is_empty(pairs->get()),
                           "to test an access for collisions");
  if (!empty.ok()) return empty.status();
  if (*empty) return std::nullopt;

  std::vector<std::string> params = DimNames(pairs->get(), isl_dim_param);
  std::vector<std::string> dims = DimNames(pairs->get(), isl_dim_in);
  auto wrapped =
      Checked(ctx, Set(isl_map_wrap(pairs->release())), "to wrap a relation");
  if (!wrapped.ok()) return wrapped.status();
  auto coordinates = PickPoint(ctx, *std::move(wrapped));
  if (!coordinates.ok()) return coordinates.status();
  return absl::StrCat(
      FormatAssignment(Concat(params, dims), *coordinates, 0), " and ",
      FormatAssignment(dims, *coordinates, params.size() + dims.size()));
}

absl::StatusOr<bool> CoversExactly(Context& context, absl::string_view domain,
                                   absl::string_view access,
                                   absl::string_view bounds) {
  isl_ctx* ctx = context.get();
  BeginQuery(ctx);
  auto restricted = RestrictedAccess(context, domain, access);
  if (!restricted.ok()) return restricted.status();
  auto expected = ReadSet(context, bounds);
  if (!expected.ok()) return expected.status();
  auto image = Checked(ctx, Set(isl_map_range(restricted->release())),
                       "to compute the image of an access");
  if (!image.ok()) return image.status();
  return CheckedBool(ctx, isl_set_is_equal(image->get(), expected->get()),
                     "to compare an image with its bounds");
}

absl::StatusOr<bool> IsEmpty(Context& context, absl::string_view domain) {
  isl_ctx* ctx = context.get();
  BeginQuery(ctx);
  auto set = ReadSet(context, domain);
  if (!set.ok()) return set.status();
  return CheckedBool(ctx, isl_set_is_empty(set->get()),
                     "to test a set for emptiness");
}

}  // namespace tessel::poly
