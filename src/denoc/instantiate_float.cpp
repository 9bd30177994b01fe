// The families' functions for float (families.hpp), compiled here once for the library.

#include "denoc/families.hpp"

namespace denoc {

template class Model<float>;
DENOC_FAMILY_FUNCTIONS(DENOC_INSTANCE, float)

}  // namespace denoc
