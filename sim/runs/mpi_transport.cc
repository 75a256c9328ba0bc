#include "mpi_transport.h"

#include <cstdlib>
#include <stdexcept>
#include <string>

#ifdef ARIES_HAVE_MPI
#include <mpi.h>
#endif

namespace aries::sim {

namespace {

// The world size mpirun announces (Open MPI, or PMI / PMIx launchers), 1 when none.
unsigned LaunchedRanks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    if (const char* v = std::getenv(var))
      return static_cast<unsigned>(std::strtoul(v, nullptr, 10));
  }
  return 1;
}

#ifdef ARIES_HAVE_MPI
class MpiTransport final : public sysc::Transport {
 public:
  MpiTransport() {
    int r = 0, n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    rank_ = static_cast<unsigned>(r);
    ranks_ = static_cast<unsigned>(n);
  }
  unsigned rank() const override { return rank_; }
  unsigned ranks() const override { return ranks_; }

  std::vector<sysc::Bytes> Exchange(const std::vector<sysc::Bytes>& out) override {
    std::vector<int> send_n(ranks_), recv_n(ranks_), send_at(ranks_), recv_at(ranks_);
    sysc::Bytes send;
    for (unsigned r = 0; r < ranks_; ++r) {
      send_at[r] = static_cast<int>(send.size());
      if (r != rank_) send.insert(send.end(), out.at(r).begin(), out.at(r).end());
      send_n[r] = static_cast<int>(send.size()) - send_at[r];
    }
    MPI_Alltoall(send_n.data(), 1, MPI_INT, recv_n.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (unsigned r = 0; r < ranks_; ++r) {
      recv_at[r] = total;
      total += recv_n[r];
    }
    sysc::Bytes recv(static_cast<size_t>(total));
    MPI_Alltoallv(send.data(), send_n.data(), send_at.data(), MPI_BYTE, recv.data(), recv_n.data(),
                  recv_at.data(), MPI_BYTE, MPI_COMM_WORLD);
    std::vector<sysc::Bytes> in(ranks_);
    for (unsigned r = 0; r < ranks_; ++r) {
      in[r].assign(recv.begin() + recv_at[r], recv.begin() + recv_at[r] + recv_n[r]);
    }
    return in;
  }

  void AllReduce(std::vector<uint64_t>& v, Reduce op) override {
    const MPI_Op mop = op == Reduce::kSum ? MPI_SUM : op == Reduce::kMax ? MPI_MAX : MPI_BOR;
    MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_UINT64_T, mop,
                  MPI_COMM_WORLD);
  }

 private:
  unsigned rank_ = 0, ranks_ = 1;
};

class Session final : public MpiSession {
 public:
  Session(int* argc, char*** argv) {
    // Only the main thread calls MPI; the package's partition threads do not.
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    if (provided < MPI_THREAD_FUNNELED) {
      MPI_Finalize();
      throw std::runtime_error(
          "the MPI library does not allow threads beside MPI calls "
          "(MPI_THREAD_FUNNELED)");
    }
    net_ = std::make_unique<MpiTransport>();
  }
  ~Session() override {
    net_.reset();
    MPI_Finalize();
  }
  sysc::Transport& transport() override { return *net_; }
  [[noreturn]] void Abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::exit(code);
  }

 private:
  std::unique_ptr<MpiTransport> net_;
};
#endif

}  // namespace

std::unique_ptr<MpiSession> StartMpiIfLaunched(int* argc, char*** argv) {
  if (LaunchedRanks() <= 1) return nullptr;
#ifdef ARIES_HAVE_MPI
  return std::make_unique<Session>(argc, argv);
#else
  (void)argc;
  (void)argv;
  throw std::runtime_error("started by mpirun with " + std::to_string(LaunchedRanks()) +
                           " ranks, but this aries was built without MPI: install libopenmpi-dev "
                           "(cmake/setup-debian.sh) "
                           "and rebuild");
#endif
}

}  // namespace aries::sim
