#include "denoc/engine/quantity_table.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace denoc {

namespace {

// How the entries of a quantity's row are laid out (docs/csv.md); nv = n, or 6 + n with a floating
// base.
enum class Layout {
  forces,     // nv forces: the base's six first (docs/floating-base.md), then P1..Pn
  square,     // an nv x nv matrix row by row: P_i_j
  udu,        // U as a square, then the diagonal of D: D_1..D_nv
  pose,       // the origin x, y, z, then R row by row: R_i_j
  rectangle,  // a matrix of `rows` rows and nv columns, row by row: P_i_j
  reactions,  // each joint's force and moment: f1_x .. n1_z, f2_x ..
  named,      // the columns `named`
  partials,   // two nv x nv matrices row by row: prefix_q_i_j, then prefix_qd_i_j
  loops,      // of a robot with loops: columns the loops name (docs/loops.md)
};

// One quantity, as every part of the suite reads it: ridim's --quantity name, the layout of its
// row and the prefix of its columns, and what it asks of the run.
struct QuantityFacts {
  Quantity quantity;
  const char* name;
  Layout layout;
  const char* prefix = "";
  int rows = 0;                        // of a rectangle
  std::array<const char*, 7> named{};  // the named columns, nullptr after the last
  bool of_frame = false;               // of a frame: the tool frame unless one is chosen
  bool of_motion = false;  // the bodies' motion in the world frame (motion/, docs/legged.md)
  bool packs = false;      // computed by the packs too (lane_quantities.hpp)
};

// In the order of ridim --help and docs/csv.md.
const std::array<QuantityFacts, 20> kQuantities{{
    {Quantity::torques, "torques", Layout::forces, "tau", 0, {}, false, false, true},
    {Quantity::mass_matrix, "mass-matrix", Layout::square, "M", 0, {}, false, false, true},
    {Quantity::inverse_mass_matrix, "inverse-mass-matrix", Layout::square, "Minv"},
    {Quantity::bias, "bias", Layout::forces, "h", 0, {}, false, false, true},
    {Quantity::gravity, "gravity", Layout::forces, "g", 0, {}, false, false, true},
    {Quantity::pose, "pose", Layout::pose, "R", 0, {}, true},
    {Quantity::jacobian, "jacobian", Layout::rectangle, "J", 6, {}, true},
    {Quantity::reactions, "reactions", Layout::reactions},
    {Quantity::coriolis, "coriolis", Layout::square, "C"},
    {Quantity::udu, "udu", Layout::udu, "U"},
    {Quantity::frame_velocity,
     "frame-velocity",
     Layout::named,
     "",
     0,
     {"vx", "vy", "vz", "wx", "wy", "wz"},
     true,
     true},
    {Quantity::frame_acceleration,
     "frame-acceleration",
     Layout::named,
     "",
     0,
     {"ax", "ay", "az", "alpha_x", "alpha_y", "alpha_z"},
     true,
     true},
    {Quantity::com,
     "com",
     Layout::named,
     "",
     0,
     {"mass", "com_x", "com_y", "com_z", "com_vx", "com_vy", "com_vz"},
     false,
     true},
    {Quantity::com_jacobian, "com-jacobian", Layout::rectangle, "Jc", 3, {}, false, true},
    {Quantity::centroidal_momentum,
     "centroidal-momentum",
     Layout::named,
     "",
     0,
     {"hg_x", "hg_y", "hg_z", "kg_x", "kg_y", "kg_z"},
     false,
     true},
    {Quantity::centroidal_matrix, "centroidal-matrix", Layout::rectangle, "Ag", 6, {}, false, true},
    {Quantity::torque_derivatives,
     "torque-derivatives",
     Layout::partials,
     "dtau_d",
     0,
     {},
     false,
     false,
     true},
    {Quantity::acceleration_derivatives, "acceleration-derivatives", Layout::partials, "dqdd_d"},
    {Quantity::joint_states, "joint-states", Layout::loops},
    {Quantity::constraint_forces, "constraint-forces", Layout::loops},
}};

const QuantityFacts& facts(Quantity quantity) {
  for (const QuantityFacts& f : kQuantities)
    if (f.quantity == quantity) return f;
  throw std::invalid_argument("quantity " + std::to_string(static_cast<int>(quantity)) +
                              " is not one of the suite's");
}

int named_count(const QuantityFacts& f) {
  return static_cast<int>(std::find(f.named.begin(), f.named.end(), nullptr) - f.named.begin());
}

// The base's generalized forces, first with a floating base (docs/floating-base.md).
constexpr std::array<const char*, 6> kBaseForces{"base_fx", "base_fy", "base_fz",
                                                 "base_nx", "base_ny", "base_nz"};

}  // namespace

