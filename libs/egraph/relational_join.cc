// Running relational patterns (relational.cc builds the query and says how
// the join works): a bottom-up semi-join pass, then generic join over the
// e-graph's class node lists and per-search sorted copies.
#include <algorithm>
#include <cassert>
#include <numeric>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "libs/egraph/relational.h"

namespace tessel::egraph {

// One search: the relations, the bindings and the matches found.
class GenericJoin {
 public:
  GenericJoin(const RelationalPattern& p, const EGraph& g, size_t limit,
              uint32_t old_before, Matches* out, const RetrySet* retry)
      : p_(p),
        g_(g),
        sink_(limit, old_before, retry, out),
        vals_(p.num_qvars_, kNoId),
        subst_(out->num_vars(), kNoId) {}

  // Looks up the constants; false if one is not in the e-graph.
  bool ResolveConstants() {
    for (uint32_t k = 0; k < p_.num_consts_; ++k) {
      vals_[k] = LookupGround(p_.ground_nodes_[k]);
      if (vals_[k] == kNoId) return false;
    }
    return true;
  }

  // Prepares every atom's relation; false if one is empty.
  bool PrepareRelations();

  void Run() {
    switch (p_.shape_) {
      case RelationalPattern::Shape::kEmpty:
        return;
      case RelationalPattern::Shape::kVar:
        // As CompiledPattern: a class is as old as its first e-node.
        for (ClassId c : g_.Classes()) {
          vals_[0] = c;
          if (Yield(RootStampOf(c))) return;
        }
        return;
      case RelationalPattern::Shape::kGround:
        Yield(ground_stamp_);
        return;
      case RelationalPattern::Shape::kQuery:
        Join(0, ground_stamp_);
        return;
    }
  }

  size_t found() const { return sink_.found(); }

 private:
  using Atom = RelationalPattern::Atom;
  using Participant = RelationalPattern::Participant;
  // The rows of an atom still consistent with the bindings: [lo, hi) of the
  // class run `nodes` (indexed atoms, once the class is bound) or of the
  // sorted copy.
  struct Cursor {
    uint32_t lo = 0;
    uint32_t hi = 0;
    const NodeId* nodes = nullptr;
  };
  // A sorted copy: per row the values of the levels, then the stamp.
  struct Table {
    uint32_t width = 0;
    std::vector<ClassId> rows;
  };

  bool Join(uint32_t pos, uint32_t stamp);
  bool Bind(uint32_t pos, ClassId v, int driver, uint32_t lo, uint32_t hi,
            uint32_t stamp);
  bool Narrow(const Participant& part, ClassId v);
  bool CheckColumns(uint32_t atom, uint32_t level);
  void BuildTable(uint32_t atom);
  // Computes reduced_[atom]; false if it is empty.
  bool Reduce(uint32_t atom);
  // Whether the subtree of `atom` may match in class c: in reduced_ if the
  // atom is reduced, else c has an e-node of the atom's op and payload.
  bool MayMatch(uint32_t atom, ClassId c) const;

  // The value of a participant's level in row i of its cursor.
  ClassId Value(const Participant& part, uint32_t i) const {
    const Atom& a = p_.atoms_[part.atom];
    if (!a.indexed) {
      const Table& t = tables_[part.atom];
      return t.rows[size_t{i} * t.width + part.level];
    }
    assert(part.level > 0 && "an indexed atom's class is not enumerated");
    return g_.Node(cursors_[part.atom].nodes[i])
        .children[a.level_cols[part.level] - 1];
  }

  // The stamp of an atom's one row once all its levels are bound.
  uint32_t RowStamp(uint32_t atom) const {
    const Cursor& c = cursors_[atom];
    assert(c.hi == c.lo + 1 && "a bound atom is one e-node");
    if (!p_.atoms_[atom].indexed) {
      const Table& t = tables_[atom];
      return t.rows[size_t{c.lo} * t.width + t.width - 1];
    }
    NodeId n = c.nodes[c.lo];
    return p_.atoms_[atom].is_root ? RootStampOf(n) : g_.Stamp(n);
  }

  uint32_t RootStampOf(NodeId n) const { return sink_.RootStamp(g_, n); }

  // Narrows [lo, hi) to the rows where cmp(row) == 0; cmp is -1, 0, 1 and
  // nondecreasing over the range.
  template <typename Cmp>
  static void EqualRange(Cursor* c, Cmp cmp) {
    uint32_t lo = c->lo, hi = c->hi;
    if (hi - lo <= 8) {
      while (lo < hi && cmp(lo) < 0) ++lo;
      uint32_t end = lo;
      while (end < hi && cmp(end) == 0) ++end;
      c->lo = lo;
      c->hi = end;
      return;
    }
    auto first = [&](uint32_t from, int at_least) {
      uint32_t count = hi - from;
      while (count > 0) {
        uint32_t step = count / 2;
        if (cmp(from + step) < at_least) {
          from += step + 1;
          count -= step + 1;
        } else {
          count = step;
        }
      }
      return from;
    };
    c->lo = first(lo, 0);
    c->hi = first(c->lo, 1);
  }

