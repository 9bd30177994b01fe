// Explicit instantiations of the templated algorithms for the counting scalar (count/counted.hpp),
// as instantiate_double.cpp does for double: the same code, compiled once more for the counts.

#define DENOC_INSTANTIATING
#include "denoc/engine/count_operations.hpp"

namespace denoc {

DENOC_ALGORITHMS(template, Counted)
DENOC_DISPATCH(template, Counted)

}  // namespace denoc