const std::vector<std::pair<std::string, Quantity>>& quantity_names() {
  static const std::vector<std::pair<std::string, Quantity>> names = [] {
    std::vector<std::pair<std::string, Quantity>> all;
    for (const QuantityFacts& f : kQuantities)
      all.emplace_back(f.name, f.quantity);
    return all;
  }();
  return names;
}

std::string quantity_name(Quantity quantity) {
  return facts(quantity).name;
}

bool takes_frame(Quantity quantity) {
  return facts(quantity).of_frame;
}

bool needs_loops(Quantity quantity) {
  return facts(quantity).layout == Layout::loops;
}

bool of_motion(Quantity quantity) {
  return facts(quantity).of_motion;
}

Eigen::Index quantity_row_size(Quantity quantity, int n, bool floating) {
  const QuantityFacts& f = facts(quantity);
  const Eigen::Index nv = floating ? n + 6 : n;
  switch (f.layout) {
    case Layout::forces:
      return nv;
    case Layout::square:
      return nv * nv;
    case Layout::udu:
      return nv * nv + nv;
    case Layout::pose:
      return 12;
    case Layout::rectangle:
      return f.rows * nv;
    case Layout::reactions:
      return 6 * Eigen::Index{n};
    case Layout::named:
      return named_count(f);
    case Layout::partials:
      return 2 * nv * nv;
    case Layout::loops:  // ClosedLoopSamples knows them
      return 0;
  }
  return 0;
}

bool computed_by_packs(Quantity quantity) {
  return facts(quantity).packs;
}

std::vector<std::string> quantity_columns(Quantity quantity, int n, bool floating) {
  const QuantityFacts& f = facts(quantity);
  const std::string prefix = f.prefix;
  const int nv = floating ? n + 6 : n;
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(quantity_row_size(quantity, n, floating)));
  auto matrix = [&](int rows, const std::string& name) {
    for (int i = 1; i <= rows; ++i) {
      for (int j = 1; j <= nv; ++j)
        names.push_back(name + "_" + std::to_string(i) + "_" + std::to_string(j));
    }
  };
  switch (f.layout) {
    case Layout::forces:
      if (floating) {  // the torques' base columns carry no prefix
        for (const char* base : kBaseForces)
          names.push_back(quantity == Quantity::torques ? base : prefix + "_" + base);
      }
      for (int i = 1; i <= n; ++i)
        names.push_back(prefix + std::to_string(i));
      break;
    case Layout::square:
      matrix(nv, prefix);
      break;
    case Layout::udu:
      matrix(nv, prefix);
      for (int i = 1; i <= nv; ++i)
        names.push_back("D_" + std::to_string(i));
      break;
    case Layout::pose:
      names.insert(names.end(), {"x", "y", "z"});
      for (int i = 1; i <= 3; ++i) {
        for (int j = 1; j <= 3; ++j)
          names.push_back(prefix + "_" + std::to_string(i) + "_" + std::to_string(j));
      }
      break;
    case Layout::rectangle:
      matrix(f.rows, prefix);
      break;
    case Layout::partials:
      matrix(nv, prefix + "q");
      matrix(nv, prefix + "qd");
      break;
    case Layout::reactions:
      for (int i = 1; i <= n; ++i) {
        for (const char* part : {"f", "n"}) {
          for (const char* axis : {"_x", "_y", "_z"})
            names.push_back(part + std::to_string(i) + axis);
        }
      }
      break;
    case Layout::named:
      names.assign(f.named.begin(), f.named.begin() + named_count(f));
      break;
    case Layout::loops:  // ClosedLoopSamples names them
      break;
  }
  return names;
}

}  // namespace denoc
