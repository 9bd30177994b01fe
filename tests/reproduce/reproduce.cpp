// denoc_reproduce: the computations of scripts/reproduce that need a specific algorithm route,
// written as CSV (the plotting and the report are the script's).
//
//   denoc_reproduce table5 STEPS.csv SUMMARY.csv
//       Mata et al. (2002) §5.1, Table 5 and Fig. 2: Ascher's arm, every forward-dynamics route
//       in single and double precision, per 2-degree step and summarised; the summary also has
//       the paper's Gauss-Jordan solves in float and the float data in double (table5_variants).
//   denoc_reproduce scaling CHAIN.yaml OUT.csv N1,N2,...
//       Lee et al. (2007) Fig. 3: seconds per solve of M x = b on the first n links of CHAIN,
//       by each route.
//   denoc_reproduce pumaline ROBOT.yaml TRAJECTORY.csv [DT [SEED_DEG]]
//       Mata et al. (2002) §5.2: the Puma's joint trajectory (t,q,qd,qdd every DT s, default
//       0.01, ridim's input) that keeps its tool on the paper's straight line, by inverse
//       kinematics from SEED_DEG (q1,...,q6 in degrees; default puma_line_seed()); prints the
//       largest pose and velocity errors along it and the first and last q.
//   denoc_reproduce pumasmooth ROBOT.yaml OUT.csv [tol=X] [KEY=VALUE...]
//       The same line replayed by each route with the joint forces as a smooth function of t
//       (inverse kinematics and dynamics at every time the integrator asks: LineTorques),
//       dopri5 at rtol = atol = X (default 1e-6), rows every 0.1 s: per route the evaluations,
//       steps, wall time and Table 6's mean errors. KEY=VALUE are --set overrides of the robot
//       file.
//   denoc_reproduce leepuma CORKE.yaml AKB.yaml OUT.csv
//       Lee et al. (2007) Appendix: the Puma's M and M^-1 at gamma_k = pi/3 by each parameter
//       set (Corke's without and with its drives, AKB, and the arm of the paper's own frames
//       with AKB's masses and inertias), one row per set: differences from the Appendix, M's
//       upper triangle and M^-1's diagonal.
//   denoc_reproduce polypeptide ROBOT.yaml OUT_PREFIX
//       Lee et al. (2007) §4.3 and Appendix: the polypeptide chain's M, M^-1 (Fixman), the same
//       with beta_3 = beta_6 = 180 deg held (OUT_PREFIX_fixed_M.csv, _fixed_Minv.csv) and the
//       mass-centre frames T_k^c at beta_1 = 0, beta_i = pi/3.
#include <array>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "denoc/io/csv.hpp"
#include "denoc/io/errors.hpp"
#include "denoc/io/robot_file.hpp"
#include "reproduce/lee_puma.hpp"
#include "reproduce/papers.hpp"
#include "reproduce/polypeptide.hpp"
#include "reproduce/puma_line.hpp"

