#include "files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "config.h"

namespace aries::sim {

namespace fs = std::filesystem;

namespace {

// What is at `path` without following a link: "a symbolic link", "a folder", ...; "" for a
// regular file, "absent" for nothing.
std::string KindAt(const std::string& path) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return errno == ENOENT ? "absent" : std::strerror(errno);
  if (S_ISREG(st.st_mode)) return "";
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISDIR(st.st_mode)) return "a folder";
  if (S_ISFIFO(st.st_mode)) return "a FIFO";
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) return "a device";
  return "a socket";
}

fs::path FolderOf(const std::string& path) {
  const fs::path dir = fs::path(path).parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

// The same path, with the folder's links and "." / ".." resolved (the file itself may not exist).
std::string Resolved(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  return ec ? path : p.string();
}

// The temporaries being written: removed if the process is stopped by a signal (Ctrl-C, a kill,
// a bus error of a mapped file past the file-size limit) so none is left in the user's folders.
// Fixed storage: the handler may only unlink.
constexpr size_t kMaxTemps = 64;
char g_temps[kMaxTemps][4096];

void RemoveTempsAndDie(int sig) {
  for (auto& t : g_temps) {
    if (t[0]) unlink(t);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void TrackTemp(const std::string& path, bool on) {
  static const bool handlers = [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGBUS}) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_DFL)
        signal(sig, RemoveTempsAndDie);
    }
    return true;
  }();
  (void)handlers;
  for (auto& t : g_temps) {
    if (on ? t[0] == 0 : path == t) {
      if (on && path.size() >= sizeof(t)) return;  // (not tracked: left if a signal comes)
      std::snprintf(t, sizeof(t), "%s", on ? path.c_str() : "");
      return;
    }
  }
}

}  // namespace

void CheckOutputPath(const std::string& path, const std::string& option) {
  if (path.empty()) {  // (an empty name would write nothing without a word)
    throw ConfigError(fmt::format("{} '': allowed a file name", option));
  }
  const fs::path dir = FolderOf(path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw ConfigError(
        fmt::format("{} {}: the folder {} does not exist", option, path, dir.string()));
  }
  const std::string kind = KindAt(path);
  if (!kind.empty() && kind != "absent") {
    throw ConfigError(fmt::format(
        "{} {}: is {}, not a regular file (an output replaces only a regular file; name another "
        "path)",
        option, path, kind));
  }
  // A file made and removed there, not access(): root may "write" to /proc, and cannot.
  const std::string probe = (dir / fmt::format(".aries-{}-probe", getpid())).string();
  const int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw ConfigError(fmt::format("{} {}: cannot create a file in the folder {} ({})", option, path,
                                  dir.string(), std::strerror(errno)));
  }
  close(fd);
  unlink(probe.c_str());
}

OutputFile::OutputFile(std::string path, std::string option, Mode mode)
    : path_(std::move(path)), option_(std::move(option)) {
  CheckOutputPath(path_, option_);
  temp_ =
      (FolderOf(path_) / fmt::format(".aries-{}-{}", getpid(), fs::path(path_).filename().string()))
          .string();
  // Created here, not followed if something put a link there.
  const int fd = open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) {
    throw std::runtime_error(
        fmt::format("{} {}: cannot create {}: {}", option_, path_, temp_, std::strerror(errno)));
  }
  close(fd);
  std::error_code ec;
  if (mode == Mode::kAppend && KindAt(path_).empty() &&
      !fs::copy_file(path_, temp_, fs::copy_options::overwrite_existing, ec)) {
    std::remove(temp_.c_str());
    throw std::runtime_error(
        fmt::format("{} {}: cannot copy it to append to: {}", option_, path_, ec.message()));
  }
  f_.open(temp_, std::ios::binary | std::ios::app);
  if (!f_) {
    std::remove(temp_.c_str());
    throw std::runtime_error(fmt::format("{} {}: cannot open {}", option_, path_, temp_));
  }
  TrackTemp(temp_, true);
}

OutputFile::~OutputFile() {
  if (!committed_) {
    if (f_.is_open()) f_.close();
    std::remove(temp_.c_str());
  }
  TrackTemp(temp_, false);
  for (const std::string& side : side_) {
    std::remove(side.c_str());
    TrackTemp(side, false);
  }
}

