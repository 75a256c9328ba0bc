// Per-node collective vectors in files: raw little-endian 32-bit words, or NumPy .npy (format
// 1.0, 2.0 or 3.0, one dimension, C order, dtype '<i4', '<u4' or '<f4'), chosen by the file's
// extension (.npy in any case; anything else is raw). A path pattern names one file per node with
// "{node}" (in/node{node}.npy). Every refusal names the file and what was expected; nothing is read
// partially.
#ifndef ARIES_TB_COLL_IO_H_
#define ARIES_TB_COLL_IO_H_

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace aries::tb {

struct VectorFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `pattern` with "{node}" replaced by the node index; throws if it has no "{node}".
std::string NodePath(const std::string& pattern, unsigned node);

// Reads `elements` 32-bit words of element type `type` ("int32" or "fp32"; an .npy file must
// declare it: '<i4' or '<u4' for int32, '<f4' for fp32).
std::vector<uint32_t> ReadVectorFile(const std::string& path, const std::string& type,
                                     uint64_t elements);
// The bytes of `words` as the file `path` (.npy: a version 1.0 header, else raw
// little-endian words); WriteVectorFile writes them there.
std::string EncodeVectorFile(const std::string& path, const std::string& type,
                             const std::vector<uint32_t>& words);
void WriteVectorFile(const std::string& path, const std::string& type,
                     const std::vector<uint32_t>& words);

// One vector per node from `pattern`, each of `elements` words.
std::vector<std::vector<uint32_t>> ReadNodeVectors(const std::string& pattern,
                                                   const std::string& type, unsigned nodes,
                                                   uint64_t elements);

// All-to-all-v counts (coll.counts = FILE): `nodes` lines of `nodes` element counts, line i
// the counts node i sends to nodes 0, 1, ... (whitespace or commas between them; blank lines
// and text after '#' ignored). Throws VectorFileError naming the file, the line and what was
// expected.
std::vector<std::vector<uint64_t>> ReadCountsFile(const std::string& path, unsigned nodes);

}  // namespace aries::tb

#endif  // ARIES_TB_COLL_IO_H_
