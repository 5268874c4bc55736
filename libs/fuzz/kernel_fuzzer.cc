// Fuzz target: the kernel-language front end, from bytes to verified TIR at
// both levels. Any input must give a module or a diagnostic, never a crash,
// a hang, or lowered IR that the verifier rejects without a location.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "libs/ir/syntax.h"
#include "libs/verify/verifier.h"
#include "libs/kernel/compile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessel::SourceRef source = tessel::MakeSource(
      "fuzz.tk", std::string(reinterpret_cast<const char*>(data), size));
  // Every size the kernels of testdata/kernels use (their `# sizes:`
  // lines), small and distinct, so that mutations of them get past the size
  // check; a kernel ignores the sizes it does not use.
  const std::map<std::string, int64_t> sizes = {
      {"M", 8},  {"N", 6},  {"K", 4},  {"H", 7},  {"W", 9},  {"NI", 5},
      {"NJ", 3}, {"NK", 4}, {"NL", 2}, {"NP", 6}, {"NQ", 3}, {"NR", 2}};
  for (auto level :
       {tessel::kernel::EmitLevel::kLoops, tessel::kernel::EmitLevel::kTerms}) {
    auto forms = tessel::kernel::CompileKernels(source, sizes, level);
    if (!forms.ok()) continue;
    auto module = tessel::ir::ReadForms(*forms, source);
    if (module.ok()) (void)tessel::ir::VerifyModule(*module);
  }
  return 0;
}
