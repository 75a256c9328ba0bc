#include "cli_util.h"

#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace aries::sim {

std::string SizeLabel(uint64_t s) {
  return s % (1024 * 1024) == 0 ? fmt::format("{}M", s >> 20)
         : s % 1024 == 0        ? fmt::format("{}K", s >> 10)
                                : std::to_string(s);
}

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');) {
    if (!x.empty()) v.push_back(x);
  }
  return v;
}

void WriteOutput(const std::string& path, const std::string& text, const char* option,
                 const char* what) {
  if (path.empty()) return;
  std::ofstream f(path);
  f << text;
  if (!f) throw std::invalid_argument(fmt::format("{} {}: cannot write", option, path));
  fmt::print("{}: {}\n", what, path);
}

void CheckWritable(const std::string& path, const char* option) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    throw std::invalid_argument(
        fmt::format("{} {}: the folder {} does not exist", option, path, dir.string()));
  }
  if (fs::is_directory(path, ec)) {
    throw std::invalid_argument(fmt::format("{} {}: is a folder, not a file", option, path));
  }
  if (access(dir.c_str(), W_OK) != 0) {
    throw std::invalid_argument(
        fmt::format("{} {}: the folder {} is not writable", option, path, dir.string()));
  }
}

std::string SelfExe() {
  char buf[4096];
  const ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0) throw std::runtime_error("cannot find the aries executable (/proc/self/exe)");
  return std::string(buf, static_cast<size_t>(len));
}

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace aries::sim
