#include "libs/vectorize/dot_tile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/primitives/stage_mem.h"
#include "libs/vectorize/fill.h"

namespace tessel::vectorize {
namespace {

using ir::Build;
using primitives::LinearForm;

// The fewest rows of a dot tile's block: with fewer, each step reads a
// vector per two multiply-adds or fewer, and the loads bound it.
constexpr int64_t kLeastDotRows = 4;

// The dimension of `load` that `loop` indexes, when it indexes exactly one,
// with coefficient 1; -1 when it indexes none; nullopt otherwise.
std::optional<int64_t> DimOf(ir::Node& load, const ir::Node& loop) {
  int64_t dim = -1;
  int64_t d = 0;
  for (const ir::Node* index : ir::LoadView(load).indices()) {
    std::optional<LinearForm> form = AffineForm(*index);
    if (!form.has_value()) return std::nullopt;
    const int64_t c = form->coefficient(&loop);
    if (c != 0) {
      if (c != 1 || dim >= 0) return std::nullopt;
      dim = d;
    }
    ++d;
  }
  return dim;
}

// The code of one dot tile, built over the loops it replaces.
class DotTileBuilder {
 public:
  DotTileBuilder(ir::Module& module, ir::Node& proc, ir::Node& stmt,
                 int64_t width)
      : module_(module), proc_(proc), stmt_(stmt), width_(width) {
    std::vector<ir::Node*> loops = LoopsOf(stmt);
    rows_ = loops[loops.size() - 3];
    columns_ = loops[loops.size() - 2];
    reduction_ = loops[loops.size() - 1];
    ir::Node& product = *stmt.operand(1);
    const bool first_rows = DimOf(*product.operand(0), *rows_) != -1;
    row_read_ = product.operand(first_rows ? 0 : 1);
    column_read_ = product.operand(first_rows ? 1 : 0);
    elem_ = stmt.operand(0)->type().elem();
    fill_ = FillOf(stmt);
  }

  // Replaces the tile's loops by its code.
  void Emit() {
    const int64_t rows = TripOf(*rows_);
    const int64_t columns = TripOf(*columns_);
    const int64_t trip = TripOf(*reduction_);
    const int64_t k0 = LiteralOf(*ir::ForView(*reduction_).lo());
    const ir::Type vector = ir::Type::Vector(elem_, {width_});
    std::vector<ir::Node*> code;
    std::vector<ir::Node*> acc;
    for (int64_t t = 0; t < rows * columns; ++t) {
      acc.push_back(Temporary("acc", vector,
                              Build::Broadcast(module_, vector, Zero()), code));
    }
    // A loop over the reduction's vectors. Where the lanes past its end
    // lie past both tensors' ends, they read PAD (0, each product 0) and
    // the last vector is the loop's last step; otherwise the loop takes
    // the whole vectors, and a vector masked to the rest follows it. (A
    // step after the loop made GCC 12 keep the loop's vectors in memory:
    // 59 GFLOP/s on 96 x 4 x 100, 71 in one loop.)
    const int64_t whole = trip / width_;
    const int64_t rest = trip - whole * width_;
    const bool padded =
        rest > 0 && EndsWithTensor(*row_read_) && EndsWithTensor(*column_read_);
    ir::Node* loop = Build::For(
        module_, ir::FreshName(module_, proc_, reduction_->name() + "v"),
        Build::Int(module_, 0), Build::Int(module_, whole + (padded ? 1 : 0)),
        {});
    std::vector<ir::Node*> body;
    Step(LinearForm::Of(loop, width_).Plus(LinearForm::Constant(k0)),
         padded ? kPadded : kInBounds, acc, body);
    for (ir::Node* stmt : body) module_.Append(loop, stmt);
    code.push_back(loop);
    if (rest > 0 && !padded) {
      Step(LinearForm::Constant(k0 + whole * width_), rest, acc, code);
    }
    Epilogue(acc, code);
    ir::Node* parent = rows_->parent();
    const size_t position = rows_->position();
    module_.Detach(rows_);
    for (size_t s = 0; s < code.size(); ++s) {
      module_.Insert(parent, position + s, code[s]);
    }
  }

 private:
  ir::Node* Zero() const {
    return IsFloat(elem_) ? Build::Float(module_, 0.0) : Build::Int(module_, 0);
  }

