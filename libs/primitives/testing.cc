#include "libs/primitives/testing.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/verify/read.h"
#include "libs/verify/verifier.h"
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
  ADD_FAILURE() << "no proc " << name;
  std::abort();
}

std::string Print(const ir::Module& module) { return ir::PrintModule(module); }

absl::Status SameValues(const std::string& before, const ir::Module& after,
                        const Sizes& defines) {
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

absl::StatusOr<std::string> Rewrite(
    const std::string& text,
    absl::FunctionRef<absl::Status(ir::Module&, ir::Node& proc)> rewrite,
    const std::vector<Sizes>& runs) {
  ir::Module module = ReadVerified(text);
  if (module.forms().empty()) return absl::InternalError("did not read");
  ir::Node& proc = *module.forms().back();
  std::string before = Print(module);
  if (absl::Status status = rewrite(module, proc); !status.ok()) {
    EXPECT_EQ(Print(module), before) << "a rejection changed the module";
    return status;
  }
  std::string printed = Print(module);
  if (absl::Status status = ir::VerifyProc(module, proc); !status.ok()) {
    ADD_FAILURE() << "the result does not verify: " << status << "\n"
                  << printed;
    return status;
  }
  EXPECT_FALSE(ReadVerified(printed).forms().empty()) << printed;
  for (const Sizes& defines : runs) {
    absl::Status same = SameValues(text, module, defines);
    EXPECT_TRUE(same.ok()) << same << "\n" << printed;
  }
  return printed;
}

std::string Outcome(const absl::StatusOr<std::string>& result) {
  return result.ok() ? *result : std::string(result.status().message());
}

std::string OutcomeAt(
    const std::string& text, const std::vector<size_t>& path,
    absl::FunctionRef<absl::Status(ir::Module&, const ir::Cursor&)> primitive) {
  return Outcome(Rewrite(text, [&](ir::Module& module, ir::Node& proc) {
    return primitive(module, StmtAt(module, proc, path));
  }));
}

ir::Node* OffsetPoint(ir::Module& module, const ir::Node& proc, int64_t offset,
                      bool plus_first) {
  ir::Node* point = ir::Build::Int(module, offset);
  if (!plus_first) return point;
  return ir::Build::Add(module, ir::Build::Ref(module, *proc.operand(0)),
                        point);
}

ir::Node& Nth(ir::Node& root, ir::Op op, int n) {
  ir::Node* found = nullptr;
  ir::Walk(root, [&](ir::Node& node) {
    if (found == nullptr && node.is(op) && n-- == 0) found = &node;
  });
  if (found == nullptr) {
    ADD_FAILURE() << "no such node";
    std::abort();
  }
  return *found;
}

ir::Cursor StmtAt(ir::Module& module, ir::Node& proc,
                  const std::vector<size_t>& path) {
  ir::Cursor at = ir::BlockCursor::BodyOf(module, proc)[path[0]];
  for (size_t i = 1; i < path.size(); ++i) at = at.body()[path[i]];
  return at;
}

ir::Cursor DeclNamed(ir::Module& module, ir::Node& proc,
                     const std::string& name) {
  ir::Node* found = nullptr;
  ir::Walk(proc, [&](ir::Node& node) {
    if (found == nullptr && node.name() == name &&
        (node.is(ir::Op::kAlloc) || node.is(ir::Op::kFor) ||
         node.is(ir::Op::kParam))) {
      found = &node;
    }
  });
  EXPECT_NE(found, nullptr) << "no declaration of " << name;
  return ir::Cursor(module, found);
}

}  // namespace tessel::primitives::testing
