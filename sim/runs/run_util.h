// Small helpers the aries subcommands share.
#ifndef ARIES_SIM_CLI_UTIL_H_
#define ARIES_SIM_CLI_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace aries::sim {

// "64", "4K", "2M": the label a byte count is written with (what ParseBytes reads).
std::string SizeLabel(uint64_t bytes);

// Progress on stderr about once a second, from the second second of a run on: "  [what]
// cycle C of about T (P%), R cycles/s, S s". Enabled by --progress, or by itself when stderr
// is a terminal (so logs and tests stay quiet).
class ProgressMeter {
 public:
  ProgressMeter(bool forced, std::string what, uint64_t total_cycles = 0);
  void operator()(uint64_t cycle);  // cheap when nothing is due
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  std::string what_;
  uint64_t total_;
  double start_, next_;
};
// Prints "  [what] still running, S s" about every `period` seconds on stderr until destroyed
// (for work this process waits on, such as a Yosys run); nothing when not enabled.
class Heartbeat {
 public:
  Heartbeat(bool forced, std::string what, double period = 10.0);
  ~Heartbeat();
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  struct State;
  std::unique_ptr<State> s_;
};
bool StderrIsTerminal();

// "a,b,c" -> {"a", "b", "c"}. A list of nothing but commas (or nothing) gives no items, left to
// the caller to refuse; an empty item between others ("a,,b") or an item given twice ("a,a",
// whose rows or runs would be made twice) throws std::invalid_argument naming `option`.
std::vector<std::string> SplitList(const std::string& s, const char* option);

// Writes `text` to `path` (nothing when `path` is empty; files.h: WriteOutputFile) and prints
// "<what>: <path>".
void WriteOutput(const std::string& path, const std::string& text, const char* option,
                 const char* what);

// The measured cost file of --costs / coll.costs: `costs`, or the repository's when empty;
// refused unless a regular file of at most 1 GB (files.h: CheckInputFile).
std::string CostPath(const std::string& costs);
// How a cost file is named in what the commands print: the repository's by its path in the
// repository (not this machine's), another as given.
std::string CostFileLabel(const std::string& path);

// This executable's path (/proc/self/exe), for subcommands that run it in child processes;
// throws std::runtime_error when it cannot be read.
std::string SelfExe();

// `s` as one single-quoted shell word ('\'' for each quote inside).
std::string ShellQuote(const std::string& s);

}  // namespace aries::sim

#endif  // ARIES_SIM_CLI_UTIL_H_
