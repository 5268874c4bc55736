#include "libs/vectorize/kernel.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/op.h"
#include "libs/ir/syntax.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/sexpr/printer.h"
#include "libs/vectorize/lane_vectors.h"
#include "libs/vectorize/prefetch.h"
#include "libs/vectorize/sliding_window.h"

namespace tessel::vectorize {
namespace {

using ir::Build;
using primitives::LinearForm;

// Builds the vector code of one register tile.
class KernelBuilder {
 public:
  KernelBuilder(ir::Module& module, ir::Node& proc, const TileLoops& loops,
                const Strategy& strategy, bool masked)
      : module_(module),
        proc_(proc),
        loops_(loops),
        vectors_(LaneVectors(TripOf(*loops.lanes), strategy.width,
                             loops.partial_tail)) {
    const int64_t trip = TripOf(*loops.lanes);
    const LaneVector& last = vectors_.back();
    if (masked && last.first + last.width > trip) {
      partial_lanes_ = trip - last.first;
    }
  }

  // The vectors of each row of the tile.
  int64_t vectors() const { return static_cast<int64_t>(vectors_.size()); }

  // The lanes of vector q of a row.
  int64_t WidthOf(int64_t q) const { return vectors_[q].width; }

  // `transfer`, of vector q, with a mask of the loop's lanes when q is a
  // masked partial vector (Tail::kMask).
  ir::Node* Masked(ir::Node* transfer, int64_t q) const {
    if (partial_lanes_ == 0 || q + 1 != vectors()) return transfer;
    ir::Node* shape =
        Build::Form(module_, ir::Op::kShape, {Build::Int(module_, WidthOf(q))});
    ir::Node* mask = Build::Form(module_, ir::Op::kCreateMask,
                                 {shape, Build::Int(module_, partial_lanes_)});
    module_.Append(transfer,
                   Build::Form(module_, ir::Op::kTransferMask, {mask}));
    return transfer;
  }

  // The tap of the window loop that the indices below are at.
  void AtTap(int64_t tap) { tap_ = tap; }

  // The index `index` at row `r` and vector `q` of the tile (and the
  // current tap), as a form.
  LinearForm FormAt(const ir::Node& index, int64_t r, int64_t q) const {
    LinearForm form = *AffineForm(index);
    if (loops_.window != nullptr) {
      form = form.Substituted(
          loops_.window,
          LinearForm::Constant(LiteralOf(*ir::ForView(*loops_.window).lo()) +
                               tap_));
    }
    if (loops_.rows != nullptr) {
      form = form.Substituted(
          loops_.rows,
          LinearForm::Constant(LiteralOf(*ir::ForView(*loops_.rows).lo()) + r));
    }
    form = form.Substituted(
        loops_.lanes,
        LinearForm::Constant(LiteralOf(*ir::ForView(*loops_.lanes).lo()) +
                             vectors_[q].first));
    return form;
  }

  ir::Node* IndexAt(const ir::Node& index, int64_t r, int64_t q) const {
    return FormAt(index, r, q).Build(module_);
  }

  // A name of each element `expr` reads at point `p` of the tile, the same
  // wherever two points read the same one (what TileOrder counts).
  std::vector<std::string> ReadsAt(const ir::Node& expr, const TilePoint& p) {
    AtTap(p.tap);
    std::vector<ir::Node*> loads;
    LoadsIn(const_cast<ir::Node&>(expr), loads);
    std::vector<std::string> names;
    for (ir::Node* load : loads) {
      std::string name = ir::LoadView(*load).buffer()->name();
      for (const ir::Node* index : ir::LoadView(*load).indices()) {
        LinearForm form = FormAt(*index, p.row, p.vector);
        absl::StrAppend(&name, " ", form.constant());
        for (const auto& [var, coefficient] : form.terms()) {
          absl::StrAppend(&name, "+", coefficient, "*",
                          reinterpret_cast<uintptr_t>(var));
        }
      }
      names.push_back(std::move(name));
    }
    return names;
  }

