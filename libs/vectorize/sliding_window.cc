#include "libs/vectorize/sliding_window.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/vectorize/nest.h"

namespace tessel::vectorize {
namespace {

// Whether `loop` indexes `access` (an element) at all.
bool Indexes(ir::Node& access, const ir::Node& loop) {
  if (!access.is(ir::Op::kLoad)) return false;
  for (const ir::Node* index : ir::LoadView(access).indices()) {
    std::optional<primitives::LinearForm> form = AffineForm(*index);
    if (form.has_value() && form->coefficient(&loop) != 0) return true;
  }
  return false;
}

// Whether some index of `read` has both `rows` and `loop` in it.
bool SharesADimension(ir::Node& read, const ir::Node& rows,
                      const ir::Node& loop) {
  for (const ir::Node* index : ir::LoadView(read).indices()) {
    std::optional<primitives::LinearForm> form = AffineForm(*index);
    if (form.has_value() && form->coefficient(&rows) != 0 &&
        form->coefficient(&loop) != 0) {
      return true;
    }
  }
  return false;
}

// The most reads live at once when the tile's points run in `order`.
size_t PeakLive(
    const std::vector<TilePoint>& order,
    absl::FunctionRef<std::vector<std::string>(const TilePoint&)> reads_at) {
  absl::flat_hash_map<std::string, std::pair<size_t, size_t>> spans;
  for (size_t i = 0; i < order.size(); ++i) {
    for (std::string& read : reads_at(order[i])) {
      auto [it, fresh] = spans.try_emplace(std::move(read), i, i);
      if (!fresh) it->second.second = i;
    }
  }
  std::vector<int64_t> delta(order.size() + 1, 0);
  for (const auto& [read, span] : spans) {
    ++delta[span.first];
    --delta[span.second + 1];
  }
  size_t peak = 0;
  int64_t live = 0;
  for (size_t i = 0; i < order.size(); ++i) {
    live += delta[i];
    peak = std::max(peak, static_cast<size_t>(live));
  }
  return peak;
}

}  // namespace

ir::Node* WindowLoop(ir::Node& stmt, const ir::Node& rows, int64_t max_taps,
                     bool keep_order) {
  std::vector<ir::Node*> reads;
  LoadsIn(*stmt.operand(1), reads);
  std::vector<ir::Node*> loops = LoopsOf(stmt);
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    ir::Node& loop = **it;
    if (&loop == &rows || Indexes(*stmt.operand(0), loop) ||
        TripOf(loop) < 2) {
      continue;
    }
    if (TripOf(loop) <= max_taps) {
      for (ir::Node* read : reads) {
        if (SharesADimension(*read, rows, loop)) return &loop;
      }
    }
    // A window outside this reduction loop would go inside it.
    if (keep_order) return nullptr;
  }
  return nullptr;
}

std::vector<TilePoint> TileOrder(
    int64_t taps, int64_t rows, int64_t vectors,
    absl::FunctionRef<std::vector<std::string>(const TilePoint&)> reads_at) {
  // nesting[k]: the k-th loop from the outside (0 taps, 1 rows, 2 vectors).
  std::array<int, 3> nesting = {0, 1, 2};
  const std::array<int64_t, 3> trips = {taps, rows, vectors};
  std::vector<TilePoint> best;
  size_t best_live = std::numeric_limits<size_t>::max();
  do {
    // Taps innermost would chain consecutive FMAs through one accumulator
    // (each waiting on the one before), unless that is all the tile has.
    if (nesting[2] == 0 && rows * vectors > 1) continue;
    std::vector<TilePoint> order;
    std::array<int64_t, 3> at = {0, 0, 0};
    for (at[nesting[0]] = 0; at[nesting[0]] < trips[nesting[0]];
         ++at[nesting[0]]) {
      for (at[nesting[1]] = 0; at[nesting[1]] < trips[nesting[1]];
           ++at[nesting[1]]) {
        for (at[nesting[2]] = 0; at[nesting[2]] < trips[nesting[2]];
             ++at[nesting[2]]) {
          order.push_back({at[0], at[1], at[2]});
        }
      }
    }
    size_t live = PeakLive(order, reads_at);
    if (live < best_live) {
      best_live = live;
      best = std::move(order);
    }
  } while (std::next_permutation(nesting.begin(), nesting.end()));
  return best;
}

}  // namespace tessel::vectorize
