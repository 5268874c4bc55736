// What the configuration primitives (write_config, bind_config,
// delete_config) ask about a configuration field: which code reads or
// writes it (callees included), and whether a write of it can be added or
// removed without changing what the procedure computes, its final
// configuration state included (the state is global: a caller sees it).
#ifndef TESSEL_LIBS_PRIMITIVES_CONFIG_STATE_H_
#define TESSEL_LIBS_PRIMITIVES_CONFIG_STATE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/ir/edit.h"
#include "libs/ir/node.h"

namespace tessel::primitives {

// A configuration field: its config form and its name.
struct ConfigField {
  const ir::Node* config;
  std::string field;
};

// InvalidArgument unless `config` is a config with `field`.
absl::Status CheckConfigField(const ir::Node& config, const std::string& field);

// Whether `node` (a statement or an expression) or a proc it calls
// (its assertions too) reads the field; `ignore`, a read-config, does
// not count.
bool ReadsField(const ir::Node& node, const ConfigField& field,
                const ir::Node* ignore = nullptr);
// Whether `node` or a proc it calls writes the field, or clobbers it.
bool WritesField(const ir::Node& node, const ConfigField& field);

// Whether the write-config `write` (in a proc) changes nothing observable,
// so that it can be inserted or deleted: either the field already holds
// the value it writes (the last write before it, on every path, writes an
// alpha-equivalent control value of names that do not change in between),
// or its value is dead (no read after it, `ignore` aside, before a write
// that certainly overwrites it, and not live at the end of the proc unless
// the proc declares the field clobbered). The error names the read that
// sees it, or the end of the proc.
//
// With `clobbers` given, a value live at the end of the proc is accepted
// too (Exo's equivalence modulo the configuration the proc writes), and
// *clobbers tells whether it was, so that the caller declares the field
// clobbered (DeclareClobbered).
absl::Status CheckUnobservable(const ir::Node& write,
                               const ir::Node* ignore = nullptr,
                               bool* clobbers = nullptr);

// A detached (clobbers ...) for `proc`, at `position` (after the
// parameters and other declarations, before the assertions).
struct ClobbersDeclaration {
  ir::Node* proc;
  size_t position;
  ir::Node* clobbers;
};

// What makes the proc of `write` clobber the field `write` writes: a
// declaration in that proc, unless it has one, and in each proc (callers
// of callers too) whose call of a proc that clobbers the field leaves the
// field so at its end.
std::vector<ClobbersDeclaration> ClobbersDeclarations(ir::Module& module,
                                                      const ir::Node& write);

// Makes the proc of `write` clobber the field, through `tx`, and verifies
// every proc that gets a declaration with its callers: none may read the
// field after a call before it writes it. (A template over
// primitives::Transaction, which this library does not depend on.)
template <typename Tx>
absl::Status DeclareClobbered(Tx& tx, const ir::Node& write,
                              absl::string_view what) {
  std::vector<ClobbersDeclaration> declarations =
      ClobbersDeclarations(tx.module(), write);
  for (const ClobbersDeclaration& d : declarations) {
    tx.Insert(d.proc, d.position, d.clobbers);
  }
  for (const ClobbersDeclaration& d : declarations) {
    if (absl::Status s = tx.Verify(*d.proc, what); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_CONFIG_STATE_H_
