// --count-operations of ridim and rfdsim (docs/command-line.md, docs/operation-counts.md): one
// evaluation of the chosen quantity, by the chosen route, run once on the counting scalar
// (src/denoc/count/), written as one CSV header and one row instead of the usual output.
#pragma once

#include <string>

#include "cli/ridim.hpp"
#include "denoc/count/counted.hpp"
#include "denoc/model/model.hpp"
#include "denoc/routes.hpp"

namespace denoc {

// What ridim computes for `quantity` at one sample (q, qd, qdd), by `route`, counted: only the
// algorithm's call, not the drives' friction or an external wrench (they are not the papers').
OperationCounts count_ridim_quantity(Quantity quantity, Route route, const Model<double>& model,
                                     ConstVectorRef<double> q, ConstVectorRef<double> qd,
                                     ConstVectorRef<double> qdd);

// One forward-dynamics evaluation by `route` at (q, qd) with no joint forces, counted.
OperationCounts count_forward_dynamics(Route route, const Model<double>& model,
                                       ConstVectorRef<double> q, ConstVectorRef<double> qd);

// The header line and the row:
// quantity,algorithm,n,multiplications,additions,divisions,square_roots,sines_cosines
std::string count_table(const std::string& quantity, Route route, int n,
                        const OperationCounts& counts);

}  // namespace denoc
