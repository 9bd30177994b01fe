// Explicit instantiations of the templated algorithms for double (see denoc.hpp). One file per
// scalar type: in one translation unit g++ spent its inlining budget on the first type and left
// the second with calls to small kernels (float forward dynamics 1.5x slower than double).

#define DENOC_INSTANTIATING
#include "denoc/denoc.hpp"

namespace denoc {

DENOC_ALGORITHMS(template, double)

}  // namespace denoc
