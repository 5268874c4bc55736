#include "libs/bufferize/in_place.h"

namespace tessel::bufferize {

const ir::Node* LaterRead(const EvalOrder& order,
                          const std::vector<const ir::Node*>& binders,
                          int after) {
  const ir::Node* first = nullptr;
  int first_position = 0;
  for (const ir::Node* binder : binders) {
    for (const ir::Node* use : order.UsesOf(*binder)) {
      int position = order.SpanOf(*use).first;
      if (position > after && (first == nullptr || position < first_position)) {
        first = use;
        first_position = position;
      }
    }
  }
  return first;
}

int Tracker::Begin(const std::string& buffer) {
  simulations_.push_back({buffer});
  return static_cast<int>(simulations_.size()) - 1;
}

std::optional<const ir::Node*> Tracker::End(int simulation) {
  Simulation ended = simulations_[simulation];
  simulations_.resize(simulation);
  if (!ended.broken) return std::nullopt;
  return ended.broken_by;
}

bool Tracker::Simulating(const std::string& buffer) const {
  for (const Simulation& simulation : simulations_) {
    if (simulation.buffer == buffer) return true;
  }
  return false;
}

std::vector<Tracker::Write> Tracker::Computing(const std::string& buffer,
                                               Indices element) {
  std::vector<Write> previous = writes_;
  for (Write& write : writes_) {
    if (write.buffer == buffer) {
      write.element = std::move(element);
      return previous;
    }
  }
  writes_.push_back({buffer, std::move(element)});
  return previous;
}

void Tracker::Read(const std::string& buffer, const Indices& element,
                   const ir::Node* at) {
  for (Simulation& simulation : simulations_) {
    if (simulation.buffer != buffer || simulation.broken) continue;
    bool computing = false;
    for (const Write& write : writes_) {
      if (write.buffer == buffer && write.element == element) computing = true;
    }
    if (!computing) {
      simulation.broken = true;
      simulation.broken_by = at;
    }
  }
}

void Tracker::Rollback(const std::vector<Simulation>& snapshot) {
  for (size_t i = 0; i < snapshot.size() && i < simulations_.size(); ++i) {
    simulations_[i] = snapshot[i];
  }
}

}  // namespace tessel::bufferize
