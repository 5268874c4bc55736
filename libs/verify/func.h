// Elaboration and the tensor-level checks of verifier.h for one `func`
// (formats/tir/README.md, "Tensor level", "Typed IR"): the term is typed
// against the declared results, De Bruijn variables are bound, every
// `index` is within bounds (checked with isl over the ranges of the
// enclosing build and ifold indices) and access patterns have valid shapes.
#ifndef TESSEL_LIBS_VERIFY_FUNC_H_
#define TESSEL_LIBS_VERIFY_FUNC_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/poly/poly.h"

namespace tessel::ir {

// Checks `func` (a Func node) and, when it is valid, gives every value node
// of its term its type (Node::set_type): literals the element type their
// context needs (DefaultLiteralType where none does) or Control(kIndex)
// where they are indices and lengths; build and ifold indices
// Control(kIndex), conditions Control(kBool), lams Function types, access
// patterns Access types. Literal lists (list, shape) and declarations keep
// none. The first error found is returned as a located diagnostic.
absl::Status VerifyFunc(Node& func, poly::Context& ctx);

// The type of `term`, a tensor-level term over the parameters of `func`
// without free De Bruijn variables, elaborated as a body of `func` would
// be but against no declared result (literals of no context take
// DefaultLiteralType). For analyses that type terms out of their place,
// such as saturate's. `term` is checked, not given types.
absl::StatusOr<Type> InferTermType(Node& func, Node& term, poly::Context& ctx);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_FUNC_H_
