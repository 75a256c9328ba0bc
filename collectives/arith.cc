#include "arith.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "aries_pkg.h"

namespace aries::coll {

float AsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint32_t AsBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

namespace {

bool IsNaN(uint32_t u) { return ((u >> 23) & 0xFF) == 0xFF && (u & 0x7FFFFF) != 0; }

// DAZ: a subnormal reads as a zero of its sign.
uint32_t Daz(uint32_t u) { return ((u >> 23) & 0xFF) == 0 ? (u & 0x80000000u) : u; }

// Rounds an exact (or innocuously pre-rounded) double to fp32 with an unbounded exponent
// range below, then flushes results under 2^-126 to zero (tininess after rounding).
uint32_t RoundFtz(double x) {
  if (std::isnan(x)) return kCanonicalNaN;
  if (x == 0.0) return std::signbit(x) ? 0x80000000u : 0u;
  // Scale small values up so the conversion rounds to 24 significant bits, not to the
  // subnormal grid; scaling by a power of two is exact.
  const bool small = std::fabs(x) < std::ldexp(1.0, -100);
  const double scaled = small ? std::ldexp(x, 128) : x;
  const float r = static_cast<float>(scaled);
  if (small) {
    if (std::fabs(static_cast<double>(r)) < std::ldexp(1.0, -126 + 128)) {
      return std::signbit(x) ? 0x80000000u : 0u;
    }
    return AsBits(static_cast<float>(std::ldexp(static_cast<double>(r), -128)));
  }
  if (r != 0.0f && std::fabs(r) < std::ldexp(1.0f, -126)) {
    // Cannot happen (small values take the scaled path), kept for clarity.
    return std::signbit(x) ? 0x80000000u : 0u;
  }
  return AsBits(r);
}

uint32_t AddF32(uint32_t a, uint32_t b) {
  if (IsNaN(a) || IsNaN(b)) return kCanonicalNaN;
  const double x = static_cast<double>(AsFloat(Daz(a)));
  const double y = static_cast<double>(AsFloat(Daz(b)));
  return RoundFtz(x + y);
}

uint32_t MulF32(uint32_t a, uint32_t b) {
  if (IsNaN(a) || IsNaN(b)) return kCanonicalNaN;
  const double x = static_cast<double>(AsFloat(Daz(a)));
  const double y = static_cast<double>(AsFloat(Daz(b)));
  return RoundFtz(x * y);
}

// -0 < +0; otherwise numeric order (inputs after DAZ, no NaN).
bool LessF32(uint32_t a, uint32_t b) {
  const float x = AsFloat(a), y = AsFloat(b);
  if (x == y) return std::signbit(x) && !std::signbit(y);
  return x < y;
}

}  // namespace

uint32_t LaneOp(unsigned op, uint32_t a, uint32_t b) {
  const auto sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
  switch (op) {
    case hw::kOpAddI32:
      return a + b;
    case hw::kOpMulI32:
      return a * b;
    case hw::kOpMinI32:
      return sa < sb ? a : b;
    case hw::kOpMaxI32:
      return sa < sb ? b : a;
    case hw::kOpAddF32:
      return AddF32(a, b);
    case hw::kOpMulF32:
      return MulF32(a, b);
    case hw::kOpMinF32:
      if (IsNaN(a) || IsNaN(b)) return kCanonicalNaN;
      return LessF32(Daz(a), Daz(b)) ? Daz(a) : Daz(b);
    case hw::kOpMaxF32:
      if (IsNaN(a) || IsNaN(b)) return kCanonicalNaN;
      return LessF32(Daz(a), Daz(b)) ? Daz(b) : Daz(a);
    case hw::kOpAnd:
      return a & b;
    case hw::kOpOr:
      return a | b;
    case hw::kOpXor:
      return a ^ b;
    default:
      return 0;
  }
}

void LaneOps(unsigned op, uint32_t* dst, const uint32_t* src, unsigned n) {
  switch (op) {  // integer add and the bitwise operations in loops the compiler can vectorise
    case hw::kOpAddI32:
      for (unsigned i = 0; i < n; ++i) dst[i] += src[i];
      return;
    case hw::kOpAnd:
      for (unsigned i = 0; i < n; ++i) dst[i] &= src[i];
      return;
    case hw::kOpOr:
      for (unsigned i = 0; i < n; ++i) dst[i] |= src[i];
      return;
    case hw::kOpXor:
      for (unsigned i = 0; i < n; ++i) dst[i] ^= src[i];
      return;
    default:
      for (unsigned i = 0; i < n; ++i) dst[i] = LaneOp(op, dst[i], src[i]);
  }
}

uint32_t ReduceInOrder(unsigned op, const std::vector<uint32_t>& inputs) {
  if (inputs.empty()) return 0;
  uint32_t acc = inputs[0];
  for (size_t i = 1; i < inputs.size(); ++i) acc = LaneOp(op, acc, inputs[i]);
  return acc;
}

uint32_t EngineTreeReduce(unsigned op, const std::vector<bool>& present,
                          const std::vector<uint32_t>& values) {
  std::vector<bool> v = present;
  std::vector<uint32_t> d = values;
  size_t n = 1;
  while (n < v.size()) n *= 2;
  if (n < 2) n = 2;
  v.resize(n, false);
  d.resize(n, 0);
  while (n > 1) {
    for (size_t s = 0; s < n / 2; ++s) {
      const bool a = v[2 * s], b = v[2 * s + 1];
      d[s] = a && b ? LaneOp(op, d[2 * s], d[2 * s + 1]) : (a ? d[2 * s] : d[2 * s + 1]);
      v[s] = a || b;
    }
    n /= 2;
  }
  return d[0];
}

std::string OpName(unsigned op) {
  static const char* const kNames[] = {"add.i32", "mul.i32", "min.i32", "max.i32",
                                       "add.f32", "mul.f32", "min.f32", "max.f32",
                                       "and",     "or",      "xor"};
  return op < hw::kNumOps ? kNames[op] : "op" + std::to_string(op);
}

const char* ReductionNames() { return "sum, prod, min, max, and, or, xor"; }

unsigned ReductionOpcode(const std::string& op, const std::string& type) {
  const bool fp = type == "fp32";
  if (!fp && type != "int32") {
    throw std::invalid_argument("element type '" + type + "': allowed int32, fp32");
  }
  if (op == "sum") return fp ? hw::kOpAddF32 : hw::kOpAddI32;
  if (op == "prod") return fp ? hw::kOpMulF32 : hw::kOpMulI32;
  if (op == "min") return fp ? hw::kOpMinF32 : hw::kOpMinI32;
  if (op == "max") return fp ? hw::kOpMaxF32 : hw::kOpMaxI32;
  const unsigned bitwise = op == "and"   ? hw::kOpAnd
                           : op == "or"  ? hw::kOpOr
                           : op == "xor" ? hw::kOpXor
                                         : ~0u;
  if (bitwise == ~0u) {
    throw std::invalid_argument("operation '" + op + "': allowed " + ReductionNames());
  }
  if (fp) {
    throw std::invalid_argument("operation '" + op +
                                "' on fp32: the bitwise operations act on int32 elements");
  }
  return bitwise;
}

}  // namespace aries::coll