  // A new vector variable `base...` holding `value`, declared and assigned
  // in `out`.
  ir::Node* Temporary(absl::string_view base, const ir::Type& type,
                      ir::Node* value, std::vector<ir::Node*>& out) {
    const std::string name =
        ir::FreshName(module_, proc_, absl::StrCat(base, next_name_++));
    ir::Node* alloc = Build::Alloc(module_, name, type);
    out.push_back(alloc);
    out.push_back(Build::Assign(module_, Build::Ref(module_, *alloc), value));
    return alloc;
  }

  // The indices of `access` at row r, column c, the reduction at `k`.
  std::vector<ir::Node*> IndicesAt(ir::Node& access, int64_t r, int64_t c,
                                   const LinearForm& k) const {
    std::vector<ir::Node*> indices;
    for (const ir::Node* index : ir::LoadView(access).indices()) {
      LinearForm form =
          AffineForm(*index)
              ->Substituted(rows_,
                            LinearForm::Constant(
                                LiteralOf(*ir::ForView(*rows_).lo()) + r))
              .Substituted(columns_,
                           LinearForm::Constant(
                               LiteralOf(*ir::ForView(*columns_).lo()) + c))
              .Substituted(reduction_, k);
      indices.push_back(form.Build(module_));
    }
    return indices;
  }

  // How a step's reads treat their lanes: every lane inside the tensor
  // (kInBounds), lanes past its end reading PAD (kPadded), or (a positive
  // count) only so many first lanes read, the others masked.
  static constexpr int64_t kInBounds = -1;
  static constexpr int64_t kPadded = 0;

  // Whether the lanes past the reduction's end lie past the end of the
  // dimension of `access` that the reduction indexes.
  bool EndsWithTensor(ir::Node& access) const {
    const ir::LoadView load(access);
    for (size_t d = 0; d < load.indices().size(); ++d) {
      LinearForm form = *AffineForm(*load.indices()[d]);
      if (form.coefficient(reduction_) == 0) continue;
      form = form.Substituted(
          reduction_,
          LinearForm::Constant(LiteralOf(*ir::ForView(*reduction_).hi())));
      // A tensor's or window's declared dimension (a `let`'s has none).
      const std::vector<ir::Dim>& dims = load.buffer()->declared_type().dims();
      return d < dims.size() && dims[d].is_constant() &&
             form.terms().empty() && form.constant() == dims[d].value;
    }
    return false;
  }

  // A read of a vector of the width of `access` along the reduction from
  // `k` (`lanes`: kInBounds, kPadded or the lanes read).
  ir::Node* Read(ir::Node& access, int64_t r, int64_t c, const LinearForm& k,
                 int64_t lanes) const {
    ir::Node* read = Build::TransferRead(
        module_, ir::Type::Vector(elem_, {width_}),
        *ir::LoadView(access).buffer(), IndicesAt(access, r, c, k), Zero());
    if (lanes == kInBounds) {
      module_.Append(read, Build::Form(module_, ir::Op::kInBounds,
                                       {Build::Int(module_, 1)}));
    } else if (lanes > 0) {
      ir::Node* mask = Build::Form(
          module_, ir::Op::kCreateMask,
          {Build::Form(module_, ir::Op::kShape, {Build::Int(module_, width_)}),
           Build::Int(module_, lanes)});
      module_.Append(read, Build::Form(module_, ir::Op::kTransferMask, {mask}));
    }
    return read;
  }

  // One step of the reduction from `k` (its reads' `lanes`, as Read):
  // each row's and each column's vector read once, then an fma per
  // accumulator. (A last step of narrower vectors, widened with zeros or
  // folded into the accumulators' low lanes, made GCC 12 go through the
  // stack and spill the accumulators: 12 GFLOP/s on 96 x 4 x 100.)
  void Step(const LinearForm& k, int64_t lanes,
            const std::vector<ir::Node*>& acc, std::vector<ir::Node*>& out) {
    const int64_t rows = TripOf(*rows_);
    const int64_t columns = TripOf(*columns_);
    const ir::Type type = ir::Type::Vector(elem_, {width_});
    std::vector<ir::Node*> x, y;
    for (int64_t r = 0; r < rows; ++r) {
      x.push_back(Temporary("x", type, Read(*row_read_, r, 0, k, lanes), out));
    }
    for (int64_t c = 0; c < columns; ++c) {
      y.push_back(
          Temporary("y", type, Read(*column_read_, 0, c, k, lanes), out));
    }
    // Column by column: each column's vector meets every row's in turn
    // (row by row, GCC 12 kept the columns' vectors in memory and read
    // each four times: 50 against 60 GFLOP/s on 96 x 4 x 100).
    for (int64_t c = 0; c < columns; ++c) {
      for (int64_t r = 0; r < rows; ++r) {
        ir::Node& sum = *acc[r * columns + c];
        out.push_back(Build::Assign(
            module_, Build::Ref(module_, sum),
            Build::Fma(module_, Build::Ref(module_, *x[r]),
                       Build::Ref(module_, *y[c]), Build::Ref(module_, sum))));
      }
    }
  }

