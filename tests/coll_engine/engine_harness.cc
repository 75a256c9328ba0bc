#include "engine_harness.h"

#include <gtest/gtest.h>

namespace aries::test {

namespace hw = aries::hw;

EngineHarness::EngineHarness(uint64_t seed)
    : ctx_(std::make_unique<VerilatedContext>()), rng_(seed) {
  ctx_->randReset(2);
  ctx_->randSeed(static_cast<int>(seed & 0x7fffffff));
  m_ = std::make_unique<Vcoll_engine>(ctx_.get());
  for (unsigned c = 0; c < 2; ++c) {
    for (unsigned p = 0; p < kEngPorts; ++p) cred_[c][p] = kEngQueue;
  }
  m_->clk_i = 0;
  m_->in_valid_i = 0;
  m_->out_credit_i = 0;
  m_->cfg_req_i = 0;
  m_->cfg_we_i = 0;
  m_->rst_ni = 1;
  m_->eval();
  m_->rst_ni = 0;
  m_->eval();
  Edge();
  m_->rst_ni = 1;
  Edge();
}

EngineHarness::~EngineHarness() { m_->final(); }

void EngineHarness::Edge() {
  m_->clk_i = 0;
  m_->eval();
  m_->clk_i = 1;
  m_->eval();
}

CollFlit EngineHarness::Decode(const uint32_t* w) {
  CollFlit f;
  const hw::CollHeader h = hw::UnpackCollHeader(w[0]);
  f.vc = h.vc;
  f.id = h.id;
  f.op = h.op;
  f.seq = h.seq;
  for (unsigned l = 0; l < kEngLanes; ++l) f.lanes[l] = w[1 + l];
  return f;
}

void EngineHarness::Encode(const CollFlit& f, uint32_t* w) {
  w[0] = hw::PackCollHeader({f.vc, f.id, f.op, f.seq});
  for (unsigned l = 0; l < kEngLanes; ++l) w[1 + l] = f.lanes[l];
}

void EngineHarness::Send(unsigned port, const CollFlit& f) {
  src_[f.vc == kEngRspVc ? 1 : 0][port].push_back(f);
}

bool EngineHarness::SendersEmpty() const {
  for (unsigned c = 0; c < 2; ++c) {
    for (unsigned p = 0; p < kEngPorts; ++p) {
      if (!src_[c][p].empty()) return false;
    }
  }
  return true;
}

void EngineHarness::Step() {
  // Inputs: per port one flit of either class (alternating when both wait).
  m_->in_valid_i = 0;
  for (unsigned p = 0; p < kEngPorts; ++p) {
    for (unsigned k = 0; k < 2; ++k) {
      const unsigned c = (next_cls_[p] + k) % 2;
      if (src_[c][p].empty() || cred_[c][p] == 0 || uni_(rng_) >= send_rate_) continue;
      uint32_t w[kEngWords];
      Encode(src_[c][p].front(), w);
      src_[c][p].pop_front();
      --cred_[c][p];
      m_->in_valid_i |= 1u << p;
      for (unsigned i = 0; i < kEngWords; ++i) m_->in_flit_i[p * kEngWords + i] = w[i];
      next_cls_[p] = c + 1;
      break;
    }
  }
  // Sinks free slots at random.
  uint32_t oc = 0;
  for (unsigned c = 0; c < 2; ++c) {
    for (unsigned p = 0; p < kEngPorts; ++p) {
      if (sink_fill_[c][p] != 0 && uni_(rng_) < accept_) {
        --sink_fill_[c][p];
        oc |= 1u << (c * kEngPorts + p);
      }
    }
  }
  m_->out_credit_i = oc;
  Edge();
  ++cycle_;
  // Outputs after the edge.
  for (unsigned p = 0; p < kEngPorts; ++p) {
    if ((m_->out_valid_o >> p) & 1u) {
      const CollFlit f = Decode(&m_->out_flit_o[p * kEngWords]);
      const unsigned c = f.vc == kEngRspVc ? 1 : 0;
      ++sink_fill_[c][p];
      EXPECT_LE(sink_fill_[c][p], kEngCredits) << "port " << p << " overran its receiver";
      left_.push_back({cycle_, p, f});
    }
  }
  for (unsigned c = 0; c < 2; ++c) {
    for (unsigned p = 0; p < kEngPorts; ++p) {
      if ((m_->in_credit_o >> (c * kEngPorts + p)) & 1u) ++cred_[c][p];
    }
  }
  m_->cfg_req_i = 0;
}

bool EngineHarness::RunUntil(size_t n, uint64_t limit) {
  for (uint64_t i = 0; i < limit; ++i) {
    if (left_.size() >= n && SendersEmpty()) return true;
    Step();
  }
  return left_.size() >= n && SendersEmpty();
}

bool EngineHarness::Write(uint32_t addr, uint32_t value) {
  m_->cfg_req_i = 1;
  m_->cfg_we_i = 1;
  m_->cfg_addr_i = addr;
  m_->cfg_wdata_i = value;
  Step();
  m_->cfg_req_i = 0;
  EXPECT_TRUE(m_->cfg_rsp_o);
  return !m_->cfg_err_o;
}

void EngineHarness::WriteOk(uint32_t addr, uint32_t value) {
  EXPECT_TRUE(Write(addr, value)) << std::hex << "write 0x" << value << " to 0x" << addr;
}

uint32_t EngineHarness::Read(uint32_t addr) {
  m_->cfg_req_i = 1;
  m_->cfg_we_i = 0;
  m_->cfg_addr_i = addr;
  Step();
  m_->cfg_req_i = 0;
  EXPECT_TRUE(m_->cfg_rsp_o);
  EXPECT_FALSE(m_->cfg_err_o) << std::hex << "read of 0x" << addr;
  return m_->cfg_rdata_o;
}

}  // namespace aries::test
