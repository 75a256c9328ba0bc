// The network scoreboard's packet records: ids must increase (gaps allowed, as a rank records
// only the packets with an end on it), an id in a gap or already finished has no record, and an
// id that goes back is refused.
#include <gtest/gtest.h>

#include <stdexcept>

#include "net_traffic.h"

namespace aries::tb {
namespace {

Packet Pkt(uint64_t id) { return Packet{id, 0, 1, 0, 2, 0}; }

TEST(NetScoreboard, IdsIncreaseWithGapsAndNeverGoBack) {
  NetScoreboard sb(2, true);
  sb.OnCreate(Pkt(5));
  sb.OnCreate(Pkt(9));  // a gap: 6, 7 and 8 belong to other ranks
  EXPECT_EQ(sb.outstanding(), 2u);
  EXPECT_EQ(sb.Get(9).id, 9u);
  EXPECT_THROW(sb.Get(7), std::out_of_range);
  EXPECT_THROW(sb.OnCreate(Pkt(8)), std::logic_error);  // goes back into the gap
  EXPECT_THROW(sb.OnCreate(Pkt(9)), std::logic_error);  // twice
  EXPECT_EQ(sb.outstanding(), 2u);                      // the refusals recorded nothing
  sb.Erase(5);
  EXPECT_THROW(sb.Get(5), std::out_of_range);
  EXPECT_EQ(sb.outstanding(), 1u);
  sb.Erase(5);  // a finished packet again: nothing
  EXPECT_EQ(sb.outstanding(), 1u);
  sb.OnCreate(Pkt(12));
  std::vector<uint64_t> open;
  sb.ForEachPacket([&](const Packet& p) { open.push_back(p.id); });
  EXPECT_EQ(open, (std::vector<uint64_t>{9, 12}));
}

}  // namespace
}  // namespace aries::tb