  ClassId LookupGround(uint32_t node) {
    const Pattern& p = p_.pattern_;
    const Pattern::Node& n = p.node(node);
    absl::InlinedVector<ClassId, 4> kids;
    for (uint32_t c : p.children(node)) {
      ClassId k = LookupGround(c);
      if (k == kNoId) return kNoId;
      kids.push_back(k);
    }
    std::optional<NodeId> found = g_.LookupNode(n.op, n.payload, kids);
    if (!found) return kNoId;
    ground_stamp_ = std::max(ground_stamp_, g_.Stamp(*found));
    return g_.Find(*found);
  }

  bool Yield(uint32_t stamp) {
    if (sink_.MayAppend(stamp)) {
      for (VarId v = 0; v < p_.num_vars_; ++v) {
        if (p_.var_qvar_[v] != kNoId) subst_[v] = vals_[p_.var_qvar_[v]];
      }
      sink_.Offer(vals_[p_.root_qvar_], subst_, p_.num_vars_, stamp);
    }
    return sink_.Count();
  }

  const RelationalPattern& p_;
  const EGraph& g_;
  MatchSink sink_;
  absl::InlinedVector<ClassId, 16> vals_;  // by query variable
  absl::InlinedVector<ClassId, 8> subst_;
  uint32_t ground_stamp_ = 0;
  absl::InlinedVector<Cursor, 8> cursors_;  // by atom
  std::vector<Table> tables_;               // by atom, for those not indexed
  // By atom, for those reduced: the classes where its subtree may match.
  std::vector<std::vector<ClassId>> reduced_;
};

bool GenericJoin::PrepareRelations() {
  const size_t num_atoms = p_.atoms_.size();
  cursors_.assign(num_atoms, Cursor());
  if (p_.any_table_) tables_.resize(num_atoms);
  for (uint32_t i = 0; i < num_atoms; ++i) {
    if (g_.NodesWithOp(p_.atoms_[i].op).empty()) return false;
  }
  // Children before parents: atoms come breadth first.
  if (p_.any_reduced_) reduced_.resize(num_atoms);
  for (uint32_t i = num_atoms; i-- > 0;) {
    if (p_.atoms_[i].reduced && !Reduce(i)) return false;
  }
  for (uint32_t i = 0; i < num_atoms; ++i) {
    const Atom& a = p_.atoms_[i];
    if (!a.indexed) {
      BuildTable(i);
      if (tables_[i].rows.empty()) return false;
      cursors_[i] = {
          0, static_cast<uint32_t>(tables_[i].rows.size() / tables_[i].width)};
    }
  }
  return true;
}

bool GenericJoin::Reduce(uint32_t atom) {
  const Atom& a = p_.atoms_[atom];
  std::vector<ClassId>& classes = reduced_[atom];
  for (NodeId n : g_.NodesWithOp(a.op)) {
    ENodeRef r = g_.Node(n);
    if (r.payload != a.payload || r.children.size() != a.arity) continue;
    bool keep = true;
    for (uint32_t k = 0; k < a.arity && keep; ++k) {
      const uint32_t q = a.cols[k + 1];
      if (q < p_.num_consts_) {
        keep = r.children[k] == vals_[q];
      } else if (p_.class_atom_[q] != kNoId) {
        keep = MayMatch(p_.class_atom_[q], r.children[k]);
      }
    }
    if (keep) classes.push_back(g_.Find(n));
  }
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  return !classes.empty();
}

bool GenericJoin::MayMatch(uint32_t atom, ClassId c) const {
  const Atom& a = p_.atoms_[atom];
  if (a.reduced) {
    return std::binary_search(reduced_[atom].begin(), reduced_[atom].end(), c);
  }
  if (!(g_.OpMask(c) & EGraph::OpBit(a.op))) return false;
  for (NodeId n : g_.NodesWithOpIn(c, a.op)) {
    ENodeRef r = g_.Node(n);
    if (r.payload == a.payload && r.children.size() == a.arity) return true;
  }
  return false;
}

void GenericJoin::BuildTable(uint32_t atom) {
  const Atom& a = p_.atoms_[atom];
  Table& t = tables_[atom];
  const uint32_t levels = a.level_cols.size();
  t.width = levels + 1;
  std::vector<ClassId> unsorted;
  absl::InlinedVector<ClassId, 4> row(a.cols.size());
  for (NodeId n : g_.NodesWithOp(a.op)) {
    ENodeRef r = g_.Node(n);
    if (r.payload != a.payload || r.children.size() != a.arity) continue;
    row[0] = g_.Find(n);
    if (a.reduced && !MayMatch(atom, row[0])) continue;
    std::copy(r.children.begin(), r.children.end(), row.begin() + 1);
    // Constants and repeated variables: the columns that are not levels.
    bool keep = true;
    for (uint32_t col = 0; col < row.size() && keep; ++col) {
      uint32_t q = a.cols[col];
      if (q < p_.num_consts_) {
        keep = row[col] == vals_[q];
      } else {
        uint32_t first =
            std::find(a.cols.begin(), a.cols.end(), q) - a.cols.begin();
        keep = row[col] == row[first];
      }
    }
    if (!keep) continue;
    for (uint32_t col : a.level_cols) unsorted.push_back(row[col]);
    unsorted.push_back(a.is_root ? RootStampOf(n) : g_.Stamp(n));
  }
  const size_t count = unsorted.size() / t.width;
  std::vector<uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    const ClassId* rx = unsorted.data() + size_t{x} * t.width;
    const ClassId* ry = unsorted.data() + size_t{y} * t.width;
    return std::lexicographical_compare(rx, rx + levels, ry, ry + levels);
  });
  t.rows.reserve(unsorted.size());
  for (uint32_t i : order) {
    const ClassId* r = unsorted.data() + size_t{i} * t.width;
    t.rows.insert(t.rows.end(), r, r + t.width);
  }
}

