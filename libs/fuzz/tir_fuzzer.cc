// Fuzz target: the TIR reader, elaboration and verifier, and the canonical
// printer. A module that reads must print to text that reads back to a
// module printing the same text (the printer's round-trip property).
#include <cstddef>
#include <cstdint>
#include <string>

#include "libs/ir/syntax.h"
#include "libs/verify/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto module = tessel::ir::ReadText(tessel::MakeSource(
      "fuzz.tir", std::string(reinterpret_cast<const char*>(data), size)));
  if (!module.ok()) return 0;
  (void)tessel::ir::VerifyModule(*module);
  std::string printed = tessel::ir::PrintModule(*module);
  auto reread =
      tessel::ir::ReadText(tessel::MakeSource("printed.tir", printed));
  if (!reread.ok() || tessel::ir::PrintModule(*reread) != printed) {
    __builtin_trap();
  }
  return 0;
}
