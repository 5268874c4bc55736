// What the parts of the polyhedral model (model*.cc) ask of IR nodes.
#ifndef TESSEL_LIBS_POLY_MODEL_NODES_H_
#define TESSEL_LIBS_POLY_MODEL_NODES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "isl/cpp.h"
#include "libs/ir/node.h"

namespace tessel::poly {

// A node as TIR writes it, on one line.
std::string Text(const ir::Node& node);

// "'(* i i)' is not quasi-affine", at the expression.
absl::Status NotAffine(const ir::Node& expr);

// The name of the domain of a statement's instances.
std::string TupleName(const ir::Node& stmt);

// Parameters of kind size, index, bool or stride.
bool IsControlParam(const ir::Node& node);

// A data parameter, an alloc, a pe-program's local array or a recv's
// value: a tensor or scalar that views end at.
bool IsDataRoot(const ir::Node& node);

// The recv of a task, or null (no recv, not a task).
const ir::Node* RecvOf(const ir::Node& node);

// What a data name or `let` stands for: the window expression or the data
// root behind it (other nodes are returned as they are).
const ir::Node& Unalias(const ir::Node& view);

// Set dimension `pos` of `space` as a function on it, built alone (in time
// linear in the dimensions, where identity_on_domain(space).at(pos) builds
// all of them: quadratic for a deep loop nest).
isl::pw_aff DimOn(const isl::space& space, unsigned pos);

// `map` without its `extra` domain dimensions after the `loops` of `stmt`
// (the dimensions of its domain), its domain still named after `stmt`.
isl::map ProjectOutExtra(isl::map map, const ir::Node& stmt, size_t loops,
                         size_t extra);

}  // namespace tessel::poly

#endif  // TESSEL_LIBS_POLY_MODEL_NODES_H_
