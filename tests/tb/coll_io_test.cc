// Per-node vector files (tb/coll_io): .npy and raw round trips, a header written the way NumPy
// writes it, and every refusal naming the file and what was expected.
#include "coll_io.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

namespace {

using namespace aries::tb;

std::string Tmp(const std::string& name) { return ::testing::TempDir() + "coll_io_" + name; }

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string Refusal(const std::string& path, const std::string& type, uint64_t n) {
  try {
    ReadVectorFile(path, type, n);
  } catch (const VectorFileError& e) {
    return e.what();
  }
  return "";
}

TEST(CollIo, NpyAndRawRoundTrip) {
  const std::vector<uint32_t> v = {0, 1, 0xFFFFFFFFu, 0x3F800000u, 123456789u};
  for (const char* ext : {".npy", ".bin"}) {
    const std::string path = Tmp(std::string("rt") + ext);
    WriteVectorFile(path, "fp32", v);
    EXPECT_EQ(ReadVectorFile(path, "fp32", v.size()), v) << ext;
  }
  // Raw: exactly 4 bytes per element, little-endian.
  std::ifstream f(Tmp("rt.bin"), std::ios::binary | std::ios::ate);
  EXPECT_EQ(static_cast<size_t>(f.tellg()), 4 * v.size());
}

TEST(CollIo, ReadsAHeaderAsNumPyWritesIt) {
  // numpy.save of np.array([1, -2, 3], dtype="<i4"): format 1.0, preamble + header padded
  // with spaces and a newline to 128 bytes.
  std::string h = "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }";
  h.append(128 - 10 - h.size() - 1, ' ');
  h.push_back('\n');
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file.push_back(static_cast<char>(h.size()));
  file.push_back('\0');
  file += h;
  for (uint32_t w : {1u, 0xFFFFFFFEu, 3u}) {
    for (int b = 0; b < 4; ++b) file.push_back(static_cast<char>(w >> (8 * b)));
  }
  WriteBytes(Tmp("np.npy"), file);
  EXPECT_EQ(ReadVectorFile(Tmp("np.npy"), "int32", 3), (std::vector<uint32_t>{1, 0xFFFFFFFEu, 3}));
  EXPECT_EQ(file.size(), 128u + 12u);  // data starts at byte 128
}

TEST(CollIo, RefusalsNameTheFileAndWhatWasExpected) {
  WriteVectorFile(Tmp("i.npy"), "int32", {1, 2, 3});
  EXPECT_NE(Refusal(Tmp("i.npy"), "fp32", 3)
                .find("coll_io_i.npy: dtype '<i4' does not hold fp32; allowed '<f4'"),
            std::string::npos);
  EXPECT_NE(Refusal(Tmp("i.npy"), "int32", 4).find("shape (3,): expected (4,)"), std::string::npos);
  WriteVectorFile(Tmp("r.bin"), "int32", {1, 2, 3});
  EXPECT_NE(Refusal(Tmp("r.bin"), "int32", 2)
                .find("coll_io_r.bin: 12 bytes of data: expected 8 (2 elements"),
            std::string::npos);
  WriteBytes(Tmp("bad.npy"), "not numpy at all");
  EXPECT_NE(Refusal(Tmp("bad.npy"), "int32", 1).find("not a NumPy .npy file"), std::string::npos);
  WriteBytes(Tmp("cut.npy"), std::string("\x93NUMPY\x01\x00", 8));  // the magic, no header
  EXPECT_NE(Refusal(Tmp("cut.npy"), "int32", 1)
                .find("coll_io_cut.npy: a NumPy .npy file cut short (8 bytes: its version and "
                      "header length need 10)"),
            std::string::npos);
  EXPECT_NE(Refusal(Tmp("missing.npy"), "int32", 1).find("cannot open for reading"),
            std::string::npos);
  try {
    NodePath("in/node.npy", 3);
    FAIL();
  } catch (const VectorFileError& e) {
    EXPECT_NE(std::string(e.what()).find("must contain {node}"), std::string::npos);
  }
  EXPECT_EQ(NodePath("in/n{node}.npy", 12), "in/n12.npy");
}

TEST(CollIo, NodeVectorsByPattern) {
  const std::vector<std::vector<uint32_t>> v = {{1, 2}, {3, 4}, {5, 6}};
  for (unsigned n = 0; n < 3; ++n)
    WriteVectorFile(NodePath(Tmp("node{node}.npy"), n), "int32", v[n]);
  EXPECT_EQ(ReadNodeVectors(Tmp("node{node}.npy"), "int32", 3, 2), v);
}

// All-to-all-v counts files: comments, commas and blank lines; every refusal names the file,
// the line and what was expected.
TEST(CollIo, CountsFile) {
  const std::string path = Tmp("counts.txt");
  std::ofstream(path) << "# 2x2\n0 5 0 7\n\n1,0,0,0  # node 1\n0 0 3 9\n4 4 4 0\n";
  const auto c = ReadCountsFile(path, 4);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0], (std::vector<uint64_t>{0, 5, 0, 7}));
  EXPECT_EQ(c[1], (std::vector<uint64_t>{1, 0, 0, 0}));
  EXPECT_EQ(c[3][2], 4u);
  auto refusal = [&](const std::string& text, unsigned nodes = 4) {
    std::ofstream(path) << text;
    try {
      ReadCountsFile(path, nodes);
    } catch (const VectorFileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(refusal("0 1\n1 0\n"), path + " line 1: 2 counts, allowed 4 (one per chiplet)");
  EXPECT_EQ(refusal("0 1\n1 -2\n", 2),
            path + " line 2: '-2' is not an element count (allowed 0 .. 999999999999)");
  EXPECT_EQ(refusal("0 1\n1 0\n1 1\n", 2), path + " line 3: more than 2 rows (one per chiplet)");
  EXPECT_EQ(refusal("0 1\n", 2), path + ": 1 rows of counts, allowed 2 (one per chiplet)");
  EXPECT_EQ(refusal("0 1\n1 1e3\n", 2),
            path + " line 2: '1e3' is not an element count (allowed 0 .. 999999999999)");
  std::remove(path.c_str());
  try {
    ReadCountsFile(path, 2);
    ADD_FAILURE() << "a missing file read";
  } catch (const VectorFileError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open the counts file");
  }
}

}  // namespace
