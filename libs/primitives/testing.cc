#include "libs/primitives/testing.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/ir/verify/read.h"
#include "libs/runsim/run_sim_command.h"
#include "libs/support/source.h"

namespace tessel::primitives::testing {
namespace {

// A file of the test's temporary directory holding `text`.
std::string TempFile(const std::string& name, const std::string& text) {
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string path = absl::StrCat(dir != nullptr ? dir : "/tmp", "/", name);
  std::ofstream(path) << text;
  return path;
}

}  // namespace

ir::Module ReadVerified(const std::string& text) {
  auto module = ir::ReadModule(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : ir::Module();
}

ir::Node& ProcNamed(ir::Module& module, const std::string& name) {
  for (ir::Node* form : module.forms()) {
    if ((form->is(ir::Op::kProc) || form->is(ir::Op::kInstr)) &&
        form->name() == name) {
      return *form;
    }
  }
  ADD_FAILURE() << "no proc @" << name;
  std::abort();
}

std::string Print(const ir::Module& module) { return ir::PrintModule(module); }

absl::Status SameValues(const std::string& before, const ir::Module& after,
                        const std::map<std::string, int64_t>& defines) {
  runsim::RunSimOptions options;
  options.file = TempFile("after.tir", Print(after));
  options.compare_file = TempFile("before.tir", before);
  options.defines = defines;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    options.seed = seed;
    std::ostringstream report;
    if (absl::Status status = runsim::RunSim(options, report); !status.ok()) {
      return absl::Status(status.code(),
                          absl::StrCat(status.message(), "\n", report.str()));
    }
  }
  return absl::OkStatus();
}

}  // namespace tessel::primitives::testing
