// Variable compression (Meister 2004; Verdoolaege et al., section 5.2): the
// equalities of the affine hull of an instance set, existentially
// quantified variables among them treated as set variables, in Hermite
// normal form (isl_mat_left_hermite) give a unimodular change of variables
// in which the equalities fix the leading ones; the others are the
// compressed set's.
#ifndef TESSEL_LIBS_POLYSIMD_COMPRESSION_H_
#define TESSEL_LIBS_POLYSIMD_COMPRESSION_H_

#include <string>

#include "isl/cpp.h"

namespace tessel::polysimd {

struct Compression {
  // [i0, ...] -> S[...], affine in the compressed variables and the
  // symbolic constants; the identity when nothing compresses.
  isl::multi_aff map;
  // The instances in the compressed variables: the preimage of the set.
  isl::set compressed;
  // Why the equalities were not used, or empty.
  std::string note;
};

// Compresses `instances` (whose symbolic constants satisfy `known`).
Compression Compress(const isl::set& instances, const isl::set& known);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_COMPRESSION_H_
