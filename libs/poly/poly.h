// The isl context every polyhedral question of Tessel is asked in. The
// questions themselves are built on isl's C++ interface over the typed IR
// (libs/poly/model.h) or over the kernel language's statements
// (libs/kernel/poly_checks.h), and asked through poly::Ask, which gives each
// a fresh operation budget and turns isl's errors into statuses.
#ifndef TESSEL_LIBS_POLY_POLY_H_
#define TESSEL_LIBS_POLY_POLY_H_

struct isl_ctx;

namespace tessel::poly {

// Owns an isl context that reports errors instead of aborting and abandons
// a question after kMaxOperations elementary steps, so that pathological
// constraints end in a ResourceExhausted error instead of a hang. Not
// thread-safe; one per thread.
class Context {
 public:
  // Real kernels need a few thousand.
  static constexpr unsigned long kMaxOperations = 20'000'000;

  Context();
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  isl_ctx* get() const { return ctx_; }

 private:
  isl_ctx* ctx_;
};

}  // namespace tessel::poly

#endif  // TESSEL_LIBS_POLY_POLY_H_