namespace {

using namespace denoc;
using namespace denoc::reproduce;

std::ofstream open_out(const std::string& path) {
  std::ofstream out(path);
  if (!out) {
    std::cerr << "denoc_reproduce: " << path << ": cannot write\n";
    std::exit(2);
  }
  out << std::setprecision(10);
  return out;
}

int table5(const std::string& steps_path, const std::string& summary_path) {
  const std::vector<Table5Step> steps = table5_steps();
  std::ofstream out = open_out(steps_path);
  out << "angle,condition";
  for (Route r : kRoutes)
    for (int j = 1; j <= 2; ++j)
      out << ',' << column_name(r) << "_dp" << j << ',' << column_name(r) << "_sp" << j << ','
          << column_name(r) << "_err" << j;
  out << '\n';
  for (const Table5Step& s : steps) {
    out << s.angle_deg << ',' << s.condition;
    for (std::size_t r = 0; r < 4; ++r)
      for (std::size_t j = 0; j < 2; ++j)
        out << ',' << s.dp[r][j] << ',' << s.sp[r][j] << ',' << std::abs(s.dp[r][j] - s.sp[r][j]);
    out << '\n';
  }
  const Table5Summary sum = table5_summary(steps);
  std::ofstream so = open_out(summary_path);
  so << "route,max1,mean1,max2,mean2\n";
  for (std::size_t r = 0; r < 4; ++r)
    so << column_name(kRoutes[r]) << ',' << sum.max[r][0] << ',' << sum.mean[r][0] << ','
       << sum.max[r][1] << ',' << sum.mean[r][1] << '\n';
  for (const Table5Variant& v : table5_variants())
    so << v.name << ',' << v.max[0] << ',' << v.mean[0] << ',' << v.max[1] << ',' << v.mean[1]
       << '\n';
  return 0;
}

int scaling(const std::string& chain_path, const std::string& out_path, const std::string& list) {
  const RobotFile chain = load_robot_file(chain_path);
  std::vector<int> ns;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    const int n = std::atoi(item.c_str());
    if (n < 1 || n > chain.dof()) {
      std::cerr << "denoc_reproduce: scaling: n = '" << item << "' not in 1.." << chain.dof()
                << " (" << chain_path << ")\n";
      return 2;
    }
    ns.push_back(n);
  }
  std::ofstream out = open_out(out_path);
  out << "n";
  for (Solve s : kSolves)
    out << ',' << solve_name(s);
  out << '\n';
  for (int n : ns) {
    const Model<double> model = first_links(chain.model, n);
    out << n;
    for (Solve s : kSolves)
      out << ',' << time_solve(s, model, n > 200 ? 1e-2 : 2e-3, 3);
    out << '\n' << std::flush;
  }
  return 0;
}

int polypeptide(const std::string& robot_path, const std::string& prefix) {
  const RobotFile robot = load_robot_file(robot_path);
  const PolypeptideResult r = polypeptide_at_lee_configuration(robot);
  std::ofstream m = open_out(prefix + "_M.csv"), mi = open_out(prefix + "_Minv.csv");
  std::ofstream tc = open_out(prefix + "_Tc.csv");
  std::cout << "Minv by the extended Fixman method\n";
  const int n = robot.dof();
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      m << (j ? "," : "") << r.M(i, j);
      mi << (j ? "," : "") << r.Minv(i, j);
    }
    m << '\n';
    mi << '\n';
  }
  // §4.3's second case: beta_3 = beta_6 = 180 deg held, five soft variables.
  const FixedTorsionResult fixed = polypeptide_fixed_torsions(robot.dh);
  std::ofstream fm = open_out(prefix + "_fixed_M.csv"), fmi = open_out(prefix + "_fixed_Minv.csv");
  for (int i = 0; i < fixed.M.rows(); ++i) {
    for (int j = 0; j < fixed.M.cols(); ++j) {
      fm << (j ? "," : "") << fixed.M(i, j);
      fmi << (j ? "," : "") << fixed.Minv(i, j);
    }
    fm << '\n';
    fmi << '\n';
  }
  tc << "k,R11,R12,R13,R21,R22,R23,R31,R32,R33,x,y,z,max_diff_paper\n";
  for (int k = 0; k < n; ++k) {
    tc << k + 1;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        tc << ',' << r.Tc[static_cast<std::size_t>(k)](i, j);
    for (int i = 0; i < 3; ++i)
      tc << ',' << r.Tc[static_cast<std::size_t>(k)](i, 3);
    tc << ','
       << (k < 7 ? tc_difference(r.Tc[static_cast<std::size_t>(k)],
                                 lee_Tc()[static_cast<std::size_t>(k)])
                 : 0.0)
       << '\n';
  }
  return 0;
}

