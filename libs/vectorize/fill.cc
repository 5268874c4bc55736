#include "libs/vectorize/fill.h"

#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "libs/ir/op.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/vectorize/nest.h"

namespace tessel::vectorize {
namespace {

using primitives::LinearForm;

// Whether two element accesses name the same element of the same tensor
// at every iteration: equal affine forms of their indices.
bool SameElement(const ir::Node& a, const ir::Node& b) {
  if (!a.is(ir::Op::kLoad) || !b.is(ir::Op::kLoad)) return false;
  ir::LoadView x(const_cast<ir::Node&>(a)), y(const_cast<ir::Node&>(b));
  if (x.buffer() != y.buffer() ||
      x.indices().size() != y.indices().size()) {
    return false;
  }
  for (size_t d = 0; d < x.indices().size(); ++d) {
    std::optional<LinearForm> p = AffineForm(*x.indices()[d]);
    std::optional<LinearForm> q = AffineForm(*y.indices()[d]);
    if (!p.has_value() || !q.has_value() || !p->Plus(q->Times(-1)).is_zero()) {
      return false;
    }
  }
  return true;
}

// Whether some index of `access` varies with `loop`.
bool IndexedBy(const ir::Node& access, const ir::Node& loop) {
  for (const ir::Node* index :
       ir::LoadView(const_cast<ir::Node&>(access)).indices()) {
    std::optional<LinearForm> form = AffineForm(*index);
    if (form.has_value() && form->coefficient(&loop) != 0) return true;
  }
  return false;
}

}  // namespace

bool HoldsFill(const ir::Node& loop) {
  if (!loop.is(ir::Op::kFor)) return false;
  absl::Span<ir::Node* const> body = ir::ForView(const_cast<ir::Node&>(loop)).body();
  if (body.size() != 2 || !body[0]->is(ir::Op::kAssign) ||
      !body[1]->is(ir::Op::kFor)) {
    return false;
  }
  const ir::Node* reduce = body[1];
  while (reduce->is(ir::Op::kFor)) {
    absl::Span<ir::Node* const> inner =
        ir::ForView(const_cast<ir::Node&>(*reduce)).body();
    if (inner.size() != 1) return false;
    reduce = inner[0];
  }
  ir::Node& fill = *body[0];
  const ir::Node& element = *fill.operand(0);
  if (!reduce->is(ir::Op::kReduce) ||
      !SameElement(element, *reduce->operand(0))) {
    return false;
  }
  // Each iteration of the loops around the fill fills an element of its
  // own: the reduction starts from it, not from another iteration's.
  for (const ir::Node* around : LoopsOf(fill)) {
    if (!IndexedBy(element, *around)) return false;
  }
  // The value, computed where the accumulators start, must not read what
  // the nest writes.
  std::vector<ir::Node*> reads;
  LoadsIn(*fill.operand(1), reads);
  const ir::Node* tensor = ir::LoadView(const_cast<ir::Node&>(element)).buffer();
  for (ir::Node* read : reads) {
    if (ir::LoadView(*read).buffer() == tensor) return false;
  }
  return CheckVectorizable(*fill.operand(1)).ok();
}

ir::Node* FillOf(const ir::Node& stmt) {
  if (!stmt.is(ir::Op::kReduce)) return nullptr;
  std::vector<ir::Node*> loops = LoopsOf(stmt);
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    absl::Span<ir::Node* const> body = ir::ForView(**it).body();
    if (body.size() == 1) continue;
    return HoldsFill(**it) ? body[0] : nullptr;
  }
  return nullptr;
}

bool FillVectorizes(const ir::Node& fill, const ir::Node& lanes) {
  std::vector<ir::Node*> reads;
  LoadsIn(*fill.operand(1), reads);
  for (ir::Node* read : reads) {
    absl::Span<ir::Node* const> indices = ir::LoadView(*read).indices();
    for (size_t d = 0; d < indices.size(); ++d) {
      std::optional<LinearForm> form = AffineForm(*indices[d]);
      if (!form.has_value()) return false;
      const int64_t c = form->coefficient(&lanes);
      if (c != 0 && (c != 1 || d + 1 != indices.size())) return false;
    }
  }
  return true;
}

}  // namespace tessel::vectorize
