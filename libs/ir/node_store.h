// Where a module's nodes live (node.h), internal to libs/ir: blocks of
// nodes that never move, their operand arrays, and the tables a node refers
// to by a 32-bit index instead of a pointer (its parent and binder by id,
// its type, its source, its rare part), so that a node is 56 bytes. A node
// finds its store through the header of its block, whose place follows
// from the node's slot in it.
#ifndef TESSEL_LIBS_IR_NODE_STORE_H_
#define TESSEL_LIBS_IR_NODE_STORE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"
#include "libs/support/source.h"

namespace tessel::ir {

// What few nodes have (declarations, templates, clauses, library calls),
// kept apart so that the many others do not pay for it.
struct Node::Rare {
  uint32_t text = 0;      // an interned name
  uint32_t declared = 0;  // in the module's type table
  std::unique_ptr<Extra> extra;
};

// What fewer still have.
struct Node::Extra {
  // Of a form built as S-expressions: where its items were written.
  std::vector<std::pair<int, int>> item_locs;
  // Locations not in the node's source, or not representable by an
  // offset in it.
  std::optional<Location> loc;
  std::optional<Location> name_loc;
  // A binder in another module (a library's definition).
  Node* foreign_def = nullptr;
};

namespace node_internal {

// Names and texts are interned for the process's lifetime: a module of
// many small forms repeats a few names in most of its nodes. Id 0 is "".
uint32_t InternName(absl::string_view name);
// The id of `name` if it is interned.
std::optional<uint32_t> FindName(absl::string_view name);
const std::string& NameText(uint32_t id);

class NodeStore {
 public:
  NodeStore() = default;
  NodeStore(const NodeStore&) = delete;
  NodeStore& operator=(const NodeStore&) = delete;
  ~NodeStore();

  // A new node, detached.
  Node* New(Op op);
  Node* Get(NodeId id) const;
  size_t size() const { return size_; }
  // The store of a node, and its id.
  static NodeStore& Of(const Node& node);
  static NodeId IdOf(const Node& node);

  // Arrays of operands: an array holding `size` operands has room for
  // Capacity(size), a power of two; freed arrays are reused.
  static uint32_t Capacity(uint32_t size);
  Node** AllocateOperands(uint32_t capacity);
  void FreeOperands(Node** operands, uint32_t capacity);

  // 1 + the index of `source` among the kept sources (kept alive while the
  // store lives); 0 for none, or when there are too many to index.
  uint16_t KeepSource(const SourceBuffer* source);
  const SourceRef& source(uint16_t index) const { return sources_[index - 1]; }

  // The index of `type` in the type table; 0 is none.
  uint32_t TypeIndex(const Type& type);
  const Type& type(uint32_t index) const { return types_[index]; }

  // A new rare part, and its 1-based index.
  uint32_t NewRare();
  Node::Rare& rare(uint32_t index) { return rares_[index - 1]; }
  const Node::Rare& rare(uint32_t index) const { return rares_[index - 1]; }

 private:
  // Blocks grow from kFirstBlock nodes to kLargestBlock, then stay there.
  static constexpr uint32_t kFirstBlock = 64;
  static constexpr int kGrowingBlocks = 9;
  static constexpr uint32_t kLargestBlock = kFirstBlock << (kGrowingBlocks - 1);
  struct BlockHeader;
  // Which block holds node `id`, and where in it.
  static std::pair<size_t, uint32_t> Place(NodeId id);
  static uint32_t BlockCapacity(size_t block);

  std::vector<char*> blocks_;
  size_t size_ = 0;

  // Operand arrays are cut from chunks; freed ones are kept, a list per
  // capacity, linked through their first element.
  std::vector<std::unique_ptr<Node*[]>> chunks_;
  Node** chunk_next_ = nullptr;
  Node** chunk_end_ = nullptr;
  Node** free_[32] = {};

  std::vector<SourceRef> sources_;
  std::deque<Type> types_{Type()};
  absl::flat_hash_map<const void*, uint32_t> type_indices_;
  std::deque<Node::Rare> rares_;
};

}  // namespace node_internal
}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_NODE_STORE_H_
