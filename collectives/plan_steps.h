// Internal to the planners: the schedule builder and the ring steps the planners share, and
// the planner functions the factory (planners.cc) registers.
#ifndef ARIES_COLLECTIVES_PLAN_STEPS_H_
#define ARIES_COLLECTIVES_PLAN_STEPS_H_

#include <vector>

#include "planners.h"

namespace aries::coll::steps {

// Appends ops to node programs (empty regions are skipped on both sides); the sender's send
// and the receiver's receive are appended in the same call, so every channel's messages are
// received in the order they were sent.
class Builder {
 public:
  explicit Builder(Program& p) : p_(p) {}
  void Xfer(unsigned from, unsigned to, Range r, bool reduce, uint8_t lane = 0);

 private:
  Program& p_;
};

// A program with the request's buffer size and one empty node program per node.
Program Empty(const Request& req);
// Ring reduce-scatter over `ring` (node ids in ring order): position i ends with chunk c[i]
// fully reduced. The chunk c[i] starts at position i + 1 and travels the ring once.
void RingReduceScatter(Builder& b, const std::vector<unsigned>& ring, const std::vector<Range>& c);
// Ring all-gather: position i starts with chunk c[i]; every position ends with all of them.
void RingAllGather(Builder& b, const std::vector<unsigned>& ring, const std::vector<Range>& c);
// Chunk i of `r` cut into n balanced chunks: Shard i of r's length, offset by r.off.
Range SubShard(Range r, unsigned n, unsigned i);
// `r` cut into n balanced chunks (SubShard 0 .. n-1).
std::vector<Range> Chunks(size_t n, Range r);
bool PowerOfTwo(unsigned n);
// Spreads the messages of a program that puts them all on local port 0 over `ports` local ports
// (the trees, recursive doubling, ARIES_LT). Each node's outgoing channels (peer, flow, VC,
// lane) go, in the order of their peers, to the port that carries the fewest elements so far; a
// channel's sends and their receives keep one port (its messages keep their order). A node with
// one channel, or a program that chose its ports itself (any op off port 0), is left as it is.
// Returns whether anything moved. (Of the rules tried on 2 MB all-reduces on ARIES with two
// ports, 4x4 and 8x8, this one lost nowhere against one port: dbt 1.00x / 1.09x, mtree 1.34x /
// 1.36x, cmtree 1.04x / 1.09x; largest channel first lost 10% on the 4x4 dbt, first-used order
// 10% too. The trees are limited by their links more than by the endpoint.)
bool SpreadOverPorts(Program& p, unsigned ports);

// The planners (the factory's table in planners.cc).
Program PlanRing(const Request& req, const Hardware& hw);
Program Plan2dRing(const Request& req, const Hardware& hw);
Program PlanAriesBw(const Request& req, const Hardware& hw);
Program PlanAriesLt(const Request& req, const Hardware& hw);
Program PlanRecursiveDoubling(const Request& req, const Hardware& hw);
Program PlanRabenseifner(const Request& req, const Hardware& hw);
Program PlanTree(const Request& req, const Hardware& hw);
Program PlanDoubleBinaryTree(const Request& req, const Hardware& hw);
Program PlanMultiTree(const Request& req, const Hardware& hw);
Program PlanConcentratedMultiTree(const Request& req, const Hardware& hw);
Program PlanAllToAllDirect(const Request& req, const Hardware& hw);
Program PlanAllToAll2d(const Request& req, const Hardware& hw);

}  // namespace aries::coll::steps

#endif  // ARIES_COLLECTIVES_PLAN_STEPS_H_
