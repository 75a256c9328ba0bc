// Packet trace files for `traffic.pattern = trace`: one packet per line, "cycle src dst flits"
// (decimal; node ids y * K + x; '#' starts a comment). A pure reader (no package), fuzzed by
// tests/fuzz.
#ifndef ARIES_TB_TRACE_FILE_H_
#define ARIES_TB_TRACE_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

namespace aries::tb {

struct TraceEntry {
  uint64_t cycle;
  unsigned src, dst, flits;
};
// Reads a trace of a package of `num_nodes` nodes; throws std::runtime_error naming the file,
// line and what is wrong (not a regular file, a line over 4096 characters, a field that is not
// a decimal number, a node past the package, 0 or more than 1024 flits, decreasing cycles, no
// packet at all).
std::vector<TraceEntry> ReadTrace(const std::string& path, unsigned num_nodes);

}  // namespace aries::tb

#endif  // ARIES_TB_TRACE_FILE_H_
