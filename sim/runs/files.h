// The files a run reads and writes, handled one way for every subcommand.
//
// An output is written to a temporary file in its own folder and renamed onto its path only
// when complete, every write and the close checked: a run that fails or is refused leaves the
// path as it was, and a full disk is an error naming the file. A path that holds something other
// than a regular file (a device, a FIFO, a symbolic link, a folder) is refused, never replaced.
// An input is a regular file (links followed) of bounded size: a folder, a FIFO or a device is
// refused by name, before anything is read.
#ifndef ARIES_SIM_RUNS_FILES_H_
#define ARIES_SIM_RUNS_FILES_H_

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace aries::sim {

// Throws ConfigError naming `option` and `path` unless `path` can be an output: a file name in a
// folder that exists and is writable, at a path that is absent or a regular file.
void CheckOutputPath(const std::string& path, const std::string& option);

// One output being written: a temporary file beside `path` until Commit() renames it onto
// `path`. Destroyed uncommitted (a refusal, an exception), it removes the temporary.
class OutputFile {
 public:
  enum class Mode { kReplace, kAppend };  // kAppend: the temporary starts as a copy of path
  // CheckOutputPath, then the temporary.
  OutputFile(std::string path, std::string option, Mode mode = Mode::kReplace);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return f_; }
  // The temporary's name: "FOLDER/.aries-PID-NAME" (the extension kept).
  const std::string& temp() const { return temp_; }
  // Closes the stream and returns temp(), for a writer that opens the file itself (the FST
  // writer, the plotter); Commit() then checks that it left a regular file there.
  const std::string& HandOver();
  // A file the writer keeps beside the temporary while it writes (the FST writer's ".hier"):
  // removed with the temporary when the run is refused, fails or is stopped by a signal.
  void AddSideFile(const std::string& suffix);
  const std::string& path() const { return path_; }
  // Closes the stream, checks that every write and the close succeeded (and that a writer given
  // temp() left a regular file), then renames the temporary onto path(). Throws
  // std::runtime_error naming the option, the path and the system's reason.
  void Commit();
  bool committed() const { return committed_; }

 private:
  std::string path_, option_, temp_;
  std::vector<std::string> side_;
  std::ofstream f_;
  bool handed_over_ = false, committed_ = false;
};

// Writes `text` to `path` through an OutputFile.
void WriteOutputFile(const std::string& path, std::string_view text, const std::string& option);

// Size limits of the inputs (each reader's message states its own).
inline constexpr uint64_t kSmallInputLimit = uint64_t{1} << 20;  // configs, faults, workloads
inline constexpr uint64_t kLargeInputLimit = uint64_t{1} << 30;  // traces, vectors, cost files

// Throws ConfigError naming `what` and `path` when `path` is there but is not a regular file
// (links followed) of at most `limit` bytes; returns `path`. (A path with nothing there is left
// to its reader, whose message says what it expects, such as the shipped names.)
const std::string& CheckInputFile(const std::string& path, const std::string& what, uint64_t limit);

// A named file of a run: the option or key that names it, and its path.
struct RunFile {
  std::string name, path;
};
// Throws ConfigError when an output is also an input of the run or another output (the same
// file, or the same path once its folder's links are resolved): both named.
void CheckDistinct(const std::vector<RunFile>& inputs, const std::vector<RunFile>& outputs);

// At most `max` characters of `bytes` for an error message: control and non-ASCII bytes as
// \xNN, and "..." when cut.
std::string Excerpt(std::string_view bytes, size_t max = 40);

// `message` safe to print: control bytes but newlines as \xNN, each line cut at `max_line`
// characters (a value read from a binary file may be a whole file long).
std::string Printable(std::string_view message, size_t max_line = 400);

}  // namespace aries::sim

#endif  // ARIES_SIM_RUNS_FILES_H_