void OutputFile::AddSideFile(const std::string& suffix) {
  side_.push_back(temp_ + suffix);
  TrackTemp(side_.back(), true);
}

const std::string& OutputFile::HandOver() {
  f_.close();
  handed_over_ = true;
  return temp_;
}

void OutputFile::Commit() {
  if (committed_) return;
  errno = 0;
  if (!handed_over_) {
    f_.flush();
    const bool wrote = static_cast<bool>(f_);
    const int write_errno = errno;
    f_.close();
    if (!wrote || f_.fail()) {
      const int e = write_errno ? write_errno : errno;
      throw std::runtime_error(fmt::format("{} {}: writing failed ({}); the path is unchanged",
                                           option_, path_,
                                           e ? std::strerror(e) : "the stream reported an error"));
    }
  }
  const std::string kind = KindAt(temp_);
  if (!kind.empty()) {
    throw std::runtime_error(
        fmt::format("{} {}: the writer left no regular file ({})", option_, path_, kind));
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    throw std::runtime_error(
        fmt::format("{} {}: cannot move it into place: {}", option_, path_, std::strerror(errno)));
  }
  committed_ = true;
}

void WriteOutputFile(const std::string& path, std::string_view text, const std::string& option) {
  OutputFile out(path, option);
  out.stream().write(text.data(), static_cast<std::streamsize>(text.size()));
  out.Commit();
}

const std::string& CheckInputFile(const std::string& path, const std::string& what,
                                  uint64_t limit) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return path;  // (its reader says so, with what it expects there)
  if (!fs::is_regular_file(st)) {
    const char* kind = fs::is_directory(st)                                 ? "a folder"
                       : fs::is_fifo(st)                                    ? "a FIFO"
                       : fs::is_character_file(st) || fs::is_block_file(st) ? "a device"
                                                                            : "not a file";
    throw ConfigError(fmt::format("{} '{}': is {}, not a regular file", what, path, kind));
  }
  const uint64_t size = fs::file_size(path, ec);
  if (!ec && size > limit) {
    const std::string most = limit % (1u << 20) == 0 ? fmt::format("{} MB", limit >> 20)
                                                     : fmt::format("{} bytes", limit);
    throw ConfigError(fmt::format("{} '{}': {} bytes, larger than the {} this input may be", what,
                                  path, size, most));
  }
  if (access(path.c_str(), R_OK) != 0) {
    throw ConfigError(
        fmt::format("{} '{}': cannot be read ({})", what, path, std::strerror(errno)));
  }
  return path;
}

void CheckDistinct(const std::vector<RunFile>& inputs, const std::vector<RunFile>& outputs) {
  auto same = [](const std::string& a, const std::string& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec)) return true;
    return Resolved(a) == Resolved(b);
  };
  for (size_t i = 0; i < outputs.size(); ++i) {
    for (const RunFile& in : inputs) {
      if (!in.path.empty() && same(outputs[i].path, in.path)) {
        throw ConfigError(fmt::format("{} {}: is the run's input {} {}; name another output path",
                                      outputs[i].name, outputs[i].path, in.name, in.path));
      }
    }
    for (size_t j = 0; j < i; ++j) {
      if (same(outputs[i].path, outputs[j].path)) {
        throw ConfigError(fmt::format("{} {} and {} {}: the same file; give each output its own",
                                      outputs[j].name, outputs[j].path, outputs[i].name,
                                      outputs[i].path));
      }
    }
  }
}

std::string Excerpt(std::string_view bytes, size_t max) {
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    std::string piece =
        c >= 0x20 && c < 0x7f ? std::string(1, static_cast<char>(c)) : fmt::format("\\x{:02x}", c);
    if (out.size() + piece.size() > max) return out + "...";
    out += piece;
  }
  return out;
}

std::string Printable(std::string_view message, size_t max_line) {
  std::string out;
  size_t line = 0, cut = 0;
  for (const char ch : message) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      if (cut) out += fmt::format("... ({} more characters)", cut);
      out += '\n';
      line = cut = 0;
      continue;
    }
    const std::string piece =
        c < 0x20 || c == 0x7f ? fmt::format("\\x{:02x}", c) : std::string(1, ch);
    if (line + piece.size() > max_line) {
      cut += 1;
      continue;
    }
    out += piece;
    line += piece.size();
  }
  if (cut) out += fmt::format("... ({} more characters)", cut);
  return out;
}

}  // namespace aries::sim
