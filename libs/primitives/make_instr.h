// make_instr (Exo's API): the scheduled proc becomes an instr.
#ifndef TESSEL_LIBS_PRIMITIVES_MAKE_INSTR_H_
#define TESSEL_LIBS_PRIMITIVES_MAKE_INSTR_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Turns `proc` into an instr of the same name, parameters, assertions and
// body, whose C is `c_instr` (its template: `{NAME}` and `{NAME_data}` name
// the parameters, formats/tir). run-sim runs the body, as it ran the
// proc's; emit-c writes the template, which nothing checks (as in Exo: a
// template is trusted to do what the body says). Exo's `c_global` is C
// code put before the generated functions; an instr has only headers, so
// it may hold `#include <H>` or `#include "H"` lines (each an
// `(include ...)` of the instr), nothing else. A proc that declares what
// it clobbers cannot be an instr (an instr's writes are its meaning). The
// calls of the proc call the instr; the instr and every caller are
// verified, or nothing changes. Returns the instr.
absl::StatusOr<ir::Node*> MakeInstr(ir::Module& module, ir::Node& proc,
                                    const std::string& c_instr,
                                    const std::string& c_global = "");

// make_instr(c_instr, c_global="").
PrimitiveSpec MakeInstrSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_MAKE_INSTR_H_