int pumaline(const std::string& robot_path, const std::string& out_path, double dt,
             const std::string& seed_deg) {
  const RobotFile robot = load_robot_file(robot_path);
  VecX<double> seed = puma_line_seed();
  if (!seed_deg.empty()) {
    std::stringstream ss(seed_deg);
    std::string item;
    for (int j = 0; j < 6 && std::getline(ss, item, ','); ++j)
      seed[j] = std::stod(item) * kPi / 180;
  }
  const LineTrajectory line = puma_line_ik(robot.model, seed, PumaLine{}, dt);
  std::ofstream out = open_out(out_path);
  {
    CsvWriter writer(out);  // ridim's trajectory format, numbers that read back exactly
    writer.header(column_names({"q", "qd", "qdd"}, robot.dof()));
    VecX<double> row(3 * robot.dof());
    for (std::size_t k = 0; k < line.t.size(); ++k) {
      row << line.q[k], line.qd[k], line.qdd[k];
      writer.row(line.t[k], row);
    }
  }
  std::cout << std::setprecision(3) << "max_position_error," << line.max_position_error
            << "\nmax_orientation_error," << line.max_orientation_error << "\nmax_velocity_error,"
            << line.max_velocity_error << "\nq_start_deg";
  for (int j = 0; j < robot.dof(); ++j)
    std::cout << ',' << line.q.front()[j] * 180 / kPi;
  std::cout << "\nq_end_deg";
  for (int j = 0; j < robot.dof(); ++j)
    std::cout << ',' << line.q.back()[j] * 180 / kPi;
  std::cout << '\n';
  return 0;
}

int pumasmooth(const std::string& robot_path, const std::string& out_path,
               const std::vector<std::string>& sets) {
  std::vector<Override> overrides;
  double tol = 1e-6;
  for (const std::string& set : sets) {
    if (set.rfind("tol=", 0) == 0)
      tol = std::stod(set.substr(4));
    else
      overrides.push_back(parse_override(set));
  }
  const RobotFile robot = load_robot_file(robot_path, overrides);
  const PumaLine line;
  const LineTrajectory ik = puma_line_ik(robot.model, puma_line_seed(), line, 0.01);
  std::ofstream out = open_out(out_path);
  out << "route,evaluations,steps,rejected,wall_s";
  for (const char* v : {"q", "qd", "qdd"})
    for (int j = 1; j <= 6; ++j)
      out << ",mean_" << v << j;
  out << '\n';
  for (Route route : {Route::cholesky, Route::udu, Route::gibbs_appell, Route::fixman}) {
    LineTorques forces(robot.model, ik, line);
    ChainDynamics system(robot.model, route, forces);
    IntegratorSettings settings;
    settings.rtol = settings.atol = tol;
    IntegrationStats stats;
    State x0(12);
    for (std::size_t j = 0; j < 6; ++j) {
      x0[j] = ik.q.front()[static_cast<Eigen::Index>(j)];
      x0[j + 6] = ik.qd.front()[static_cast<Eigen::Index>(j)];
    }
    std::vector<State> rows;  // the state every 0.1 s
    integrate(
        system, x0, OutputTimes(line.T, 0.1), settings,
        [&](double, const State& x) { rows.push_back(x); }, stats);
    // Mean |error| against the IK sample at the same time; the accelerations evaluated after the
    // run (evaluate counts no evaluation).
    std::array<VecX<double>, 3> sum;
    sum.fill(VecX<double>::Zero(6));
    for (std::size_t k = 0; k < rows.size(); ++k) {
      system.evaluate(rows[k], 0.1 * static_cast<double>(k));
      const Eigen::Map<const VecX<double>> q(rows[k].data(), 6), qd(rows[k].data() + 6, 6);
      const std::size_t at = 10 * k;
      sum[0] += (q - ik.q[at]).cwiseAbs();
      sum[1] += (qd - ik.qd[at]).cwiseAbs();
      sum[2] += (system.qdd() - ik.qdd[at]).cwiseAbs();
    }
    const double count = static_cast<double>(rows.size());
    out << route_name(route) << ',' << stats.rhs_evaluations << ',' << stats.steps << ','
        << stats.rejected << ',' << stats.wall_seconds;
    for (const VecX<double>& v : sum)
      for (int j = 0; j < 6; ++j)
        out << ',' << v[j] / count;
    out << '\n';
  }
  return 0;
}

