// E-class analyses (egg's Analysis, POPL'21 section 4): a datum per e-class,
// made from an e-node when its class is created, joined when classes merge,
// recomputed when a child's datum changes, and a hook (Modify) that may add
// e-nodes, union classes or prune e-nodes, e.g. constant folding. Several
// analyses can be attached to one e-graph (shapes, free De Bruijn variables,
// constants); each keeps its own data.
#ifndef TESSEL_LIBS_EGRAPH_ANALYSIS_H_
#define TESSEL_LIBS_EGRAPH_ANALYSIS_H_

#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/segmented_vector.h"

namespace tessel::egraph {

class EGraph;

// An e-node seen through the e-graph: its op, payload and child classes
// (canonical after Rebuild; possibly stale between a Union and Rebuild, so
// analyses that compare child ids should Find them).
struct ENodeRef {
  OpId op;
  PayloadId payload;
  absl::Span<const ClassId> children;
};

// What a merge changed, as egg's DidMerge: whether the data of the class that
// is kept (`into`) and the data that came from the absorbed class (`from`)
// differ from the merged result. The e-graph re-analyses the parents of the
// side that changed.
struct DidMerge {
  bool into_changed = false;
  bool from_changed = false;
  DidMerge operator|(DidMerge o) const {
    return {into_changed || o.into_changed, from_changed || o.from_changed};
  }
};

// The engine's view of an analysis. Most analyses derive from AnalysisOf<D>
// below instead, which stores the data and implements the first three hooks
// from Make and Merge.
class Analysis {
 public:
  virtual ~Analysis() = default;

  // A new class `id` was created for `node`.
  virtual void MakeClass(const EGraph& g, ClassId id, const ENodeRef& node) = 0;
  // Class `from` is being merged into class `into` (both canonical).
  virtual DidMerge MergeClasses(ClassId into, ClassId from) = 0;
  // A child of `node`, an e-node of canonical class `id`, changed its datum:
  // recompute the datum from `node` and join it into `id`'s. Returns whether
  // `id`'s datum changed.
  virtual bool Remake(const EGraph& g, ClassId id, const ENodeRef& node) = 0;
  // Called after class `id` (canonical) was created, merged or re-analysed.
  // May call Add, Union and RemoveNodesIf on the e-graph (egg's modify).
  virtual void Modify(EGraph& /*g*/, ClassId /*id*/) {}
};

// An analysis with a datum of type D per class.
template <typename D>
class AnalysisOf : public Analysis {
 public:
  using Data = D;

  // The datum of a new e-node (children's data are available through Get).
  virtual D Make(const EGraph& g, const ENodeRef& node) = 0;
  // Joins `from` into `into`.
  virtual DidMerge Merge(D& into, D from) = 0;

  // The datum of a canonical class.
  const D& operator[](ClassId canonical) const { return data_[canonical]; }
  // The datum of any class id (found first, like egg's egraph[id].data).
  template <typename G = EGraph>
  const D& Get(const G& g, ClassId id) const {
    return data_[g.Find(id)];
  }
  D& mutable_data(ClassId canonical) { return data_[canonical]; }

  void MakeClass(const EGraph& g, ClassId id, const ENodeRef& node) final {
    data_.GrowTo(id + 1);
    data_[id] = Make(g, node);
  }
  DidMerge MergeClasses(ClassId into, ClassId from) final {
    DidMerge result = Merge(data_[into], std::move(data_[from]));
    data_[from] = D();
    return result;
  }
  bool Remake(const EGraph& g, ClassId id, const ENodeRef& node) final {
    return Merge(data_[id], Make(g, node)).into_changed;
  }

 private:
  SegmentedVector<D> data_;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_ANALYSIS_H_
