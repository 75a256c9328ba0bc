#include "workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace aries::train {

namespace {

const char* kHeader = "layer,params,fwd_flops,tp_fwd,tp_bwd,sync";
constexpr uint64_t kMaxElems = uint64_t{1} << 40;  // elements: x 4 bytes x batch fits 64 bits
constexpr uint64_t kMaxBatch = 1'000'000;          // samples per chiplet
constexpr uint64_t kMaxFlops = uint64_t{1} << 60;

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  const size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

uint64_t ParseCount(const std::string& path, unsigned ln, const char* column, const std::string& v,
                    uint64_t max = kMaxElems) {
  size_t pos = 0;
  uint64_t x = 0;
  try {
    x = std::stoull(v, &pos);
  } catch (const std::logic_error&) {
    pos = 0;
  }
  if (pos == 0 || pos != v.size() || v[0] == '-' || x > max) {
    const bool pow2 = (max & (max - 1)) == 0;  // 2^40, 2^60: named as powers
    throw WorkloadError(
        fmt::format("{}:{}: {} '{}': expected an integer in 0..{}", path, ln, column, v,
                    pow2 ? fmt::format("2^{}", __builtin_ctzll(max)) : std::to_string(max)));
  }
  return x;
}

double ParseTime(const std::string& path, unsigned ln, const char* column, const std::string& v) {
  size_t pos = 0;
  double x = -1;
  try {
    x = std::stod(v, &pos);
  } catch (const std::logic_error&) {
    pos = 0;
  }
  if (pos == 0 || pos != v.size() || !(x >= 0 && x <= 1e15)) {
    throw WorkloadError(
        fmt::format("{}:{}: {} '{}': expected ns per sample, 0 .. 1e15", path, ln, column, v));
  }
  return x;
}

// The columns a workload file's header announces after the required ones.
struct Columns {
  bool with_act = false;  // + act
  bool timed = false;     // + fwd_ns, bwd_ns
};

// A "# key: value" line into `w` (workload, source, sample, embeddings_to, batch); true when it
// gave the batch. Other comment lines say nothing.
bool ReadMetaLine(const std::string& path, unsigned ln, const std::string& line, Workload& w) {
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return false;
  const std::string key = Trim(line.substr(1, colon - 1)), value = Trim(line.substr(colon + 1));
  if (key == "workload") w.name = value;
  if (key == "source") w.sources.push_back(value);
  if (key == "sample") w.sample = value;
  if (key == "embeddings_to") w.embeddings_to = value;
  if (key != "batch") return false;
  const uint64_t b = ParseCount(path, ln, "batch", value, kMaxBatch);
  if (b == 0) {
    throw WorkloadError(fmt::format("{}:{}: batch {}: allowed 1..{}", path, ln, value, kMaxBatch));
  }
  w.batch = static_cast<unsigned>(b);
  return true;
}

// The header line's optional columns; refuses any other header.
Columns ParseHeader(const std::string& path, unsigned ln, const std::string& line) {
  Columns cols;
  const std::string base = kHeader;
  cols.with_act = line.rfind(base + ",act", 0) == 0;
  const std::string rest =
      line.substr(std::min(line.size(), (base + (cols.with_act ? ",act" : "")).size()));
  cols.timed = rest == ",fwd_ns,bwd_ns";
  if (line.rfind(base, 0) != 0 || !(rest.empty() || cols.timed)) {
    throw WorkloadError(
        fmt::format("{}:{}: header '{}'; expected '{}' (optionally + ',act', then optionally + "
                    "',fwd_ns,bwd_ns')",
                    path, ln, line, kHeader));
  }
  return cols;
}

// One layer line with the header's `cols`; a name already in `layers` is refused.
Layer ParseLayer(const std::string& path, unsigned ln, const std::string& line, Columns cols,
                 const std::vector<Layer>& layers) {
  std::vector<std::string> c;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) c.push_back(Trim(cell));
  const size_t fields = 6 + (cols.with_act ? 1 : 0) + (cols.timed ? 2 : 0);
  if (c.size() != fields) {
    throw WorkloadError(
        fmt::format("{}:{}: {} fields; expected {} (as the header)", path, ln, c.size(), fields));
  }
  Layer l;
  l.name = c[0];
  if (l.name.empty()) throw WorkloadError(fmt::format("{}:{}: empty layer name", path, ln));
  for (const Layer& prev : layers) {
    if (prev.name == l.name)
      throw WorkloadError(fmt::format("{}:{}: layer '{}' appears twice", path, ln, l.name));
  }
  l.params = ParseCount(path, ln, "params", c[1]);
  l.fwd_flops = static_cast<double>(ParseCount(path, ln, "fwd_flops", c[2], kMaxFlops));
  l.tp_fwd = ParseCount(path, ln, "tp_fwd", c[3]);
  l.tp_bwd = ParseCount(path, ln, "tp_bwd", c[4]);
  if (c[5] == "sharded") {
    l.sharded = true;
  } else if (c[5] != "dp") {
    throw WorkloadError(fmt::format("{}:{}: sync '{}': allowed dp, sharded", path, ln, c[5]));
  }
  const size_t t = cols.with_act ? 7 : 6;  // the first time column
  if (cols.with_act) l.act = ParseCount(path, ln, "act", c[6]);
  if (cols.timed) {
    l.fwd_ns = ParseTime(path, ln, "fwd_ns", c[t]);
    l.bwd_ns = ParseTime(path, ln, "bwd_ns", c[t + 1]);
  }
  return l;
}

