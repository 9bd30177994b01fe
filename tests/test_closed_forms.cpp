#include <gtest/gtest.h>
#include "denoc/denoc.hpp"
TEST(Placeholder, Builds) {
  SUCCEED();
}
