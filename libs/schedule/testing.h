// What libs/schedule's tests share: a procedure whose statements and
// expressions the pattern, matching, binding and building tests point at.
#ifndef TESSEL_LIBS_SCHEDULE_TESTING_H_
#define TESSEL_LIBS_SCHEDULE_TESTING_H_

namespace tessel::schedule::testing {

// @p: two loop nests, a reduction in each, a guard, an assertion.
inline constexpr char kProc[] =
    "(proc @p ((size n) (in A (f32 n 8)) (out C (f32 n)))\n"
    "  (assert (== (% n 2) 0))\n"
    "  (for i 0 n\n"
    "    (assign (C i) 0.0)\n"
    "    (for k 0 8\n"
    "      (reduce (C i) (* (A i k) 2.0))))\n"
    "  (for j 0 n\n"
    "    (alloc t f32)\n"
    "    (assign t 1.0)\n"
    "    (if (== (% j 4) 0)\n"
    "      (then (reduce (C j) t)))))\n";

}  // namespace tessel::schedule::testing

#endif  // TESSEL_LIBS_SCHEDULE_TESTING_H_
