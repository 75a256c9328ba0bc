// Ranks of a distributed `aries run` as MPI processes: `mpirun -n 2 build/sim/aries run ...`
// makes each process one rank of the package (sysc/transport.h). aries starts MPI only when
// mpirun launched it, so a plain run needs no MPI runtime.
#ifndef ARIES_SIM_MPI_TRANSPORT_H_
#define ARIES_SIM_MPI_TRANSPORT_H_

#include <memory>

#include "transport.h"

namespace aries::sim {

// MPI_Init on construction, MPI_Finalize on destruction; the transport of MPI_COMM_WORLD.
class MpiSession {
 public:
  virtual ~MpiSession() = default;
  virtual sysc::Transport& transport() = 0;
  // Ends every rank at once (an error on one rank would leave the others waiting).
  [[noreturn]] virtual void Abort(int code) = 0;
};

// The session when mpirun started this process with more than one rank, else nullptr. Throws
// std::runtime_error when it did and this build has no MPI (install libopenmpi-dev, rebuild).
std::unique_ptr<MpiSession> StartMpiIfLaunched(int* argc, char*** argv);

}  // namespace aries::sim

#endif  // ARIES_SIM_MPI_TRANSPORT_H_
