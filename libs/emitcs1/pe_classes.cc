#include "libs/emitcs1/pe_classes.h"

#include <algorithm>
#include <utility>

#include "isl/cpp.h"
#include "isl/set.h"
#include "libs/ir/op.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"

namespace tessel::emitcs1 {

absl::StatusOr<PeClasses> ClassifyPes(
    const ir::Node& program, const std::vector<const ir::Node*>& tasks,
    int64_t nx, int64_t ny) {
  poly::Context context;
  isl::ctx ctx(context.get());
  poly::ProcModel model(ctx, program);
  // Per PE (row by row), which tasks run on it.
  std::vector<std::vector<bool>> runs(nx * ny,
                                      std::vector<bool>(tasks.size(), true));
  for (size_t t = 0; t < tasks.size(); ++t) {
    if (!tasks[t]->operand(0)->is(ir::Op::kRecv)) continue;
    auto domain = model.Domain(*tasks[t]->operands().back());
    if (!domain.ok()) return domain.status();
    // The domain's first two dimensions are the PE's coordinates.
    const int dims = static_cast<int>(domain->tuple_dim());
    isl::set pes = isl::manage(isl_set_project_out(domain->copy(),
                                                   isl_dim_set, 2, dims - 2));
    for (int64_t y = 0; y < ny; ++y) {
      for (int64_t x = 0; x < nx; ++x) {
        isl::set at = isl::manage(isl_set_fix_si(
            isl_set_fix_si(pes.copy(), isl_dim_set, 0, static_cast<int>(x)),
            isl_dim_set, 1, static_cast<int>(y)));
        runs[y * nx + x][t] = !at.is_empty();
      }
    }
  }
  PeClasses classes;
  for (const std::vector<bool>& pe : runs) {
    auto known = std::find(classes.runs.begin(), classes.runs.end(), pe);
    classes.class_of.push_back(
        static_cast<int>(known - classes.runs.begin()));
    if (known == classes.runs.end()) classes.runs.push_back(pe);
  }
  return classes;
}

}  // namespace tessel::emitcs1
