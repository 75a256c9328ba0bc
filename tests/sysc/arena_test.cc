// Arena and Slice (sysc/arena.h): the layout the fast node, the channels and the node pins rely
// on (every slice zero, aligned for its type, in the order added, none overlapping; a new line
// where asked), and that moving the owner keeps the data.
#include "arena.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

#include "node_model.h"

namespace {

using aries::sysc::Arena;
using aries::sysc::NodePins;
using aries::sysc::NodeShape;
using aries::sysc::Slice;

template <class T>
uintptr_t Addr(const Slice<T>& s) {
  return reinterpret_cast<uintptr_t>(s.data());
}

TEST(Arena, SlicesAreZeroAlignedInOrderAndApart) {
  Arena a;
  Slice<uint8_t> bytes;
  Slice<uint64_t> words;
  Slice<uint16_t> halves, more_halves;
  Slice<uint32_t> after_line;
  a.Add(bytes, 5);
  a.Add(words, 3);
  a.AddEach(7, halves, more_halves);
  a.NewLine();
  a.Add(after_line, 9);
  a.Commit();
  EXPECT_EQ(bytes.size(), 5u);
  EXPECT_EQ(words.size(), 3u);
  EXPECT_EQ(halves.size(), 7u);
  EXPECT_EQ(more_halves.size(), 7u);
  EXPECT_EQ(after_line.size(), 9u);
  EXPECT_EQ(Addr(bytes) % Arena::kLine, 0u) << "the allocation starts a cache line";
  EXPECT_EQ(Addr(words) % alignof(uint64_t), 0u);
  EXPECT_EQ(Addr(halves) % alignof(uint16_t), 0u);
  EXPECT_EQ(Addr(after_line) % Arena::kLine, 0u) << "NewLine";
  // In the order added, each after the end of the one before.
  EXPECT_GE(Addr(words), Addr(bytes) + 5);
  EXPECT_EQ(Addr(halves), Addr(words) + 3 * sizeof(uint64_t));
  EXPECT_EQ(Addr(more_halves), Addr(halves) + 7 * sizeof(uint16_t));
  EXPECT_GE(Addr(after_line), Addr(more_halves) + 7 * sizeof(uint16_t));
  for (uint8_t v : bytes) EXPECT_EQ(v, 0);
  for (uint64_t v : words) EXPECT_EQ(v, 0u);
  for (uint16_t v : more_halves) EXPECT_EQ(v, 0u);
  for (uint32_t v : after_line) EXPECT_EQ(v, 0u);
  // Writing one slice whole leaves its neighbours alone.
  for (uint16_t& v : halves) v = 0xFFFF;
  for (uint64_t v : words) EXPECT_EQ(v, 0u);
  for (uint16_t v : more_halves) EXPECT_EQ(v, 0u);
}

// An owner of an arena and its slices, moved as the package moves its nodes.
struct Owner {
  Arena arena;
  Slice<uint32_t> data;
  Owner() {
    arena.Add(data, 4);
    arena.Commit();
  }
};

TEST(Arena, MovingTheOwnerKeepsTheData) {
  Owner a;
  for (unsigned i = 0; i < 4; ++i) a.data[i] = 10 + i;
  const uint32_t* where = a.data.data();
  Owner b(std::move(a));
  ASSERT_EQ(b.data.size(), 4u);
  EXPECT_EQ(b.data.data(), where) << "the memory stays where it is";
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(b.data[i], 10 + i);
  EXPECT_EQ(a.data.size(), 0u)
      << "the moved-from slice is empty";  // NOLINT(bugprone-use-after-move)
}

TEST(NodePins, SizeGivesEveryArrayItsLengthZeroAndSizesAgain) {
  NodeShape s;
  s.num_links = 12;
  s.local_ports = 2;
  s.carried_lanes = 1;  // two words a flit
  NodePins p;
  p.Size(s);
  EXPECT_EQ(p.link_flit.size(), 12u * 2u);
  EXPECT_EQ(p.link_credit.size(), 12u);
  EXPECT_EQ(p.ep_flit.size(), 2u * 2u);
  for (uint32_t& w : p.link_flit) w = 7;
  for (uint8_t& c : p.link_credit) c = 3;
  s.num_links = 20;
  p.Size(s);  // a new allocation, zero again
  EXPECT_EQ(p.link_flit.size(), 20u * 2u);
  EXPECT_EQ(p.link_credit.size(), 20u);
  for (uint32_t w : p.link_flit) EXPECT_EQ(w, 0u);
  for (uint8_t c : p.link_credit) EXPECT_EQ(c, 0);
}

}  // namespace
