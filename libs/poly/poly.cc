#include "libs/poly/poly.h"

#include <isl/ctx.h>
#include <isl/options.h>

namespace tessel::poly {

Context::Context() : ctx_(isl_ctx_alloc()) {
  isl_options_set_on_error(ctx_, ISL_ON_ERROR_CONTINUE);
  isl_ctx_set_max_operations(ctx_, kMaxOperations);
}

Context::~Context() { isl_ctx_free(ctx_); }

}  // namespace tessel::poly
