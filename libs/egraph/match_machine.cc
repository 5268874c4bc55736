// Running compiled patterns (matcher.cc compiles them): backtracking over
// the registers, with blocks computed once per class and search.
#include <algorithm>
#include <cassert>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "libs/egraph/matcher.h"

namespace tessel::egraph {

namespace {

// Copies a few class ids: the loop a compiler turns into a memmove call
// costs more than the copy of the usual one to three ids.
inline void CopyIds(const ClassId* from, uint32_t n, ClassId* to) {
  switch (n) {
    case 3:
      to[2] = from[2];
      [[fallthrough]];
    case 2:
      to[1] = from[1];
      [[fallthrough]];
    case 1:
      to[0] = from[0];
      [[fallthrough]];
    case 0:
      return;
    default:
      std::copy(from, from + n, to);
  }
}

}  // namespace

// Runs one compiled pattern; lives for one search. It yields matches into
// `out`, or, for a block, tuples into `tuples`: the values of the block's
// variables in VarId order, then the newest stamp.
class MatchMachine {
 public:
  MatchMachine(const CompiledPattern& p, const EGraph& g, size_t limit,
               uint32_t old_before, Matches* out,
               std::vector<ClassId>* tuples = nullptr,
               const RetrySet* retry = nullptr)
      : p_(p),
        g_(g),
        sink_(limit, old_before, retry, out),
        tuples_(tuples),
        regs_(p.num_regs_, kNoId) {
    if (out) subst_.assign(out->num_vars(), kNoId);
  }
  ~MatchMachine();

  // Looks up the ground subpatterns; false if one is not in the e-graph, in
  // which case nothing matches.
  bool ResolveGround() {
    for (uint32_t node : p_.ground_) {
      uint32_t stamp = 0;
      ClassId c = LookupNode(node, &stamp);
      if (c == kNoId) return false;
      ground_classes_.push_back(c);
      ground_stamp_ = std::max(ground_stamp_, stamp);
    }
    return true;
  }

  size_t found() const { return sink_.found(); }

  void SearchAll() {
    if (p_.root_is_var_) {
      // A class is old if its first e-node is: classes only ever merge into
      // ones that existed (and a merge is no new match at the root, see
      // EGraph::RootStamp).
      for (ClassId c : g_.Classes()) {
        regs_[0] = c;
        if (Run(0, RootStampOf(c))) return;
      }
      return;
    }
    const CompiledPattern::Instr& root = p_.program_[0];
    if (root.kind == CompiledPattern::Instr::Kind::kGround) {
      regs_[0] = ground_classes_[root.other];
      Run(1, ground_stamp_);
      return;
    }
    for (NodeId n : g_.NodesWithOp(root.op)) {
      ENodeRef node = g_.Node(n);
      if (node.payload != root.payload || node.children.size() != root.arity) {
        continue;
      }
      regs_[0] = g_.Find(n);
      CopyIds(node.children.data(), root.arity, &regs_[root.other]);
      if (Run(1, std::max(ground_stamp_, RootStampOf(n)))) return;
    }
  }

  void SearchClass(ClassId c, uint32_t stamp) {
    regs_[0] = g_.Find(c);
    Run(0, std::max(stamp, ground_stamp_));
  }

 private:
  using Instr = CompiledPattern::Instr;

  // Runs the program from `pc`; `stamp` is the newest stamp of the e-nodes
  // matched so far. True when the limit is reached.
  bool Run(size_t pc, uint32_t stamp) {
    const std::vector<Instr>& program = p_.program_;
    for (; pc < program.size(); ++pc) {
      const Instr& in = program[pc];
      switch (in.kind) {
        case Instr::Kind::kBind:
          return Bind(pc, in, stamp);
        case Instr::Kind::kCompare:
          if (regs_[in.reg] != regs_[in.other]) return false;
          break;
        case Instr::Kind::kGround:
          if (regs_[in.reg] != ground_classes_[in.other]) return false;
          break;
        case Instr::Kind::kLookup:
          if (!(g_.OpMask(regs_[in.reg]) & EGraph::OpBit(in.op)) ||
              regs_[in.reg] != LookupNode(in.other, &stamp)) {
            return false;
          }
          break;
        case Instr::Kind::kBlock:
          return Block(pc, in, stamp);
      }
    }
    return Yield(stamp);
  }

