#include "coll_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

namespace aries::tb {

namespace {

constexpr char kMagic[] = "\x93NUMPY";

// True for a name ending in .npy, in any case.
bool IsNpy(const std::string& s) {
  if (s.size() < 4) return false;
  std::string ext = s.substr(s.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".npy";
}

std::string ReadAll(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw VectorFileError(fmt::format("{}: cannot open for reading", path));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// The value of 'key' in the .npy header dictionary (up to the next top-level ',' or '}').
std::string DictValue(const std::string& header, const std::string& key, const std::string& path) {
  const std::string k = "'" + key + "'";
  const size_t at = header.find(k);
  if (at == std::string::npos)
    throw VectorFileError(fmt::format("{}: .npy header has no {}", path, k));
  size_t i = header.find(':', at + k.size());
  if (i == std::string::npos)
    throw VectorFileError(fmt::format("{}: .npy header: {} has no value", path, k));
  ++i;
  while (i < header.size() && header[i] == ' ') ++i;
  size_t j = i;
  int depth = 0;
  for (; j < header.size(); ++j) {
    const char c = header[j];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (depth == 0 && (c == ',' || c == '}')) break;
  }
  return header.substr(i, j - i);
}

void Put32(std::string& s, uint32_t w) {
  for (int b = 0; b < 4; ++b) s.push_back(static_cast<char>((w >> (8 * b)) & 0xFFu));
}

}  // namespace

std::string NodePath(const std::string& pattern, unsigned node) {
  const size_t at = pattern.find("{node}");
  if (at == std::string::npos) {
    throw VectorFileError(
        fmt::format("{}: a per-node path pattern must contain {{node}} "
                    "(for example in/node{{node}}.npy)",
                    pattern));
  }
  return pattern.substr(0, at) + std::to_string(node) + pattern.substr(at + 6);
}

std::vector<uint32_t> ReadVectorFile(const std::string& path, const std::string& type,
                                     uint64_t elements) {
  const std::string data = ReadAll(path);
  size_t off = 0;
  if (IsNpy(path)) {
    if (data.size() < 6 || data.compare(0, 6, kMagic, 6) != 0) {
      throw VectorFileError(fmt::format("{}: not a NumPy .npy file (no \\x93NUMPY magic)", path));
    }
    if (data.size() < 10) {
      throw VectorFileError(fmt::format(
          "{}: a NumPy .npy file cut short ({} bytes: its version and header length need 10)", path,
          data.size()));
    }
    const unsigned major = static_cast<unsigned char>(data[6]);
    size_t hlen = 0;
    if (major == 1) {
      hlen = static_cast<unsigned char>(data[8]) | static_cast<unsigned char>(data[9]) << 8;
      off = 10;
    } else if (major == 2 || major == 3) {
      if (data.size() < 12) throw VectorFileError(fmt::format("{}: truncated .npy header", path));
      for (int b = 0; b < 4; ++b)
        hlen |= static_cast<size_t>(static_cast<unsigned char>(data[8 + b])) << (8 * b);
      off = 12;
    } else {
      throw VectorFileError(
          fmt::format("{}: .npy format version {}: allowed 1, 2, 3", path, major));
    }
    if (data.size() < off + hlen)
      throw VectorFileError(fmt::format("{}: truncated .npy header", path));
    const std::string header = data.substr(off, hlen);
    off += hlen;
    const std::string descr = DictValue(header, "descr", path);
    const bool int_ok = descr == "'<i4'" || descr == "'<u4'";
    const bool fp_ok = descr == "'<f4'";
    if ((type == "int32" && !int_ok) || (type == "fp32" && !fp_ok)) {
      throw VectorFileError(fmt::format("{}: dtype {} does not hold {}; allowed {}", path, descr,
                                        type, type == "fp32" ? "'<f4'" : "'<i4' or '<u4'"));
    }
    if (DictValue(header, "fortran_order", path) != "False") {
      throw VectorFileError(fmt::format("{}: fortran_order must be False", path));
    }
    const std::string shape = DictValue(header, "shape", path);
    const std::string want = fmt::format("({},)", elements);
    if (shape != want) {
      throw VectorFileError(fmt::format("{}: shape {}: expected {} (one dimension of {} elements)",
                                        path, shape, want, elements));
    }
  }
  const uint64_t bytes = data.size() - off;
  if (bytes != elements * 4) {
    throw VectorFileError(
        fmt::format("{}: {} bytes of data: expected {} ({} elements of 4 bytes, "
                    "little-endian)",
                    path, bytes, elements * 4, elements));
  }
  std::vector<uint32_t> v(elements);
  for (uint64_t i = 0; i < elements; ++i) {
    uint32_t w = 0;
    for (int b = 0; b < 4; ++b)
      w |= static_cast<uint32_t>(static_cast<unsigned char>(data[off + 4 * i + b])) << (8 * b);
    v[i] = w;
  }
  return v;
}

std::string EncodeVectorFile(const std::string& path, const std::string& type,
                             const std::vector<uint32_t>& words) {
  std::string out;
  if (IsNpy(path)) {
    std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({},), }}",
                                     type == "fp32" ? "<f4" : "<i4", words.size());
    // Pad with spaces and a newline so data starts at a multiple of 64 bytes (format 1.0).
    const size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header.push_back('\n');
    out.append(kMagic, 6);
    out.push_back('\x01');
    out.push_back('\x00');
    out.push_back(static_cast<char>(header.size() & 0xFF));
    out.push_back(static_cast<char>(header.size() >> 8));
    out += header;
  }
  out.reserve(out.size() + 4 * words.size());
  for (uint32_t w : words) Put32(out, w);
  return out;
}

