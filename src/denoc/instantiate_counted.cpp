// The families' functions for the counting scalar (count/counted.hpp), compiled here once for
// the operation counts: the same code as instantiate_double.cpp's, counting as it runs.

#include "denoc/families.hpp"

namespace denoc {

template class Model<Counted>;
DENOC_FAMILY_FUNCTIONS(DENOC_INSTANCE, Counted)

}  // namespace denoc