  // The element `access` (a Load, or a scalar's Ref) at row r, vector q.
  ir::Node* AccessAt(ir::Node& access, int64_t r, int64_t q) const {
    if (!access.is(ir::Op::kLoad)) return Build::Ref(module_, *access.def());
    std::vector<ir::Node*> indices;
    for (ir::Node* index : ir::LoadView(access).indices()) {
      indices.push_back(IndexAt(*index, r, q));
    }
    return Build::Load(module_, *ir::LoadView(access).buffer(), indices);
  }

  // The leading indices of a transfer of `access` (its lane index at the
  // vector's first lane).
  std::vector<ir::Node*> TransferIndices(ir::Node& access, int64_t r,
                                         int64_t q) const {
    std::vector<ir::Node*> indices;
    for (ir::Node* index : ir::LoadView(access).indices()) {
      indices.push_back(IndexAt(*index, r, q));
    }
    return indices;
  }

  // Whether a read in `expr` is indexed by `loop`.
  static bool IndexedBy(const ir::Node& expr, ir::Node* loop) {
    if (expr.is(ir::Op::kLoad)) {
      for (const ir::Node* index :
           ir::LoadView(const_cast<ir::Node&>(expr)).indices()) {
        if (AffineForm(*index)->coefficient(loop) != 0) return true;
      }
      return false;
    }
    for (const ir::Node* operand : expr.operands()) {
      if (IndexedBy(*operand, loop)) return true;
    }
    return false;
  }

  bool IndexedByLanes(const ir::Node& expr) const {
    return IndexedBy(expr, loops_.lanes);
  }

  // The dimension of `load` that the row loop indexes, with coefficient 1
  // and in no other dimension; -1 when it indexes none; nullopt otherwise.
  std::optional<int64_t> RowDim(ir::Node& load) const {
    int64_t dim = -1;
    int64_t d = 0;
    for (const ir::Node* index : ir::LoadView(load).indices()) {
      const int64_t c = AffineForm(*index)->coefficient(loops_.rows);
      if (c != 0) {
        if (c != 1 || dim >= 0) return std::nullopt;
        dim = d;
      }
      ++d;
    }
    return dim;
  }

  // Whether the row loop indexes each read of `expr` in one dimension
  // with coefficient 1 or not at all, so that RowsVectorAt takes it.
  bool RowsVectorable(const ir::Node& expr) const {
    if (expr.is(ir::Op::kLoad)) {
      return RowDim(const_cast<ir::Node&>(expr)).has_value();
    }
    for (const ir::Node* operand : expr.operands()) {
      if (!RowsVectorable(*operand)) return false;
    }
    return true;
  }

  // `expr` (not indexed by the lanes, RowsVectorable) over the tile's
  // `rows` rows, as a vector of `rows` lanes: a read the row loop indexes
  // is a transfer-read along that dimension (`permutation-map`), any other
  // value broadcast.
  ir::Node* RowsVectorAt(const ir::Node& expr, int64_t rows,
                         std::vector<ir::Node*>& step) {
    const ElemType elem = expr.type().elem();
    const ir::Type type = ir::Type::Vector(elem, {rows});
    if (!IndexedBy(expr, loops_.rows)) {
      return Shared(Build::Broadcast(module_, type, ScalarAt(expr, 0)), type,
                    step);
    }
    if (expr.is(ir::Op::kLoad)) {
      ir::Node& load = const_cast<ir::Node&>(expr);
      const int64_t dim = *RowDim(load);
      ir::Node* read =
          Build::TransferRead(module_, type, *ir::LoadView(load).buffer(),
                              TransferIndices(load, 0, 0), Zero(elem));
      module_.Append(read, Build::Form(module_, ir::Op::kPermutationMap,
                                       {Build::Int(module_, dim)}));
      return Shared(read, type, step);
    }
    std::vector<ir::Node*> operands;
    for (const ir::Node* operand : expr.operands()) {
      operands.push_back(RowsVectorAt(*operand, rows, step));
    }
    if (expr.is(ir::Op::kCast)) {
      return Build::Cast(module_,
                         ir::CastView(const_cast<ir::Node&>(expr)).elem(),
                         operands[0]);
    }
    return Build::Form(module_, expr.op(), operands);
  }