void WriteVectorFile(const std::string& path, const std::string& type,
                     const std::vector<uint32_t>& words) {
  const std::string out = EncodeVectorFile(path, type, words);
  std::ofstream f(path, std::ios::binary);
  if (!f) throw VectorFileError(fmt::format("{}: cannot open for writing", path));
  f.write(out.data(), static_cast<std::streamsize>(out.size()));
  if (!f) throw VectorFileError(fmt::format("{}: write failed", path));
}

std::vector<std::vector<uint32_t>> ReadNodeVectors(const std::string& pattern,
                                                   const std::string& type, unsigned nodes,
                                                   uint64_t elements) {
  std::vector<std::vector<uint32_t>> v;
  for (unsigned n = 0; n < nodes; ++n)
    v.push_back(ReadVectorFile(NodePath(pattern, n), type, elements));
  return v;
}

std::vector<std::vector<uint64_t>> ReadCountsFile(const std::string& path, unsigned nodes) {
  std::ifstream f(path);
  if (!f) throw VectorFileError(fmt::format("{}: cannot open the counts file", path));
  std::vector<std::vector<uint64_t>> rows;
  std::string line;
  for (unsigned no = 1; std::getline(f, line); ++no) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    for (char& ch : line) {
      if (ch == ',') ch = ' ';
    }
    std::istringstream words(line);
    std::vector<uint64_t> row;
    std::string w;
    while (words >> w) {
      const bool digits = !w.empty() && std::all_of(w.begin(), w.end(), [](unsigned char x) {
        return std::isdigit(x);
      });
      if (!digits || w.size() > 12) {
        throw VectorFileError(fmt::format(
            "{} line {}: '{}' is not an element count (allowed 0 .. 999999999999)", path, no, w));
      }
      row.push_back(std::stoull(w));
    }
    if (row.empty()) continue;
    if (row.size() != nodes) {
      throw VectorFileError(fmt::format("{} line {}: {} counts, allowed {} (one per chiplet)", path,
                                        no, row.size(), nodes));
    }
    if (rows.size() == nodes) {
      throw VectorFileError(
          fmt::format("{} line {}: more than {} rows (one per chiplet)", path, no, nodes));
    }
    rows.push_back(std::move(row));
  }
  if (rows.size() != nodes) {
    throw VectorFileError(fmt::format("{}: {} rows of counts, allowed {} (one per chiplet)", path,
                                      rows.size(), nodes));
  }
  return rows;
}

}  // namespace aries::tb
