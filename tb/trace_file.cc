#include "trace_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace aries::tb {

std::vector<TraceEntry> ReadTrace(const std::string& path, unsigned num_nodes) {
  // A regular file only: a directory or a device (/dev/zero) would read as nothing or
  // forever.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw std::runtime_error(fmt::format(
        "trace {}: {}", path,
        std::filesystem::exists(path, ec) ? "not a regular file" : "cannot open (no such file)"));
  }
  std::ifstream f(path);
  if (!f) throw std::runtime_error(fmt::format("trace {}: cannot open", path));
  std::vector<TraceEntry> v;
  std::string line;
  unsigned ln = 0;
  // Decimal digits only: a negative cycle or node would wrap as an unsigned number.
  auto number = [&](std::istringstream& is, uint64_t* out) {
    std::string tok;
    if (!(is >> tok) || tok.size() > 19 || tok.find_first_not_of("0123456789") != std::string::npos)
      return false;
    *out = std::stoull(tok);
    return true;
  };
  while (std::getline(f, line)) {
    ++ln;
    if (line.size() > 4096) {
      throw std::runtime_error(
          fmt::format("trace {}:{}: line longer than 4096 characters", path, ln));
    }
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream is(line);
    TraceEntry e{};
    uint64_t src = 0, dst = 0, flits = 0;
    std::string extra;
    if (!number(is, &e.cycle) || !number(is, &src) || !number(is, &dst) || !number(is, &flits) ||
        (is >> extra)) {
      throw std::runtime_error(fmt::format(
          "trace {}:{}: expected 'cycle src dst flits' (decimal numbers >= 0)", path, ln));
    }
    if (src >= num_nodes || dst >= num_nodes) {
      throw std::runtime_error(
          fmt::format("trace {}:{}: node ids are 0 .. {}", path, ln, num_nodes - 1));
    }
    e.src = static_cast<unsigned>(src);
    e.dst = static_cast<unsigned>(dst);
    e.flits = static_cast<unsigned>(std::min<uint64_t>(flits, 1u << 20));
    if (e.flits == 0 || e.flits > 1024) {
      throw std::runtime_error(fmt::format("trace {}:{}: flits must be 1 .. 1024", path, ln));
    }
    if (!v.empty() && e.cycle < v.back().cycle) {
      throw std::runtime_error(fmt::format("trace {}:{}: cycles must not decrease", path, ln));
    }
    v.push_back(e);
  }
  if (f.bad()) throw std::runtime_error(fmt::format("trace {}: read error at line {}", path, ln));
  if (v.empty()) throw std::runtime_error(fmt::format("trace {}: no packets in it", path));
  return v;
}

}  // namespace aries::tb
