// A loop-level kernel as polysimd sees it (formats/kernel/README.md,
// "Lowering to the loop level"): its tensors and its statements, each named
// by its label (a procedure @KERNEL.LABEL that the kernel calls) or after
// its target, with its instances and access relations from poly::ProcModel.
#ifndef TESSEL_LIBS_POLYSIMD_KERNEL_H_
#define TESSEL_LIBS_POLYSIMD_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "isl/cpp.h"
#include "libs/ir/node.h"
#include "libs/poly/model.h"

namespace tessel::polysimd {

enum class TensorRole { kInput, kOutput, kLocal };

struct Tensor {
  std::string name;
  TensorRole role = TensorRole::kInput;
  const ir::Node* decl = nullptr;  // the data parameter or alloc
  std::vector<int64_t> dims;
  isl::set elements;  // { NAME[i...] : 0 <= i < dims }
};

// One access of a statement to a tensor: the affine function from the
// statement's space (its instances and beyond) to the tensor's elements.
struct Access {
  std::string tensor;
  isl::map map;
  const ir::Node* node = nullptr;  // the element read or the place written
};

struct Statement {
  std::string name;
  // The update that computes the target at each instance: a reduce (+=)
  // or an assign.
  const ir::Node* update = nullptr;
  const poly::ProcModel* model = nullptr;
  // { NAME[v...] } over the loops around the update, named as they are.
  isl::set instances;
  Access write;
  std::vector<Access> reads;  // in the order they appear
};

struct Kernel {
  const ir::Node* proc = nullptr;  // the kernel's procedure
  std::vector<Tensor> tensors;
  std::vector<Statement> statements;
  std::vector<std::unique_ptr<poly::ProcModel>> models;

  const Tensor* Find(const std::string& name) const;
};

// The kernel that `entry` (a verified loop-level proc of `module`) is.
absl::StatusOr<Kernel> ReadKernel(isl::ctx ctx, const ir::Node& entry);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_KERNEL_H_
