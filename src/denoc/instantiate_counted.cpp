// Explicit instantiations of the templated algorithms for the counting scalar (counted.hpp), as
// instantiate_double.cpp does for double: the same code, compiled once more for the counts.

#define DENOC_INSTANTIATING
#include "denoc/count/count_operations.hpp"

namespace denoc {

DENOC_ALGORITHMS(template, Counted)

}  // namespace denoc
