// The class behind EmitCs1 (emit_cs1.h): the C of one pe-program's PE
// code, in parts by concern:
//   program_writer.cc  names, local arrays, the setup and the program's
//                      description;
//   task_writer.cc     a function per task.
#ifndef TESSEL_LIBS_EMITCS1_PROGRAM_WRITER_H_
#define TESSEL_LIBS_EMITCS1_PROGRAM_WRITER_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "libs/emitc/extensions.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/uses.h"
#include "libs/emitcs1/configurations.h"
#include "libs/emitcs1/pe_classes.h"
#include "libs/ir/node.h"

namespace tessel::emitcs1 {

class ProgramWriter {
 public:
  // `program` is a verified pe-program of `module`; `configs` numbers the
  // module's dsds.
  ProgramWriter(const ir::Module& module, const ir::Node& program,
                const Configurations& configs);

  // The text of every part, and what it needs at file scope (`needs()`).
  // Translates everything; errors are the module's.
  absl::Status Translate();

  const emitc::Needs& needs() const { return needs_; }
  // The local arrays, procs, tasks, setup and description, in that order.
  const std::string& text() const { return text_; }

 private:
  // program_writer.cc
  absl::Status Locals();
  absl::Status Procedures();
  absl::Status Setup();
  // The setup of PE class `c`: `common` (configurations and local arrays),
  // then the tasks that run on its PEs.
  void Setup(size_t c, const std::string& common, bool x_used, bool y_used);
  // A C name of the program's, free.
  std::string Take(absl::string_view name);
  void Description();
  // The C expression of a control expression of the PE coordinates, whose
  // uses mark `x_used` and `y_used`.
  absl::StatusOr<std::string> CoordinateExpr(const ir::Node& expr,
                                             bool& x_used, bool& y_used);
  // Declarations of the PE coordinates a function's body uses.
  std::string CoordinateDeclarations(bool x_used, bool y_used) const;
  // The C of a dsd for emitc's translator.
  absl::StatusOr<emitc::CExpr> Descriptor(const ir::Node& dsd,
                                          const emitc::CExpr& data,
                                          const emitc::CExpr& base) const;
  // Outer binders of the task's statements: the local arrays.
  std::vector<emitc::OuterBinder> LocalBinders() const;

  // task_writer.cc
  absl::Status Task(const ir::Node& task, int number);
  // collect_writer.cc: the collecting task `name` of a (partial add) local.
  absl::Status Collect(const ir::Node& local, const std::string& name);

  const ir::Module& module_;
  const ir::Node& program_;
  const Configurations& configs_;
  std::vector<ir::Node*> params_;
  std::vector<const ir::Node*> locals_;
  std::vector<const ir::Node*> tasks_;
  // The parameters declared (sparse P).
  absl::flat_hash_set<const ir::Node*> sparse_;
  const ir::Node* x_ = nullptr;  // the grid's coordinates
  const ir::Node* y_ = nullptr;
  std::string x_name_;  // their C names in the setup
  std::string y_name_;
  emitc::GlobalNames globals_;
  emitc::Extensions extensions_;
  absl::flat_hash_map<const ir::Node*, std::string> names_;  // of locals
  std::vector<std::string> task_names_;
  // The collecting tasks of the (partial add) locals, in their order.
  std::vector<std::pair<const ir::Node*, std::string>> collect_names_;
  PeClasses classes_;
  std::vector<std::string> setup_names_;  // per class
  std::string setups_name_;
  std::string class_of_name_;
  std::string params_name_;
  emitc::Needs needs_;
  std::string text_;
};

}  // namespace tessel::emitcs1

#endif  // TESSEL_LIBS_EMITCS1_PROGRAM_WRITER_H_
