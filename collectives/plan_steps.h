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
// (the trees, recursive doubling, ARIES_LT). Every channel (sender, receiver, flow, VC, lane), in
// that order, goes to the port where the larger of its sender's outgoing and its receiver's
// incoming elements so far is least (ties: the lower port): a local port injects and ejects one
// flit a cycle, so both ends count (spread by the senders alone, a tree's leaves, one channel
// each, all arrive on their parent's port 0). A channel's sends and their receives keep one port
// (its messages keep their order). A program that chose its ports itself (any op off port 0) is
// left as it is. Returns whether anything moved. (Against the sender-only spread it replaces, on
// ARIES with two ports, 64 KB / 1 MB: mtree 1.38x / 1.39x on 4x4 and 1.12x / 1.13x on 8x8, rd
// 1.38x / 1.42x and 1.03x / 1.09x, dbt 1.00x / 0.98x and 1.06x / 1.09x, cmtree 1.07x / 1.11x and
// 1.00x / 0.99x, ARIES_LT 0.99x / 1.00x on 4x4; the double binary tree on the 4x4 butterfly's
// per-pair links 1.26x at 64 KB; `aries coll ... --set node.local_ports=2` built at 2f018fa and
// at a2829f0.)
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
