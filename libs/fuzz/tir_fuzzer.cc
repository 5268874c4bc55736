// Fuzz target: the TIR reader, module builder, verifier and canonical
// printer. A module that verifies must print to text that reads back to the
// same tree (the printer's round-trip property).
#include <cstddef>
#include <cstdint>
#include <string>

#include "libs/ir/module.h"
#include "libs/ir/verifier.h"
#include "libs/sexpr/reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto module = tessel::ReadModule(tessel::MakeSource(
      "fuzz.tir", std::string(reinterpret_cast<const char*>(data), size)));
  if (!module.ok()) return 0;
  (void)tessel::VerifyModule(*module);
  std::string printed = tessel::PrintModule(*module);
  auto reread = tessel::ReadSexprs(tessel::MakeSource("printed.tir", printed));
  if (!reread.ok() || *reread != module->forms()) __builtin_trap();
  return 0;
}
