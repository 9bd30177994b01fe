#include "denoc/io/robot_file.hpp"
