// The in-place analysis (MLIR's one-shot bufferization, Vasilache et al.,
// section 3.4): an operation may write its result into the buffer of an
// operand (its destination) only when no read would see that write too
// early. Two kinds of reads are checked:
//
// - reads after the operation (read-after-write conflicts): a use, later in
//   evaluation order (eval_order.h), of any value that lives in the
//   buffer: the use-def chains of the values aliasing it;
// - reads during the operation: simulating the in-place write, every read
//   of the buffer while the operation runs must be of the element whose
//   new value is being computed (an elementwise update reads each element
//   before it overwrites it), which `Tracker` records as the rewrite emits
//   the operation's code.
#ifndef TESSEL_LIBS_BUFFERIZE_IN_PLACE_H_
#define TESSEL_LIBS_BUFFERIZE_IN_PLACE_H_

#include <optional>
#include <string>
#include <vector>

#include "libs/bufferize/eval_order.h"
#include "libs/bufferize/view.h"
#include "libs/ir/node.h"

namespace tessel::bufferize {

// The first use among `binders`' uses that comes after position `after`,
// or null: what a write at `after` into the buffer they share would
// corrupt.
const ir::Node* LaterRead(const EvalOrder& order,
                          const std::vector<const ir::Node*>& binders,
                          int after);

// Records the reads made while in-place writes are simulated.
class Tracker {
 public:
  // Starts simulating an in-place write into `buffer`; End says whether it
  // holds: nothing if it does, else the read that broke it (null for a
  // read of a copy the rewrite made, which has no node of its own).
  int Begin(const std::string& buffer);
  std::optional<const ir::Node*> End(int simulation);
  bool Simulating(const std::string& buffer) const;

  // The element of `buffer` that the code being emitted computes the new
  // value of: reads of it are safe until it is written.
  struct Write {
    std::string buffer;
    Indices element;
  };
  // Returns the previous one, to be restored by Restore.
  std::vector<Write> Computing(const std::string& buffer, Indices element);
  void Restore(std::vector<Write> writes) { writes_ = std::move(writes); }

  // A read of `element` of `buffer` by `at`.
  void Read(const std::string& buffer, const Indices& element,
            const ir::Node* at);

  struct Simulation {
    std::string buffer;
    bool broken = false;
    const ir::Node* broken_by = nullptr;
  };
  // What the reads recorded so far decided, to forget the reads of code
  // that is thrown away.
  std::vector<Simulation> Snapshot() const { return simulations_; }
  void Rollback(const std::vector<Simulation>& snapshot);

 private:
  std::vector<Simulation> simulations_;
  std::vector<Write> writes_;
};

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_IN_PLACE_H_