  ir::Module& module() const { return module_; }

  // Whether the tile's last vector is masked (Tail::kMask).
  bool masked() const { return partial_lanes_ != 0; }

  // The type of vector q of a row.
  ir::Type VectorOf(ElemType elem, int64_t q) const {
    return ir::Type::Vector(elem, {WidthOf(q)});
  }

  ir::Node* Zero(ElemType elem) const {
    return IsFloat(elem) ? Build::Float(module_, 0.0) : Build::Int(module_, 0);
  }

  // `expr` (lanes-invariant) at row r, as a scalar.
  ir::Node* ScalarAt(const ir::Node& expr, int64_t r) const {
    if (expr.is(ir::Op::kLoad)) {
      return AccessAt(const_cast<ir::Node&>(expr), r, 0);
    }
    if (expr.num_operands() == 0) return module_.Clone(&expr);
    std::vector<ir::Node*> operands;
    for (const ir::Node* operand : expr.operands()) {
      operands.push_back(ScalarAt(*operand, r));
    }
    ir::Node* node = Build::Form(module_, expr.op(), operands);
    if (expr.is(ir::Op::kCast)) node->set_declared_type(expr.declared_type());
    return node;
  }

  // A new vector variable `base...` holding `value`, declared and assigned
  // in `out`.
  ir::Node* Temporary(absl::string_view base, const ir::Type& type,
                      ir::Node* value, std::vector<ir::Node*>& out) {
    std::string name;
    do {
      name = absl::StrCat(base, next_name_++);
    } while (ir::FreshName(module_, proc_, name) != name);
    ir::Node* alloc = Build::Alloc(module_, name, type);
    out.push_back(alloc);
    out.push_back(Build::Assign(module_, Build::Ref(module_, *alloc), value));
    return alloc;
  }

  // A leaf (transfer-read, broadcast) read once per step: the variable
  // that holds it.
  ir::Node* Shared(ir::Node* leaf, const ir::Type& type,
                   std::vector<ir::Node*>& step) {
    std::string key = PrintFlat(ir::WriteNode(*leaf));
    auto it = leaves_.find(key);
    if (it == leaves_.end()) {
      it = leaves_.emplace(key, Temporary("v", type, leaf, step)).first;
    }
    return Build::Ref(module_, *it->second);
  }

  // `expr` at row r, vector q, as a vector of vector q's lanes.
  ir::Node* VectorAt(const ir::Node& expr, int64_t r, int64_t q,
                     std::vector<ir::Node*>& step) {
    ElemType elem = expr.type().elem();
    const ir::Type type = VectorOf(elem, q);
    if (!IndexedByLanes(expr)) {
      // A narrower vector's broadcast is the first lanes of the row's
      // first vector's, which the compiler reads from its register: one
      // broadcast per row and step, not one per width (with one per
      // width, 150^3's tile of 16 + 4 lanes ran at 0.97x the two nests
      // it replaces; with one, as fast).
      const ir::Type first = VectorOf(elem, 0);
      ir::Node* broadcast = Shared(
          Build::Broadcast(module_, first, ScalarAt(expr, r)), first, step);
      if (WidthOf(q) == WidthOf(0)) return broadcast;
      return Shared(Build::Form(module_, ir::Op::kExtractStridedSlice,
                                {broadcast, Build::List(module_, {0}),
                                 Build::List(module_, {WidthOf(q)}),
                                 Build::List(module_, {1})}),
                    type, step);
    }
    if (expr.is(ir::Op::kLoad)) {
      ir::Node& load = const_cast<ir::Node&>(expr);
      return Shared(Masked(Build::TransferRead(module_, type,
                                               *ir::LoadView(load).buffer(),
                                               TransferIndices(load, r, q),
                                               Zero(elem)),
                           q),
                    type, step);
    }
    std::vector<ir::Node*> operands;
    for (const ir::Node* operand : expr.operands()) {
      operands.push_back(VectorAt(*operand, r, q, step));
    }
    if (expr.is(ir::Op::kCast)) {
      return Build::Cast(module_, ir::CastView(const_cast<ir::Node&>(expr)).elem(),
                         operands[0]);
    }
    return Build::Form(module_, expr.op(), operands);
  }