  // A block: the matches of a subpattern in class r, computed once per
  // class and search, joined with the variables bound so far.
  bool Block(size_t pc, const Instr& in, uint32_t stamp) {
    ClassId c = regs_[in.reg];
    if (!(g_.OpMask(c) & EGraph::OpBit(in.op))) return false;
    absl::Span<const ClassId> tuples = BlockTuples(in.other, c);
    const CompiledPattern::BlockVar* vars =
        p_.block_vars_.data() + in.prefix_regs;
    const uint32_t width = in.prefix + 1;
    for (size_t t = 0; t < tuples.size(); t += width) {
      bool consistent = true;
      for (uint32_t k = 0; k < in.prefix && consistent; ++k) {
        if (vars[k].check) {
          consistent = regs_[vars[k].reg] == tuples[t + k];
        } else {
          regs_[vars[k].reg] = tuples[t + k];
        }
      }
      if (!consistent) continue;
      if (Run(pc + 1, std::max(stamp, tuples[t + in.prefix]))) return true;
    }
    return false;
  }

  absl::Span<const ClassId> BlockTuples(uint32_t block, ClassId c);

  bool Bind(size_t pc, const Instr& in, uint32_t stamp) {
    if (!(g_.OpMask(regs_[in.reg]) & EGraph::OpBit(in.op))) return false;
    absl::Span<const NodeId> nodes = g_.NodesWithOpIn(regs_[in.reg], in.op);
    // The run is sorted by (payload, arity, children): find the e-nodes
    // with the payload, arity and bound leading children.
    const uint32_t* bound = p_.bound_regs_.data() + in.prefix_regs;
    auto compare = [&](NodeId n) {
      ENodeRef r = g_.Node(n);
      if (r.payload != in.payload) return r.payload < in.payload ? -1 : 1;
      if (r.children.size() != in.arity) {
        return r.children.size() < in.arity ? -1 : 1;
      }
      for (uint32_t k = 0; k < in.prefix; ++k) {
        ClassId want = regs_[bound[k]];
        if (r.children[k] != want) return r.children[k] < want ? -1 : 1;
      }
      return 0;
    };
    size_t i = 0;
    if (nodes.size() > 8) {
      i = std::partition_point(nodes.begin(), nodes.end(),
                               [&](NodeId n) { return compare(n) < 0; }) -
          nodes.begin();
    }
    for (; i < nodes.size(); ++i) {
      int order = compare(nodes[i]);
      if (order < 0) continue;
      if (order > 0) break;
      ENodeRef r = g_.Node(nodes[i]);
      CopyIds(r.children.data() + in.prefix, in.arity - in.prefix,
              &regs_[in.other + in.prefix]);
      if (Run(pc + 1, std::max(stamp, g_.Stamp(nodes[i])))) return true;
    }
    return false;
  }

  // The class of the instance of pattern node `node` under the registers;
  // raises `stamp` to the newest stamp of the e-nodes it looks up.
  ClassId LookupNode(uint32_t node, uint32_t* stamp) {
    const Pattern& p = p_.pattern_;
    const Pattern::Node& n = p.node(node);
    if (n.is_var()) return regs_[p_.var_reg_[n.var]];
    // Resolved ground subpatterns (ResolveGround fills them in order).
    if (p_.ground_slot_[node] < ground_classes_.size()) {
      return ground_classes_[p_.ground_slot_[node]];
    }
    absl::InlinedVector<ClassId, 4> kids;
    for (uint32_t c : p.children(node)) {
      ClassId k = LookupNode(c, stamp);
      if (k == kNoId) return kNoId;
      kids.push_back(k);
    }
    std::optional<NodeId> found = g_.LookupNode(n.op, n.payload, kids);
    if (!found) return kNoId;
    *stamp = std::max(*stamp, g_.Stamp(*found));
    return g_.Find(*found);
  }

  // The stamp of the e-node at the root of a match.
  uint32_t RootStampOf(NodeId n) const { return sink_.RootStamp(g_, n); }

