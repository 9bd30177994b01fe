// Explicit instantiations of the templated algorithms for double (families.hpp,
// engine/dynamics.hpp). scalar type: in one translation unit g++ spent its inlining budget on the
// first type and left the second with calls to small kernels (float forward dynamics 1.5x slower
// than double).

#define DENOC_INSTANTIATING
#include "denoc/denoc.hpp"

namespace denoc {

DENOC_ALGORITHMS(template, double)
DENOC_DISPATCH(template, double)

}  // namespace denoc
