#include "denoc/engine/count_quantity.hpp"

#include "denoc/engine/count_operations.hpp"
#include "denoc/engine/quantity_rows.hpp"

namespace denoc {

OperationCounts count_ridim_quantity(Quantity quantity, Route route, const Model<double>& model,
                                     ConstVectorRef<double> q_double,
                                     ConstVectorRef<double> qd_double,
                                     ConstVectorRef<double> qdd_double,
                                     const std::optional<BodyFrame<double>>& frame) {
  const BodyFrame<double> chosen = frame.value_or(model.tool_frame());
  QuantityRows<Counted> rows(std::make_shared<const Model<Counted>>(model.cast<Counted>()),
                             quantity, route, {chosen.link, chosen.placement.cast<Counted>()});
  rows.dynamics().gibbs_appell();  // the workspaces built before anything is counted
  rows.dynamics().fixman();
  const VecX<Counted> q = counted(q_double), qd = counted(qd_double), qdd = counted(qdd_double);
  VecX<Counted> row(quantity_row_size(quantity, model.dof(), model.floating()));
  return count_operations([&] { rows(q, qd, qdd, row); });
}

OperationCounts count_forward_dynamics(Route route, const Model<double>& model,
                                       ConstVectorRef<double> q_double,
                                       ConstVectorRef<double> qd_double) {
  CountingDynamics counting(model);
  const VecX<Counted> q = counted(q_double), qd = counted(qd_double);
  const VecX<Counted> tau = VecX<Counted>::Zero(model.dof());  // the joints'; a floating base free
  return count_operations([&] { forward_dynamics(route, counting.dynamics, q, qd, tau); });
}

std::string count_table(const std::string& quantity, Route route, int n, const OperationCounts& c) {
  return "quantity,algorithm,n,multiplications,additions,divisions,square_roots,sines_cosines\n" +
         quantity + "," + route_name(route) + "," + std::to_string(n) + "," +
         std::to_string(c.multiplications) + "," + std::to_string(c.additions) + "," +
         std::to_string(c.divisions) + "," + std::to_string(c.square_roots) + "," +
         std::to_string(c.sines_cosines) + "\n";
}

}  // namespace denoc