int leepuma(const std::string& corke_path, const std::string& akb_path,
            const std::string& out_path) {
  std::vector<Override> no_drives;
  for (int i = 0; i < 6; ++i)
    no_drives.push_back(parse_override("links[" + std::to_string(i) + "].drive.Jm=0"));
  const RobotFile corke = load_robot_file(corke_path, no_drives);
  const RobotFile corke_drives = load_robot_file(corke_path);
  const RobotFile akb = load_robot_file(akb_path);
  const Model<double> lee = lee_puma_geometry(akb.dh);
  const std::vector<std::pair<std::string, const Model<double>*>> sets = {
      {"corke", &corke.model},
      {"corke_drives", &corke_drives.model},
      {"akb", &akb.model},
      {"lee_frames_akb", &lee}};
  std::ofstream out = open_out(out_path);
  out << "set,max_abs_M,rel_M,rel_Minv";
  for (int i = 1; i <= 6; ++i)
    for (int j = i; j <= 6; ++j)
      out << ",M_" << i << '_' << j;
  for (int i = 1; i <= 6; ++i)
    out << ",Minv_" << i << '_' << i;
  out << '\n';
  for (const auto& [name, model] : sets) {
    const LeePumaComparison c = compare_with_lee_puma(*model);
    out << name << ',' << c.max_abs_M << ',' << c.rel_M << ',' << c.rel_Minv;
    for (int i = 0; i < 6; ++i)
      for (int j = i; j < 6; ++j)
        out << ',' << c.M(i, j);
    for (int i = 0; i < 6; ++i)
      out << ',' << c.Minv(i, i);
    out << '\n';
  }
  out << "paper,0,0,0";
  const MatX<double> P = lee_puma_M(), Pi = lee_puma_Minv();
  for (int i = 0; i < 6; ++i)
    for (int j = i; j < 6; ++j)
      out << ',' << P(i, j);
  for (int i = 0; i < 6; ++i)
    out << ',' << Pi(i, i);
  out << '\n';
  // The paper's own pair: how far M_paper M_paper^-1 is from the identity.
  std::cout << "paper_M_Minv_minus_I,"
            << (P * Pi - MatX<double>::Identity(6, 6)).cwiseAbs().maxCoeff()
            << "\npaper_M_inverse_rel_diff," << (P.inverse() - Pi).norm() / Pi.norm() << '\n';
  // The printed wrist: joints 5 and 6 on one line, so M_56 = M_66 on the frames' arm.
  const LeePumaWrist wrist = lee_puma_printed_wrist();
  const MatX<double> M_lee = compare_with_lee_puma(lee).M;
  std::cout << "frames_axis_5_6_angle," << wrist.axis_angle << "\nframes_axis_5_6_distance,"
            << wrist.line_distance << "\nframes_arm_M56_minus_M66," << M_lee(4, 5) - M_lee(5, 5)
            << '\n';
  const LeePumaColumn4 column4 = lee_puma_column4_bound();
  std::cout << "column4_needed," << column4.needed << "\ncolumn4_allowed," << column4.allowed
            << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 3 && args[0] == "table5") return table5(args[1], args[2]);
    if (args.size() == 4 && args[0] == "scaling") return scaling(args[1], args[2], args[3]);
    if (args.size() >= 3 && args.size() <= 5 && args[0] == "pumaline")
      return pumaline(args[1], args[2], args.size() > 3 ? std::stod(args[3]) : 0.01,
                      args.size() > 4 ? args[4] : "");
    if (args.size() >= 3 && args[0] == "pumasmooth")
      return pumasmooth(args[1], args[2], std::vector<std::string>(args.begin() + 3, args.end()));
    if (args.size() == 4 && args[0] == "leepuma") return leepuma(args[1], args[2], args[3]);
    if (args.size() == 3 && args[0] == "polypeptide") return polypeptide(args[1], args[2]);
  } catch (const std::exception& e) {
    std::cerr << "denoc_reproduce: " << e.what() << '\n';
    return 2;
  }
  std::cerr << "usage: denoc_reproduce table5 STEPS.csv SUMMARY.csv\n"
               "       denoc_reproduce scaling CHAIN.yaml OUT.csv N1,N2,...\n"
               "       denoc_reproduce pumaline ROBOT.yaml TRAJECTORY.csv [DT [SEED_DEG]]\n"
               "       denoc_reproduce pumasmooth ROBOT.yaml OUT.csv [tol=X] [KEY=VALUE...]\n"
               "       denoc_reproduce leepuma CORKE.yaml AKB.yaml OUT.csv\n"
               "       denoc_reproduce polypeptide ROBOT.yaml OUT_PREFIX\n";
  return 2;
}