  bool Yield(uint32_t stamp) {
    if (tuples_) {
      for (VarId v = 0; v < p_.num_vars_; ++v) {
        if (p_.var_reg_[v] != kNoId) tuples_->push_back(regs_[p_.var_reg_[v]]);
      }
      tuples_->push_back(stamp);
    } else if (sink_.MayAppend(stamp)) {
      for (VarId v = 0; v < p_.num_vars_; ++v) {
        if (p_.var_reg_[v] != kNoId) subst_[v] = regs_[p_.var_reg_[v]];
      }
      sink_.Offer(regs_[0], subst_, p_.num_vars_, stamp);
    }
    return sink_.Count();
  }

  const CompiledPattern& p_;
  const EGraph& g_;
  MatchSink sink_;
  std::vector<ClassId>* tuples_;
  // Inline: a search of a small e-graph costs less than three allocations.
  absl::InlinedVector<ClassId, 16> regs_;
  absl::InlinedVector<ClassId, 8> subst_;
  absl::InlinedVector<ClassId, 4> ground_classes_;
  uint32_t ground_stamp_ = 0;
  struct BlockCache;
  std::vector<std::unique_ptr<BlockCache>> blocks_;  // by block, made lazily
};

// The tuples of one block: a direct-mapped cache from class to its run of
// tuples in `tuples` (a collision only costs a recomputation).
struct MatchMachine::BlockCache {
  static constexpr size_t kMaxSlots = 4096;
  struct Slot {
    ClassId key = kNoId;
    uint32_t begin = 0;
    uint32_t end = 0;
  };
  BlockCache(const CompiledPattern& p, const EGraph& g)
      : machine(p, g, ~size_t{0}, 0, nullptr, &tuples) {
    // A power of two, no bigger than the e-graph needs.
    size_t size = 16;
    while (size < kMaxSlots && size < g.NumClasses()) size *= 2;
    slots.resize(size);
    resolved = machine.ResolveGround();
  }
  MatchMachine machine;
  std::vector<ClassId> tuples;
  std::vector<Slot> slots;
  bool resolved;
};

MatchMachine::~MatchMachine() = default;

absl::Span<const ClassId> MatchMachine::BlockTuples(uint32_t block, ClassId c) {
  if (blocks_.size() <= block) blocks_.resize(block + 1);
  if (!blocks_[block]) {
    blocks_[block] = std::make_unique<BlockCache>(p_.blocks_[block], g_);
  }
  BlockCache& cache = *blocks_[block];
  if (!cache.resolved) return {};
  BlockCache::Slot& slot =
      cache.slots[(c * 0x9e3779b1u) & (cache.slots.size() - 1)];
  if (slot.key != c) {
    slot.key = c;
    slot.begin = cache.tuples.size();
    cache.machine.SearchClass(c, 0);
    slot.end = cache.tuples.size();
  }
  return absl::Span<const ClassId>(cache.tuples)
      .subspan(slot.begin, slot.end - slot.begin);
}

uint64_t MatchHash(ClassId root, absl::Span<const ClassId> subst) {
  uint64_t h = (root + 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
  for (ClassId c : subst) {
    h = (h ^ (h >> 29) ^ c) * 0x94d049bb133111ebull;
  }
  return h ^ (h >> 31);
}

size_t CompiledPattern::Search(const EGraph& g, size_t limit, Matches* out,
                               uint32_t old_before,
                               const RetrySet* retry) const {
  assert(out->num_vars() >= num_vars_ && "Matches too narrow for the pattern");
  if (limit == 0 || pattern_.empty()) return 0;
  // Most rules of a big rule set have a root op the e-graph lacks.
  if (!root_is_var_ && program_[0].kind == Instr::Kind::kBind &&
      g.NodesWithOp(root_op_).empty()) {
    return 0;
  }
  MatchMachine m(*this, g, limit, old_before, out, nullptr, retry);
  if (!m.ResolveGround()) return 0;
  m.SearchAll();
  return m.found();
}

size_t CompiledPattern::SearchClass(const EGraph& g, ClassId root, size_t limit,
                                    Matches* out) const {
  assert(out->num_vars() >= num_vars_ && "Matches too narrow for the pattern");
  if (limit == 0 || pattern_.empty()) return 0;
  MatchMachine m(*this, g, limit, /*old_before=*/0, out);
  if (!m.ResolveGround()) return 0;
  m.SearchClass(root, kNoId);
  return m.found();
}

}  // namespace tessel::egraph