// Refuses a file read without a header, layers or batch line, or whose embeddings_to names no
// unsharded layer; a workload without a name takes the path's.
void CheckWorkload(const std::string& path, bool header, bool batch_given, Workload& w) {
  if (!w.embeddings_to.empty()) {
    bool found = false;
    for (const Layer& l : w.layers) found = found || (l.name == w.embeddings_to && !l.sharded);
    if (!found) {
      throw WorkloadError(
          fmt::format("{}: embeddings_to '{}': allowed the name of a layer that is not sharded",
                      path, w.embeddings_to));
    }
  }
  if (!header) throw WorkloadError(fmt::format("{}: no header line '{}'", path, kHeader));
  if (w.layers.empty()) throw WorkloadError(fmt::format("{}: no layers", path));
  if (!batch_given) {  // (a default would quietly scale every layer's compute)
    throw WorkloadError(fmt::format(
        "{}: no '# batch: N' line (the reference samples per chiplet, 1..{})", path, kMaxBatch));
  }
  if (w.name.empty()) w.name = path;
}

}  // namespace

uint64_t Workload::Params() const {
  uint64_t n = 0;
  for (const Layer& l : layers) n += l.params;
  return n;
}

double Workload::FwdFlops() const {
  double f = 0;
  for (const Layer& l : layers) f += l.fwd_flops;
  return f;
}

bool Workload::HasActivations() const {
  for (const Layer& l : layers) {
    if (l.act > 0) return true;
  }
  return false;
}

Workload LoadWorkload(const std::string& path) {
  std::ifstream f(path);
  if (!f) {
    throw WorkloadError(fmt::format("{}: cannot open the workload file (shipped: {})", path,
                                    fmt::join(ShippedWorkloads(), ", ")));
  }
  Workload w;
  bool header = false, batch_given = false;
  Columns cols;
  std::string line;
  for (unsigned ln = 1; std::getline(f, line); ++ln) {
    line = Trim(line);
    if (line.empty()) continue;
    if (line[0] == '#') {
      batch_given = ReadMetaLine(path, ln, line, w) || batch_given;
    } else if (!header) {
      cols = ParseHeader(path, ln, line);
      header = true;
    } else {
      w.layers.push_back(ParseLayer(path, ln, line, cols, w.layers));
    }
  }
  CheckWorkload(path, header, batch_given, w);
  return w;
}

std::vector<std::string> ShippedWorkloads() {
  return {"resnet50", "vgg16", "dlrm", "transformer", "gpt3"};
}

std::string WorkloadPath(const std::string& name_or_path) {
  for (const std::string& s : ShippedWorkloads()) {
    if (s == name_or_path) return fmt::format("{}/{}.csv", ARIES_WORKLOAD_DIR, s);
  }
  return name_or_path;
}

}  // namespace aries::train
