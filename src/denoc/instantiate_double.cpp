// The families' functions for double (families.hpp), compiled here once for the library.

#include "denoc/families.hpp"

namespace denoc {

template class Model<double>;
DENOC_FAMILY_FUNCTIONS(DENOC_INSTANCE, double)

}  // namespace denoc
