#include "libs/polysimd/compression.h"

#include <vector>

#include "isl/aff.h"
#include "isl/local_space.h"
#include "isl/mat.h"
#include "isl/set.h"
#include "isl/space.h"
#include "isl/val.h"

namespace tessel::polysimd {
namespace {

// Matrix element (row, col) as an isl::val.
isl::val At(isl_mat* mat, int row, int col) {
  return isl::manage(isl_mat_get_element_val(mat, row, col));
}

Compression Identity(const isl::set& instances, std::string note) {
  isl::space space = instances.space();
  isl::multi_aff identity = isl::manage(isl_multi_aff_identity_on_domain_space(
      isl_space_copy(space.get())));
  // The compressed variables are anonymous, as in the paper.
  identity = isl::manage(isl_multi_aff_reset_tuple_id(identity.release(),
                                                      isl_dim_in));
  return Compression{identity,
                     instances.preimage(identity), std::move(note)};
}

}  // namespace

Compression Compress(const isl::set& instances, const isl::set& known) {
  // The equalities of the affine hull, without those of the symbolic
  // constants alone (gist), the hull's local variables lifted to set
  // variables after the instance's own.
  isl::set gist = instances.gist_params(known);
  isl_basic_set* hull = isl_basic_set_lift(isl_set_affine_hull(gist.copy()));
  isl_size dims = isl_basic_set_dim(hull, isl_dim_set);
  isl_size params = isl_basic_set_dim(hull, isl_dim_param);
  isl_mat* eq = isl_basic_set_equalities_matrix(
      hull, isl_dim_set, isl_dim_param, isl_dim_cst, isl_dim_div);
  isl_basic_set_free(hull);
  int rows = isl_mat_rows(eq);
  isl_size n = isl_set_dim(instances.get(), isl_dim_set);
  if (rows == 0) {
    isl_mat_free(eq);
    return Identity(instances, "");
  }
  // A v + B p + c = 0 with v = U z, A U = H lower triangular: z_r for r <
  // rows follow from p and the z before them when H's diagonal is +-1.
  isl_mat* a = isl_mat_drop_cols(isl_mat_copy(eq), dims,
                                isl_mat_cols(eq) - dims);
  isl_mat* u = nullptr;
  isl_mat* h = isl_mat_left_hermite(isl_mat_copy(a), 0, &u, nullptr);
  isl_mat_free(a);
  for (int r = 0; r < rows; ++r) {
    if (!At(h, r, r).abs().is_one()) {
      isl_mat_free(h);
      isl_mat_free(u);
      isl_mat_free(eq);
      return Identity(instances,
                      "the equalities define a lattice, not a unimodular "
                      "change of variables: not compressed");
    }
  }
  // The compressed space: the dims - rows free variables, anonymous.
  isl_space* space = isl_space_set_alloc(instances.ctx().get(), 0,
                                         dims - rows);
  space = isl_space_align_params(space, instances.space().params().release());
  isl::space domain = isl::manage(space);
  auto var = [&](int pos) {
    return isl::manage(isl_aff_var_on_domain(
        isl_local_space_from_space(domain.copy()), isl_dim_set, pos));
  };
  auto zero = [&]() {
    return isl::manage(isl_aff_zero_on_domain_space(domain.copy()));
  };
  std::vector<isl::aff> z;
  for (int r = 0; r < dims; ++r) {
    if (r >= rows) {
      z.push_back(var(r - rows));
      continue;
    }
    // H_rr z_r = -(B p + c)_r - sum_{k < r} H_rk z_k.
    isl::aff value = zero();
    for (int k = 0; k < params; ++k) {
      isl::val b = At(eq, r, dims + k);
      value = isl::manage(isl_aff_set_coefficient_val(
          value.release(), isl_dim_param, k, b.neg().release()));
    }
    value = isl::manage(isl_aff_set_constant_val(
        value.release(), At(eq, r, dims + params).neg().release()));
    for (int k = 0; k < r; ++k) {
      value = value.sub(z[k].scale(At(h, r, k)));
    }
    z.push_back(value.scale(At(h, r, r)));  // H_rr is its own inverse
  }
  // x = U z, the rows of the instance's own variables.
  isl::aff_list list(instances.ctx(), n);
  for (int i = 0; i < n; ++i) {
    isl::aff x = zero();
    for (int k = 0; k < dims; ++k) x = x.add(z[k].scale(At(u, i, k)));
    list = list.add(x);
  }
  isl_mat_free(h);
  isl_mat_free(u);
  isl_mat_free(eq);
  isl::space target = isl::manage(isl_space_map_from_domain_and_range(
      domain.release(), instances.space().release()));
  isl::multi_aff map(target, list);
  return Compression{map, instances.preimage(map), ""};
}

}  // namespace tessel::polysimd