  // The accumulators as the rows of one square tile, halved along their
  // lanes into the rows x columns elements of C they sum into: a block of
  // DotRows x DotSlots, masked to the tile's rows and columns where it has
  // fewer (the last rows of a nest, which a vector along the columns would
  // run as chains of multiply-adds over all of `k`; 3 columns).
  void Epilogue(const std::vector<ir::Node*>& acc,
                std::vector<ir::Node*>& out) {
    const int64_t rows = TripOf(*rows_);
    const int64_t columns = TripOf(*columns_);
    const int64_t slots = DotSlots(columns);
    const int64_t block_rows = width_ / slots;
    const ir::Type tile = ir::Type::Vector(elem_, {width_, width_});
    ir::Node* sums =
        Temporary("sums", tile, Build::Broadcast(module_, tile, Zero()), out);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < columns; ++c) {
        out.push_back(Build::Assign(
            module_, Build::Ref(module_, *sums),
            Build::Form(module_, ir::Op::kInsert,
                        {Build::Ref(module_, *acc[r * columns + c]),
                         Build::Ref(module_, *sums),
                         Build::Int(module_, r * slots + c)})));
      }
    }
    ir::Node& lhs = *stmt_.operand(0);
    const ir::Node& c = *ir::LoadView(lhs).buffer();
    const ir::Type block = ir::Type::Vector(elem_, {block_rows, slots});
    const ir::Type flat = ir::Type::Vector(elem_, {width_});
    const LinearForm k = LinearForm::Constant(0);
    // The block's lanes in C: all of them, or the tile's rows (masked).
    auto in_c = [&](ir::Node* transfer) {
      if (rows == block_rows && columns == slots) {
        module_.Append(transfer, Build::Form(module_, ir::Op::kInBounds,
                                             {Build::Int(module_, 1),
                                              Build::Int(module_, 1)}));
        return;
      }
      ir::Node* mask = Build::Form(
          module_, ir::Op::kCreateMask,
          {Build::Form(
               module_, ir::Op::kShape,
               {Build::Int(module_, block_rows), Build::Int(module_, slots)}),
           Build::Int(module_, rows), Build::Int(module_, columns)});
      module_.Append(transfer,
                     Build::Form(module_, ir::Op::kTransferMask, {mask}));
    };
    ir::Node* start = nullptr;
    if (fill_ != nullptr) {
      start = Build::Broadcast(module_, flat, module_.Clone(fill_->operand(1)));
    } else {
      ir::Node* old = Build::TransferRead(module_, block, c,
                                          IndicesAt(lhs, 0, 0, k), Zero());
      in_c(old);
      start = Build::ShapeCast(module_, flat, old);
    }
    ir::Node* reduction = Build::Form(
        module_, ir::Op::kMultiReduction,
        {Build::Ref(module_, *sums), start, Build::List(module_, {1}),
         Build::Form(module_, ir::Op::kReductionOrderClause, {})});
    reduction->set_name("add");
    reduction->operand(3)->set_name("halving");
    ir::Node* write = Build::TransferWrite(
        module_, Build::ShapeCast(module_, block, reduction), c,
        IndicesAt(lhs, 0, 0, k));
    in_c(write);
    out.push_back(write);
  }

  ir::Module& module_;
  ir::Node& proc_;
  ir::Node& stmt_;
  const int64_t width_;
  ir::Node* rows_ = nullptr;
  ir::Node* columns_ = nullptr;
  ir::Node* reduction_ = nullptr;
  ir::Node* row_read_ = nullptr;
  ir::Node* column_read_ = nullptr;
  // The fill of C's elements before the reduction (a value the same over
  // the tile), or null: the multi-reduction starts from it.
  ir::Node* fill_ = nullptr;
  ElemType elem_ = ElemType::kF32;
  int next_name_ = 0;
};

}  // namespace

bool DotKeepsFill(ir::Node& fill) {
  bool uniform = true;
  ir::Walk(*fill.operand(1), [&](ir::Node& node) {
    if (node.is(ir::Op::kLoad) ||
        (node.is(ir::Op::kRef) && node.def() != nullptr &&
         node.def()->is(ir::Op::kFor))) {
      uniform = false;
    }
  });
  return uniform;
}