 private:
  ir::Module& module_;
  ir::Node& proc_;
  const TileLoops& loops_;
  std::vector<LaneVector> vectors_;
  // The lanes of the last vector inside the loop, when it is masked.
  int64_t partial_lanes_ = 0;
  int64_t tap_ = 0;
  int next_name_ = 0;
  absl::flat_hash_map<std::string, ir::Node*> leaves_;
};

// Replaces `old` (a statement) by `stmts`, in order.
void ReplaceBy(ir::Module& module, ir::Node& old,
               const std::vector<ir::Node*>& stmts) {
  ir::Node* parent = old.parent();
  size_t position = old.position();
  module.Detach(&old);
  for (size_t i = 0; i < stmts.size(); ++i) {
    module.Insert(parent, position + i, stmts[i]);
  }
}

// The statements of a register tile: before the reduction loops, in the
// step, after them.
struct TileCode {
  std::vector<ir::Node*> prologue, step, epilogue;
};

// Puts `code` in place of the register tile.
void Place(ir::Module& module, const TileLoops& loops, const TileCode& code) {
  ir::Node& tile = loops.window != nullptr ? *loops.window
                   : loops.rows != nullptr ? *loops.rows
                                           : *loops.lanes;
  if (loops.hoist == &tile) {
    std::vector<ir::Node*> all = code.prologue;
    all.insert(all.end(), code.step.begin(), code.step.end());
    all.insert(all.end(), code.epilogue.begin(), code.epilogue.end());
    ReplaceBy(module, tile, all);
    return;
  }
  ReplaceBy(module, tile, code.step);
  ir::Node* parent = loops.hoist->parent();
  size_t position = loops.hoist->position();
  for (size_t i = 0; i < code.epilogue.size(); ++i) {
    module.Insert(parent, position + 1 + i, code.epilogue[i]);
  }
  for (size_t i = 0; i < code.prologue.size(); ++i) {
    module.Insert(parent, position + i, code.prologue[i]);
  }
}

// The value of the tile's fill (TileLoops::fill) in the tile's rows and
// lanes loops, its loops (the statement before `hoist`) removed; null
// without a fill.
absl::StatusOr<ir::Node*> TakeFill(ir::Module& module, const TileLoops& loops) {
  if (loops.fill == nullptr) return nullptr;
  std::vector<ir::Node*> tile;
  if (loops.rows != nullptr) tile.push_back(loops.rows);
  tile.push_back(loops.lanes);
  std::vector<ir::Node*> around = LoopsOf(*loops.fill);
  const size_t outer = around.size() - std::min(around.size(), tile.size());
  ir::Node* root = around.empty() ? loops.fill : around[outer];
  bool placed = around.size() >= tile.size() &&
                root->parent() == loops.hoist->parent() &&
                root->position() + 1 == loops.hoist->position();
  for (size_t i = 0; placed && i < tile.size(); ++i) {
    ir::ForView from(*around[outer + i]), to(*tile[i]);
    placed = LiteralOf(*from.lo()) == LiteralOf(*to.lo()) &&
             LiteralOf(*from.hi()) == LiteralOf(*to.hi());
  }
  if (!placed) {
    return absl::InternalError(
        "vectorize: a fill is not in loops of its register tile just "
        "before the reduction loops (a bug)");
  }
  ir::Node* value = loops.fill->operand(1);
  for (size_t i = 0; i < tile.size(); ++i) {
    value = ir::Substitute(module, value, around[outer + i],
                           *Build::Ref(module, *tile[i]));
  }
  module.Detach(root);
  return value;
}

// The fill's value at row r, vector q: a broadcast of its own where the
// lanes do not index it (each accumulator visibly starts from it).
ir::Node* FillVector(KernelBuilder& builder, const ir::Node& fill, int64_t r,
                     int64_t q, std::vector<ir::Node*>& prologue) {
  if (builder.IndexedByLanes(fill)) return builder.VectorAt(fill, r, q, prologue);
  return Build::Broadcast(builder.module(),
                          builder.VectorOf(fill.type().elem(), q),
                          builder.ScalarAt(fill, r));
}

// The tile of `C += X * Y` at the contract or the outer-product level
// (Lowering::kContract, kOuterProduct), where one factor is indexed by the
// lanes and not the rows, the other not by the lanes and by the rows (if
// at all) along one dimension of each read, and C's rows run along its
// next-to-last dimension: per vector q of the tile a 2-D accumulator of
// rows x q's lanes, read (or started from a fill of one value for the
// whole tile) and written by transfers of C around the reduction loops,
// and per step `(outer-product X_rows Y_q acc_q)` (fma: one rounding per
// lane, as each row's fma of the next level) or `(+ acc_q (outer-product
// X_rows Y_q))` (mul-add), or, a level above (mul-add only), the
// contraction of X_rows as a rows x 1 column with Y_q as a 1 x width row,
// `(contract X Y acc_q (list 0 2) (list 2 1) (list 0 1))`, whose one
// reduction step is that product and sum. False, with no code, for other
// tiles.
bool OuterProductTile(ir::Module& module, KernelBuilder& builder,
                      ir::Node& stmt, const NestPlan& plan,
                      const TileLoops& loops, const ir::Node* fill, bool fma,
                      bool contract, TileCode& code) {
  ir::Node& lhs = *stmt.operand(0);
  ir::Node& rhs = *stmt.operand(1);
  // A sliding window's taps are unrolled in the FMA form only.
  if (!stmt.is(ir::Op::kReduce) || !rhs.is(ir::Op::kMul) ||
      plan.mode != Mode::kLanes || loops.rows == nullptr ||
      loops.window != nullptr || builder.masked()) {
    return false;
  }
  const bool first_lanes = builder.IndexedByLanes(*rhs.operand(0));
  const ir::Node& lanes_factor = *rhs.operand(first_lanes ? 0 : 1);
  const ir::Node& rows_factor = *rhs.operand(first_lanes ? 1 : 0);
  std::optional<int64_t> row_dim = builder.RowDim(lhs);
  const int64_t rank =
      static_cast<int64_t>(ir::LoadView(lhs).indices().size());
  if (!builder.IndexedByLanes(lanes_factor) ||
      builder.IndexedByLanes(rows_factor) ||
      KernelBuilder::IndexedBy(lanes_factor, loops.rows) ||
      !builder.RowsVectorable(rows_factor) || row_dim != rank - 2 ||
      (fill != nullptr && (builder.IndexedByLanes(*fill) ||
                           KernelBuilder::IndexedBy(*fill, loops.rows)))) {
    return false;
  }
  const ElemType elem = lhs.type().elem();
  const int64_t rows = TripOf(*loops.rows);
  const ir::Node& c = *ir::LoadView(lhs).buffer();
  for (int64_t q = 0; q < builder.vectors(); ++q) {
    const ir::Type tile = ir::Type::Vector(elem, {rows, builder.WidthOf(q)});
    ir::Node* acc = builder.Temporary(
        "acc", tile,
        fill != nullptr
            ? Build::Broadcast(module, tile, builder.ScalarAt(*fill, 0))
            : Build::TransferRead(module, tile, c,
                                  builder.TransferIndices(lhs, 0, q),
                                  builder.Zero(elem)),
        code.prologue);
    ir::Node* x = builder.RowsVectorAt(rows_factor, rows, code.step);
    ir::Node* y = builder.VectorAt(lanes_factor, 0, q, code.step);
    ir::Node* sum =
        contract
            ? Build::Form(
                  module, ir::Op::kContract,
                  {Build::ShapeCast(module, ir::Type::Vector(elem, {rows, 1}),
                                    x),
                   Build::ShapeCast(
                       module, ir::Type::Vector(elem, {1, builder.WidthOf(q)}),
                       y),
                   Build::Ref(module, *acc), Build::List(module, {0, 2}),
                   Build::List(module, {2, 1}), Build::List(module, {0, 1})})
        : fma ? Build::Form(module, ir::Op::kOuterProduct,
                            {x, y, Build::Ref(module, *acc)})
              : Build::Add(module, Build::Ref(module, *acc),
                           Build::Form(module, ir::Op::kOuterProduct, {x, y}));
    code.step.push_back(Build::Assign(module, Build::Ref(module, *acc), sum));
    code.epilogue.push_back(Build::TransferWrite(
        module, Build::Ref(module, *acc), c,
        builder.TransferIndices(lhs, 0, q)));
  }
  return true;
}

}  // namespace

absl::Status EmitKernel(ir::Module& module, ir::Node& proc, ir::Node& stmt,
                        const NestPlan& plan, const TileLoops& loops,
                        const Strategy& strategy) {
  KernelBuilder builder(module, proc, loops, strategy,
                        strategy.tail == Tail::kMask && plan.maskable);
  ir::Node& lhs = *stmt.operand(0);
  ir::Node& rhs = *stmt.operand(1);
  ElemType elem = lhs.type().elem();
  int64_t rows = loops.rows != nullptr ? TripOf(*loops.rows) : 1;
  int64_t vectors = builder.vectors();
  bool reduce = stmt.is(ir::Op::kReduce);
  // f16 keeps its two roundings: its FMA would be computed wider and
  // rounded once, and f16's ulp makes that a visible difference.
  bool fma = reduce && strategy.contraction == Contraction::kFma &&
             (elem == ElemType::kF32 || elem == ElemType::kF64) &&
             rhs.is(ir::Op::kMul);

  auto fill = TakeFill(module, loops);
  if (!fill.ok()) return fill.status();
  TileCode code;
  code.step = TilePrefetches(module, stmt, loops, strategy);
  // ParseStrategy takes `lowering contract` only with `contraction
  // mul-add`; a reduce of another type or op has no fma either way.
  if (strategy.lowering != Lowering::kFma &&
      OuterProductTile(module, builder, stmt, plan, loops, *fill, fma,
                       strategy.lowering == Lowering::kContract && !fma,
                       code)) {
    Place(module, loops, code);
    return absl::OkStatus();
  }
  std::vector<ir::Node*>& prologue = code.prologue;
  std::vector<ir::Node*>& step = code.step;
  std::vector<ir::Node*>& epilogue = code.epilogue;
  // The accumulators, [r][q], live around the reduction loops.
  std::vector<std::vector<ir::Node*>> acc(rows);
  for (int64_t r = 0; r < rows && reduce; ++r) {
    for (int64_t q = 0; q < vectors; ++q) {
      ir::Node* init =
          *fill != nullptr ? FillVector(builder, **fill, r, q, prologue)
          : plan.mode == Mode::kLanes
              ? builder.Masked(
                    Build::TransferRead(module, builder.VectorOf(elem, q),
                                        *ir::LoadView(lhs).buffer(),
                                        builder.TransferIndices(lhs, r, q),
                                        builder.Zero(elem)),
                    q)
              : Build::Broadcast(module, builder.VectorOf(elem, q),
                                 builder.Zero(elem));
      acc[r].push_back(
          builder.Temporary("acc", builder.VectorOf(elem, q), init, prologue));
    }
  }
  const int64_t taps = loops.window != nullptr ? TripOf(*loops.window) : 1;
  for (const TilePoint& point :
       TileOrder(taps, rows, vectors, [&](const TilePoint& p) {
         return builder.ReadsAt(rhs, p);
       })) {
    const int64_t r = point.row, q = point.vector;
    builder.AtTap(point.tap);
    if (!reduce) {
      ir::Node* value = builder.VectorAt(rhs, r, q, step);
      step.push_back(builder.Masked(
          Build::TransferWrite(module, value, *ir::LoadView(lhs).buffer(),
                               builder.TransferIndices(lhs, r, q)),
          q));
      continue;
    }
    // The factors' reads in the order the statement reads them.
    ir::Node* sum = nullptr;
    if (fma) {
      ir::Node* a = builder.VectorAt(*rhs.operand(0), r, q, step);
      ir::Node* b = builder.VectorAt(*rhs.operand(1), r, q, step);
      sum = Build::Fma(module, a, b, Build::Ref(module, *acc[r][q]));
    } else {
      sum = Build::Add(module, Build::Ref(module, *acc[r][q]),
                       builder.VectorAt(rhs, r, q, step));
    }
    step.push_back(
        Build::Assign(module, Build::Ref(module, *acc[r][q]), sum));
  }
  // A square tile of rows summed along their lanes (row sums, gemv): one
  // multi-reduction of the rows x width tile into the rows of the written
  // tensor, which emit-c lowers to a transpose and whole-vector adds
  // (section 3.5), instead of one reduction across the lanes per row.
  const int64_t rank =
      lhs.is(ir::Op::kLoad)
          ? static_cast<int64_t>(ir::LoadView(lhs).indices().size())
          : 0;
  const bool multi_reduction =
      reduce && plan.mode != Mode::kLanes && loops.rows != nullptr &&
      rows == strategy.width && rows > 1 && (rows & (rows - 1)) == 0 &&
      rank > 0 && builder.RowDim(lhs) == rank - 1;
  for (int64_t r = 0; r < rows && reduce; ++r) {
    if (plan.mode == Mode::kLanes) {
      for (int64_t q = 0; q < vectors; ++q) {
        epilogue.push_back(builder.Masked(
            Build::TransferWrite(module, Build::Ref(module, *acc[r][q]),
                                 *ir::LoadView(lhs).buffer(),
                                 builder.TransferIndices(lhs, r, q)),
            q));
      }
      continue;
    }
    for (int64_t q = 1; q < vectors; ++q) {
      epilogue.push_back(Build::Assign(
          module, Build::Ref(module, *acc[r][0]),
          Build::Add(module, Build::Ref(module, *acc[r][0]),
                     Build::Ref(module, *acc[r][q]))));
    }
    if (multi_reduction) continue;
    epilogue.push_back(Build::Reduce(
        module, builder.AccessAt(lhs, r, 0),
        Build::Reduction(module, "add", Build::Ref(module, *acc[r][0]))));
  }

  if (multi_reduction) {
    const ir::Type tile = ir::Type::Vector(elem, {rows, strategy.width});
    ir::Node* sums = builder.Temporary(
        "sums", tile, Build::Broadcast(module, tile, builder.Zero(elem)),
        epilogue);
    for (int64_t r = 0; r < rows; ++r) {
      epilogue.push_back(Build::Assign(
          module, Build::Ref(module, *sums),
          Build::Form(module, ir::Op::kInsert,
                      {Build::Ref(module, *acc[r][0]),
                       Build::Ref(module, *sums), Build::Int(module, r)})));
    }
    const ir::Node& y = *ir::LoadView(lhs).buffer();
    ir::Node* reduction =
        Build::Form(module, ir::Op::kMultiReduction,
                    {Build::Ref(module, *sums),
                     Build::TransferRead(module, ir::Type::Vector(elem, {rows}),
                                         y, builder.TransferIndices(lhs, 0, 0),
                                         builder.Zero(elem)),
                     Build::List(module, {1})});
    reduction->set_name("add");
    epilogue.push_back(Build::TransferWrite(
        module, reduction, y, builder.TransferIndices(lhs, 0, 0)));
  }
  Place(module, loops, code);
  return absl::OkStatus();
}

}  // namespace tessel::vectorize
