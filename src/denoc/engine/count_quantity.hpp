// The operation counts of what ridim and rfdsim compute (docs/operation-counts.md): one evaluation
// of a quantity, by a route, run once on the counting scalar (count_operations.hpp), and the
// table --count-operations writes instead of the usual output.
#pragma once

#include <optional>
#include <string>

#include "denoc/count/counted.hpp"
#include "denoc/engine/quantity_table.hpp"
#include "denoc/engine/routes.hpp"
#include "denoc/model/model.hpp"

namespace denoc {

// What ridim computes for `quantity` at one sample (q, qd, qdd), by `route`, of `frame` (none: the
// tool frame) where the quantity has one, counted (quantity_rows.hpp): only the algorithm's call,
// not the drives' friction or an external wrench (they are not the papers').
OperationCounts count_ridim_quantity(Quantity quantity, Route route, const Model<double>& model,
                                     ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                     ConstVectorRef<double> qdd,
                                     const std::optional<BodyFrame<double>>& frame = std::nullopt);

// One forward-dynamics evaluation by `route` at (q, qd) with no joint forces, counted.
OperationCounts count_forward_dynamics(Route route, const Model<double>& model,
                                       ConstVectorRef<double> q, ConstVectorRef<double> qd);

// The header line and the row:
// quantity,algorithm,n,multiplications,additions,divisions,square_roots,sines_cosines
std::string count_table(const std::string& quantity, Route route, int n,
                        const OperationCounts& counts);

}  // namespace denoc
