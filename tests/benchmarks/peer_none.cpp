// Stand-ins for a peer that was not built (its *_DIR CMake variable empty): denoc_bench then
// times the suite and KDL only.
#include "peers.hpp"

namespace denoc_bench {

#ifndef DENOC_BENCH_RBDL
std::unique_ptr<Peer> make_rbdl(const std::vector<PeerLink>&, const Eigen::Vector3d&) {
  return nullptr;
}
std::unique_ptr<LoopPeer> make_rbdl_loop(const std::vector<PeerLink>&, const Eigen::Vector3d&,
                                         const PeerLoop&) {
  return nullptr;
}
std::string rbdl_version() {
  return "";
}
#endif

#ifndef DENOC_BENCH_PINOCCHIO
std::unique_ptr<Peer> make_pinocchio(const std::vector<PeerLink>&, const Eigen::Vector3d&, bool) {
  return nullptr;
}
std::unique_ptr<Peer> make_pinocchio_urdf(const std::string&, const Eigen::Vector3d&, bool, bool) {
  return nullptr;
}
std::string pinocchio_version() {
  return "";
}
#endif

}  // namespace denoc_bench
