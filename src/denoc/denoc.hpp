// The core library in one include: the algorithm families (families.hpp) and the engine's
// Dynamics bundle with its dispatch on a Route (engine/dynamics.hpp).
#pragma once

#include "denoc/engine/dynamics.hpp"
#include "denoc/families.hpp"
