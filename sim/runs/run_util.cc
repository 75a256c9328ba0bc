#include "run_util.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "files.h"

namespace aries::sim {

namespace {

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

ProgressMeter::ProgressMeter(bool forced, std::string what, uint64_t total_cycles)
    : enabled_(forced || StderrIsTerminal()),
      what_(std::move(what)),
      total_(total_cycles),
      start_(Now()),
      next_(start_ + 2.0) {}

void ProgressMeter::operator()(uint64_t cycle) {
  if (!enabled_) return;
  const double t = Now();
  if (t < next_) return;
  next_ = t + 1.0;
  const double secs = t - start_;
  fmt::print(stderr, "  [{}] cycle {}{}, {:.0f} cycles/s, {:.0f} s\n", what_, cycle,
             total_ ? fmt::format(" of about {} ({:.0f}%)", total_,
                                  100.0 * static_cast<double>(cycle) / static_cast<double>(total_))
                    : "",
             static_cast<double>(cycle) / secs, secs);
}

struct Heartbeat::State {
  std::mutex mu;
  std::condition_variable cv;
  bool stop = false;
  std::thread thread;
};

Heartbeat::Heartbeat(bool forced, std::string what, double period) {
  if (!forced && !StderrIsTerminal()) return;
  s_ = std::make_unique<State>();
  State* st = s_.get();
  st->thread = std::thread([st, what, period] {
    const double start = Now();
    std::unique_lock<std::mutex> lock(st->mu);
    while (
        !st->cv.wait_for(lock, std::chrono::duration<double>(period), [st] { return st->stop; })) {
      fmt::print(stderr, "  [{}] still running, {:.0f} s\n", what, Now() - start);
    }
  });
}

Heartbeat::~Heartbeat() {
  if (!s_) return;
  {
    std::lock_guard<std::mutex> lock(s_->mu);
    s_->stop = true;
  }
  s_->cv.notify_all();
  s_->thread.join();
}

std::string SizeLabel(uint64_t s) {
  return s % (1024 * 1024) == 0 ? fmt::format("{}M", s >> 20)
         : s % 1024 == 0        ? fmt::format("{}K", s >> 10)
                                : std::to_string(s);
}

std::vector<std::string> SplitList(const std::string& s, const char* option) {
  std::vector<std::string> v;
  bool empty_item = false;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');) {
    if (x.empty()) {
      empty_item = true;
      continue;
    }
    if (std::find(v.begin(), v.end(), x) != v.end()) {
      throw std::invalid_argument(
          fmt::format("{} {}: '{}' given twice (allowed: each item once)", option, s, x));
    }
    v.push_back(x);
  }
  if ((empty_item || (!s.empty() && s.back() == ',')) && !v.empty()) {
    throw std::invalid_argument(
        fmt::format("{} {}: an empty item (allowed: items separated by single commas)", option, s));
  }
  return v;
}

void WriteOutput(const std::string& path, const std::string& text, const char* option,
                 const char* what) {
  if (path.empty()) return;
  WriteOutputFile(path, text, option);
  fmt::print("{}: {}\n", what, path);
}

std::string SelfExe() {
  char buf[4096];
  const ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0) throw std::runtime_error("cannot find the aries executable (/proc/self/exe)");
  return std::string(buf, static_cast<size_t>(len));
}

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string CostPath(const std::string& costs) {
  return CheckInputFile(costs.empty() ? ARIES_COST_FILE : costs, "coll.costs", kLargeInputLimit);
}

std::string CostFileLabel(const std::string& path) {
  return path == ARIES_COST_FILE ? "collectives/data/collective_costs.csv" : path;
}

}  // namespace aries::sim
