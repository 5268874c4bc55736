#include "libs/primitives/insert_prefetch.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {

absl::Status InsertPrefetch(ir::Module& module,
                            const ir::GapCursor& gap_cursor,
                            const ir::Node& element) {
  if (!gap_cursor.is_valid()) return gap_cursor.status();
  if (!element.is(ir::Op::kLoad)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "insert_prefetch needs one element of a tensor ('A[i, j]'), not '",
        NodeText(element), "'"));
  }
  ir::LoadView load(const_cast<ir::Node&>(element));
  std::vector<ir::Node*> indices;
  for (ir::Node* index : load.indices()) {
    indices.push_back(module.Clone(index));
  }
  ir::Node* prefetch = ir::Build::Prefetch(module, *load.buffer(), indices);
  std::string what = absl::StrCat("cannot insert '", NodeText(*prefetch), "'");
  Transaction tx(module);
  tx.Insert(gap_cursor.owner(), gap_cursor.position(), prefetch);
  ir::Node& proc = *ir::FormOf(prefetch);
  if (absl::Status s = tx.Verify(proc, what); !s.ok()) return s;
  return tx.Commit(proc, what);
}

PrimitiveSpec InsertPrefetchSpec() {
  return {"insert_prefetch",
          {{"gap_cursor", ArgKind::kGap, std::nullopt},
           {"element", ArgKind::kExprText, std::nullopt}},
          [](Target& target, const Args& args) {
            return InsertPrefetch(target.module, args["gap_cursor"].gap,
                                  *args["element"].node);
          }};
}

}  // namespace tessel::primitives
