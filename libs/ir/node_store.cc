#include "libs/ir/node_store.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cassert>
#include <new>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"

namespace tessel::ir::node_internal {
namespace {

// The interned names, in chunks that never move, so that a name is read
// without a lock (a node's name id was made before the node was handed
// over). Chunk c holds kFirstChunk << c names.
class NameTable {
 public:
  NameTable() { Intern(""); }

  uint32_t Intern(absl::string_view name) {
    absl::MutexLock lock(&mutex_);
    auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    uint32_t id = size_++;
    auto [chunk, offset] = Place(id);
    std::string* names = chunks_[chunk].load(std::memory_order_relaxed);
    if (names == nullptr) {
      names = new std::string[kFirstChunk << chunk];
      chunks_[chunk].store(names, std::memory_order_release);
    }
    names[offset] = std::string(name);
    ids_.emplace(names[offset], id);
    return id;
  }

  std::optional<uint32_t> Find(absl::string_view name) {
    absl::MutexLock lock(&mutex_);
    auto it = ids_.find(name);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }

  const std::string& Text(uint32_t id) const {
    auto [chunk, offset] = Place(id);
    return chunks_[chunk].load(std::memory_order_acquire)[offset];
  }

 private:
  static constexpr uint64_t kFirstChunk = 256;
  static std::pair<int, uint64_t> Place(uint32_t id) {
    int chunk = std::bit_width(id / kFirstChunk + 1) - 1;
    return {chunk, id - kFirstChunk * ((uint64_t{1} << chunk) - 1)};
  }

  absl::Mutex mutex_;
  absl::flat_hash_map<absl::string_view, uint32_t> ids_;
  uint32_t size_ = 0;
  // Room for every 32-bit id.
  std::atomic<std::string*> chunks_[25] = {};
};

NameTable& Names() {
  static auto* const names = new NameTable();
  return *names;
}

}  // namespace

uint32_t InternName(absl::string_view name) { return Names().Intern(name); }

std::optional<uint32_t> FindName(absl::string_view name) {
  return Names().Find(name);
}

const std::string& NameText(uint32_t id) { return Names().Text(id); }

struct NodeStore::BlockHeader {
  NodeStore* store;
  NodeId first;
};

NodeStore::~NodeStore() {
  for (char* block : blocks_) ::operator delete(block);
}

uint32_t NodeStore::BlockCapacity(size_t block) {
  return block < kGrowingBlocks ? kFirstBlock << block : kLargestBlock;
}

std::pair<size_t, uint32_t> NodeStore::Place(NodeId id) {
  // The growing blocks hold kFirstBlock * (2^k - 1) nodes before block k.
  constexpr uint32_t kGrowing = kFirstBlock * ((1u << kGrowingBlocks) - 1);
  if (id < kGrowing) {
    size_t block = std::bit_width(id / kFirstBlock + 1) - 1;
    return {block, id - kFirstBlock * ((1u << block) - 1)};
  }
  return {kGrowingBlocks + (id - kGrowing) / kLargestBlock,
          (id - kGrowing) % kLargestBlock};
}

Node* NodeStore::New(Op op) {
  // Nodes follow their block's header, in memory aligned for both.
  static_assert(sizeof(Node) == 56, "a node is 56 bytes (node.h)");
  static_assert(alignof(Node) <= alignof(std::max_align_t));
  static_assert(sizeof(BlockHeader) % alignof(Node) == 0);
  auto id = static_cast<NodeId>(size_);
  auto [block, slot] = Place(id);
  if (block == blocks_.size()) {
    char* memory = static_cast<char*>(::operator new(
        sizeof(BlockHeader) + BlockCapacity(block) * sizeof(Node)));
    new (memory) BlockHeader{this, id};
    blocks_.push_back(memory);
  }
  ++size_;
  return new (blocks_[block] + sizeof(BlockHeader) + slot * sizeof(Node))
      Node(op, static_cast<uint16_t>(slot));
}

Node* NodeStore::Get(NodeId id) const {
  assert(id < size_);
  auto [block, slot] = Place(id);
  return reinterpret_cast<Node*>(blocks_[block] + sizeof(BlockHeader) +
                                 slot * sizeof(Node));
}

namespace {

const char* BlockOf(const Node& node, uint16_t slot) {
  return reinterpret_cast<const char*>(&node) - slot * sizeof(Node);
}

}  // namespace

NodeStore& NodeStore::Of(const Node& node) {
  const auto* header = reinterpret_cast<const BlockHeader*>(
      BlockOf(node, node.slot_) - sizeof(BlockHeader));
  return *header->store;
}

NodeId NodeStore::IdOf(const Node& node) {
  const auto* header = reinterpret_cast<const BlockHeader*>(
      BlockOf(node, node.slot_) - sizeof(BlockHeader));
  return header->first + node.slot_;
}

uint32_t NodeStore::Capacity(uint32_t size) {
  return size == 0 ? 0 : std::bit_ceil(size);
}

Node** NodeStore::AllocateOperands(uint32_t capacity) {
  assert(std::has_single_bit(capacity));
  if (capacity == 0) return nullptr;
  int size_class = std::countr_zero(capacity);
  if (Node** reused = free_[size_class]; reused != nullptr) {
    free_[size_class] = reinterpret_cast<Node**>(reused[0]);
    return reused;
  }
  // Most arrays hold one to four operands: they are cut from chunks, which
  // grow with the module (a small module's are small).
  constexpr size_t kLargestChunk = 8192;
  if (capacity > kLargestChunk / 8) {
    chunks_.push_back(std::make_unique<Node*[]>(capacity));
    return chunks_.back().get();
  }
  if (chunk_end_ - chunk_next_ < static_cast<ptrdiff_t>(capacity)) {
    size_t size = std::min(kLargestChunk,
                           size_t{256} << std::min(chunks_.size(), size_t{5}));
    chunks_.push_back(std::make_unique<Node*[]>(size));
    chunk_next_ = chunks_.back().get();
    chunk_end_ = chunk_next_ + size;
  }
  Node** array = chunk_next_;
  chunk_next_ += capacity;
  return array;
}

void NodeStore::FreeOperands(Node** operands, uint32_t capacity) {
  if (operands == nullptr || capacity == 0) return;
  int size_class = std::countr_zero(capacity);
  operands[0] = reinterpret_cast<Node*>(free_[size_class]);
  free_[size_class] = operands;
}

uint16_t NodeStore::KeepSource(const SourceBuffer* source) {
  if (source == nullptr) return 0;
  // A module's nodes come from a few sources, the last one most often.
  for (size_t i = sources_.size(); i > 0; --i) {
    if (sources_[i - 1].get() == source) return static_cast<uint16_t>(i);
  }
  if (sources_.size() == UINT16_MAX) return 0;
  sources_.push_back(source->shared_from_this());
  return static_cast<uint16_t>(sources_.size());
}

uint32_t NodeStore::TypeIndex(const Type& type) {
  if (type.identity() == nullptr) return 0;
  auto [it, inserted] = type_indices_.emplace(
      type.identity(), static_cast<uint32_t>(types_.size()));
  if (inserted) types_.push_back(type);
  return it->second;
}

uint32_t NodeStore::NewRare() {
  rares_.emplace_back();
  return static_cast<uint32_t>(rares_.size());
}

}  // namespace tessel::ir::node_internal