int64_t DotSlots(int64_t columns) {
  int64_t slots = 1;
  while (slots < columns) slots *= 2;
  return slots;
}

int64_t DotRows(int64_t columns, const Strategy& strategy) {
  return strategy.width / DotSlots(columns);
}

std::optional<DotNest> DotNestOf(ir::Node& stmt, const Strategy& strategy,
                                 int64_t columns_trip) {
  if (strategy.contraction != Contraction::kFma || !stmt.is(ir::Op::kReduce)) {
    return std::nullopt;
  }
  ir::Node& lhs = *stmt.operand(0);
  ir::Node& product = *stmt.operand(1);
  const ElemType elem = lhs.type().elem();
  if ((elem != ElemType::kF32 && elem != ElemType::kF64) ||
      !lhs.is(ir::Op::kLoad) || !product.is(ir::Op::kMul) ||
      !product.operand(0)->is(ir::Op::kLoad) ||
      !product.operand(1)->is(ir::Op::kLoad) ||
      product.operand(0)->type().elem() != elem ||
      product.operand(1)->type().elem() != elem) {
    return std::nullopt;
  }
  const int64_t rank = static_cast<int64_t>(ir::LoadView(lhs).indices().size());
  if (rank < 2) return std::nullopt;
  // The innermost loops of C's last two dimensions; a loop of tiles of
  // them (a coefficient other than 1) is a parallel loop like any other.
  DotNest nest;
  std::vector<ir::Node*> reductions;
  for (ir::Node* loop : LoopsOf(stmt)) {
    std::optional<int64_t> dim = DimOf(lhs, *loop);
    if (dim == -1) {
      reductions.push_back(loop);
    } else if (dim == rank - 1) {
      nest.columns = loop;
    } else if (dim == rank - 2) {
      nest.rows = loop;
    }
  }
  if (nest.rows == nullptr || nest.columns == nullptr ||
      reductions.size() != 1 || TripOf(*reductions[0]) < strategy.width) {
    return std::nullopt;
  }
  nest.reduction = reductions[0];
  const int64_t columns =
      columns_trip > 0 ? columns_trip : TripOf(*nest.columns);
  // The tile's accumulators are rows of a square multi-reduction,
  // halving: its block has a power of two of columns.
  if (DotSlots(columns) > strategy.dot ||
      (strategy.width & (strategy.width - 1)) != 0 ||
      DotSlots(columns) * kLeastDotRows > strategy.width) {
    return std::nullopt;
  }
  for (ir::Node* read : {product.operand(0), product.operand(1)}) {
    std::optional<int64_t> by_rows = DimOf(*read, *nest.rows);
    std::optional<int64_t> by_columns = DimOf(*read, *nest.columns);
    std::optional<int64_t> by_reduction = DimOf(*read, *nest.reduction);
    if (!by_rows || !by_columns || !by_reduction || *by_reduction < 0 ||
        (*by_rows >= 0) == (*by_columns >= 0) || *by_rows == *by_reduction ||
        *by_columns == *by_reduction) {
      return std::nullopt;
    }
    const int64_t read_rank =
        static_cast<int64_t>(ir::LoadView(*read).indices().size());
    if (*by_rows >= 0) {
      if (*by_reduction != read_rank - 1 || nest.row_read != nullptr) {
        return std::nullopt;
      }
      nest.row_read = read;
    } else {
      if (nest.column_read != nullptr ||
          (*by_reduction != read_rank - 1 &&
           !primitives::IsStageable(*ir::LoadView(*read).buffer()))) {
        return std::nullopt;
      }
      nest.column_read = read;
      nest.column_read_dim = *by_reduction;
    }
  }
  return nest;
}

absl::Status EmitDotTile(ir::Module& module, ir::Node& proc, ir::Node& stmt,
                         const Strategy& strategy) {
  const std::vector<ir::Node*> loops = LoopsOf(stmt);
  const std::optional<DotNest> nest = DotNestOf(stmt, strategy);
  if (loops.size() < 3 || !nest.has_value() ||
      nest->rows != loops[loops.size() - 3] ||
      nest->columns != loops[loops.size() - 2] ||
      nest->reduction != loops[loops.size() - 1]) {
    return absl::InternalError(
        "vectorize: a dot tile's loops are not its rows, columns and "
        "reduction, innermost (a bug)");
  }
  DotTileBuilder(module, proc, stmt, strategy.width).Emit();
  return absl::OkStatus();
}

}  // namespace tessel::vectorize