bool GenericJoin::Join(uint32_t pos, uint32_t stamp) {
  // Variables of one atom that is down to one row (those of the root's
  // children, once the root e-node is chosen): their values are known, and
  // the row stays, so nothing is saved or restored.
  for (; pos < p_.participants_.size(); ++pos) {
    const std::vector<Participant>& parts = p_.participants_[pos];
    if (parts.size() != 1) break;
    const Participant& part = parts[0];
    const Atom& a = p_.atoms_[part.atom];
    Cursor& c = cursors_[part.atom];
    if ((a.indexed && part.level == 0) || c.hi - c.lo != 1) break;
    vals_[p_.num_consts_ + pos] = Value(part, c.lo);
    const Cursor row = c;
    if (!CheckColumns(part.atom, part.level)) {
      c = row;
      return false;
    }
    if (part.level + 1 == a.level_cols.size()) {
      stamp = std::max(stamp, RowStamp(part.atom));
    }
  }
  if (pos == p_.participants_.size()) return Yield(stamp);
  const std::vector<Participant>& parts = p_.participants_[pos];
  // The driver: the participant with the fewest rows left. An indexed atom
  // at its first level has none yet (its class is what is being chosen);
  // only the root has no other participant.
  int driver = -1;
  uint32_t fewest = ~uint32_t{0};
  for (size_t k = 0; k < parts.size(); ++k) {
    const Participant& part = parts[k];
    if (p_.atoms_[part.atom].indexed && part.level == 0) continue;
    const Cursor& c = cursors_[part.atom];
    if (c.hi - c.lo < fewest) {
      fewest = c.hi - c.lo;
      driver = k;
    }
  }
  if (driver < 0) {
    // The root: its atom's rows one by one, in EGraph::NodesWithOp order as
    // CompiledPattern does, each e-node's class and children at once.
    assert(parts.size() == 1 && p_.atoms_[parts[0].atom].is_root);
    const uint32_t atom = parts[0].atom;
    const Atom& a = p_.atoms_[atom];
    for (const NodeId& n : g_.NodesWithOp(a.op)) {
      ENodeRef r = g_.Node(n);
      if (r.payload != a.payload || r.children.size() != a.arity) continue;
      vals_[p_.num_consts_ + pos] = g_.Find(n);
      cursors_[atom] = {0, 1, &n};
      if (!CheckColumns(atom, 0)) continue;
      uint32_t s =
          a.level_cols.size() == 1 ? std::max(stamp, RowStamp(atom)) : stamp;
      if (Join(pos + 1, s)) return true;
    }
    return false;
  }
  const Participant& d = parts[driver];
  const Atom& a = p_.atoms_[d.atom];
  // At an atom's last level, with no checked columns after it, every row
  // left has its own value: no need to look for the end of a run.
  const bool distinct = d.level + 1 == a.level_cols.size() &&
                        (!a.indexed || a.level_cols.back() == a.arity);
  const uint32_t end = cursors_[d.atom].hi;
  for (uint32_t i = cursors_[d.atom].lo; i < end;) {
    ClassId v = Value(d, i);
    uint32_t j = i + 1;
    while (!distinct && j < end && Value(d, j) == v) ++j;
    if (Bind(pos, v, driver, i, j, stamp)) return true;
    i = j;
  }
  return false;
}

