#include "libs/vectorize/transpose.h"

#include <cstdint>
#include <vector>

#include "libs/ir/build.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/vectorize/nest.h"

namespace tessel::vectorize {
namespace {

using ir::Build;
using primitives::LinearForm;

class TileBuilder {
 public:
  TileBuilder(ir::Module& module, ir::Node& rows, ir::Node& lanes)
      : module_(module),
        rows_(rows),
        lanes_(lanes),
        row_count_(TripOf(rows)),
        lane_count_(TripOf(lanes)) {}

  // The indices of `access` at the tile's first row and lane.
  std::vector<ir::Node*> Origin(ir::Node& access) const {
    std::vector<ir::Node*> indices;
    for (ir::Node* index : ir::LoadView(access).indices()) {
      LinearForm form = *AffineForm(*index);
      for (const ir::Node* loop : {&rows_, &lanes_}) {
        form = form.Substituted(
            loop, LinearForm::Constant(
                      LiteralOf(*ir::ForView(const_cast<ir::Node&>(*loop)).lo())));
      }
      indices.push_back(form.Build(module_));
    }
    return indices;
  }

  ir::Type Tile(ElemType elem) const {
    return ir::Type::Vector(elem, {row_count_, lane_count_});
  }

  ir::Node* Zero(ElemType elem) const {
    return IsFloat(elem) ? Build::Float(module_, 0.0) : Build::Int(module_, 0);
  }

  ir::Node* Read(ir::Node& load, const ir::Type& type) const {
    return Build::TransferRead(module_, type, *ir::LoadView(load).buffer(),
                               Origin(load), Zero(type.elem()));
  }

  // `expr` over the tile, as a (rows x lanes) vector.
  ir::Node* VectorOf(const ir::Node& expr) const {
    ElemType elem = expr.type().elem();
    const ir::Type tile = Tile(elem);
    if (expr.is(ir::Op::kLoad)) {
      ir::Node& load = const_cast<ir::Node&>(expr);
      switch (*TileReadOf(load, rows_, lanes_)) {
        case TileRead::kScalar:
          return Build::Broadcast(
              module_, tile,
              Build::Load(module_, *ir::LoadView(load).buffer(), Origin(load)));
        case TileRead::kRow:
          return Build::Broadcast(
              module_, tile,
              Read(load, ir::Type::Vector(elem, {lane_count_})));
        case TileRead::kDirect:
          return Read(load, tile);
        case TileRead::kTransposed: {
          ir::Node* read =
              Read(load, ir::Type::Vector(elem, {lane_count_, row_count_}));
          return Build::Form(module_, ir::Op::kTranspose,
                             {read, Build::List(module_, {1, 0})});
        }
      }
    }
    if (expr.num_operands() == 0) {
      return Build::Broadcast(module_, tile, module_.Clone(&expr));
    }
    std::vector<ir::Node*> operands;
    for (const ir::Node* operand : expr.operands()) {
      operands.push_back(VectorOf(*operand));
    }
    if (expr.is(ir::Op::kCast)) {
      return Build::Cast(module_,
                         ir::CastView(const_cast<ir::Node&>(expr)).elem(),
                         operands[0]);
    }
    return Build::Form(module_, expr.op(), operands);
  }

 private:
  ir::Module& module_;
  ir::Node& rows_;
  ir::Node& lanes_;
  int64_t row_count_;
  int64_t lane_count_;
};

}  // namespace

absl::Status EmitTransposeTile(ir::Module& module, ir::Node& stmt,
                               ir::Node& rows, ir::Node& lanes) {
  TileBuilder builder(module, rows, lanes);
  ir::Node& lhs = *stmt.operand(0);
  ir::Node* write =
      Build::TransferWrite(module, builder.VectorOf(*stmt.operand(1)),
                           *ir::LoadView(lhs).buffer(), builder.Origin(lhs));
  ir::Node* parent = rows.parent();
  size_t position = rows.position();
  module.Detach(&rows);
  module.Insert(parent, position, write);
  return absl::OkStatus();
}

}  // namespace tessel::vectorize
