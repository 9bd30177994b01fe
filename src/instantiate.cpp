// Explicit instantiations of the templated algorithms for float and double (see denoc.hpp).
#define DENOC_INSTANTIATING
#include "denoc/denoc.hpp"

namespace denoc {

DENOC_ALGORITHMS(template, float)
DENOC_ALGORITHMS(template, double)

}  // namespace denoc