// Binds query variable number `pos` (after the constants) to v: the driver's
// rows for v are [lo, hi); every other participant narrows to v.
bool GenericJoin::Bind(uint32_t pos, ClassId v, int driver, uint32_t lo,
                       uint32_t hi, uint32_t stamp) {
  const std::vector<Participant>& parts = p_.participants_[pos];
  vals_[p_.num_consts_ + pos] = v;
  absl::InlinedVector<Cursor, 4> saved;
  for (const Participant& part : parts) saved.push_back(cursors_[part.atom]);
  bool ok = true;
  for (size_t k = 0; k < parts.size() && ok; ++k) {
    const Participant& part = parts[k];
    if (static_cast<int>(k) == driver) {
      cursors_[part.atom].lo = lo;
      cursors_[part.atom].hi = hi;
      ok = CheckColumns(part.atom, part.level);
    } else {
      ok = Narrow(part, v);
    }
    if (ok && part.level + 1 == p_.atoms_[part.atom].level_cols.size()) {
      stamp = std::max(stamp, RowStamp(part.atom));
    }
  }
  bool stop = ok && Join(pos + 1, stamp);
  for (size_t k = 0; k < parts.size(); ++k) {
    cursors_[parts[k].atom] = saved[k];
  }
  return stop;
}

bool GenericJoin::Narrow(const Participant& part, ClassId v) {
  const Atom& a = p_.atoms_[part.atom];
  Cursor& c = cursors_[part.atom];
  if (!a.indexed) {
    const Table& t = tables_[part.atom];
    const ClassId* rows = t.rows.data() + part.level;
    EqualRange(&c, [&](uint32_t i) {
      ClassId x = rows[size_t{i} * t.width];
      return x < v ? -1 : x > v ? 1 : 0;
    });
    return c.lo < c.hi;
  }
  if (part.level == 0) {
    if (!(g_.OpMask(v) & EGraph::OpBit(a.op))) return false;
    if (a.reduced && !MayMatch(part.atom, v)) return false;
    absl::Span<const NodeId> run = g_.NodesWithOpIn(v, a.op);
    c = {0, static_cast<uint32_t>(run.size()), run.data()};
    // The run is sorted by (payload, arity, children).
    EqualRange(&c, [&](uint32_t i) {
      ENodeRef r = g_.Node(c.nodes[i]);
      if (r.payload != a.payload) return r.payload < a.payload ? -1 : 1;
      if (r.children.size() != a.arity) {
        return r.children.size() < a.arity ? -1 : 1;
      }
      return 0;
    });
  } else {
    const uint32_t kid = a.level_cols[part.level] - 1;
    EqualRange(&c, [&](uint32_t i) {
      ClassId x = g_.Node(c.nodes[i]).children[kid];
      return x < v ? -1 : x > v ? 1 : 0;
    });
  }
  return c.lo < c.hi && CheckColumns(part.atom, part.level);
}

// An indexed atom, narrowed at `level`: narrows further by the columns up to
// its next level, whose values are known (constants and repeats). Sorted
// copies were filtered by them when built.
bool GenericJoin::CheckColumns(uint32_t atom, uint32_t level) {
  const Atom& a = p_.atoms_[atom];
  if (!a.indexed) return true;
  Cursor& c = cursors_[atom];
  const uint32_t end =
      level + 1 < a.level_cols.size() ? a.level_cols[level + 1] : a.cols.size();
  for (uint32_t col = a.level_cols[level] + 1; col < end && c.lo < c.hi;
       ++col) {
    const ClassId v = vals_[a.cols[col]];
    EqualRange(&c, [&](uint32_t i) {
      ClassId x = g_.Node(c.nodes[i]).children[col - 1];
      return x < v ? -1 : x > v ? 1 : 0;
    });
  }
  return c.lo < c.hi;
}

size_t RelationalPattern::Search(const EGraph& g, size_t limit, Matches* out,
                                 uint32_t old_before,
                                 const RetrySet* retry) const {
  assert(out->num_vars() >= num_vars_ && "Matches too narrow for the pattern");
  if (limit == 0 || shape_ == Shape::kEmpty) return 0;
  GenericJoin join(*this, g, limit, old_before, out, retry);
  if (!join.ResolveConstants()) return 0;
  if (shape_ == Shape::kQuery && !join.PrepareRelations()) return 0;
  join.Run();
  return join.found();
}

}  // namespace tessel::egraph
