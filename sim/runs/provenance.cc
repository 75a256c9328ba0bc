#include "provenance.h"

#include <fmt/format.h>
#include <sysc/kernel/sc_ver.h>  // the version macros only (no SystemC library call)

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "aries_build_info.h"  // ARIES_GIT_COMMIT (cmake/BuildInfo.cmake, every build)
#include "files.h"
#include "run_util.h"

namespace aries::sim {

namespace {

struct Invocation {
  std::string command_line;
  std::string command;
  nlohmann::json config = nlohmann::json::object();
};

Invocation& State() {
  static Invocation s;
  return s;
}

std::string UtcNow() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string Compiler() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown compiler";
#endif
}

// A validated value as JSON, typed by its key's type in the table: a boolean as a boolean,
// decimal integers as unsigned numbers (all 64 bits; "auto" stays a string), other numbers as
// numbers, everything else a string.
nlohmann::json Typed(const KeyInfo& k, const std::string& v) {
  if (k.type.kind == KeyKind::kBool) return v == "true";
  if (k.type.kind == KeyKind::kText) return v;
  if (!v.empty() && v.size() <= 20 && v.find_first_not_of("0123456789") == std::string::npos) {
    try {
      return static_cast<uint64_t>(std::stoull(v));
    } catch (const std::out_of_range&) {
      return v;
    }
  }
  if (!v.empty() && v.find_first_of("0123456789") != std::string::npos) {
    char* end = nullptr;
    errno = 0;
    const double d = std::strtod(v.c_str(), &end);
    if (end && *end == '\0' && errno == 0) return d;
  }
  return v;
}

}  // namespace

void RecordInvocation(int argc, char** argv) {
  // A word is quoted only when the shell would read it otherwise.
  auto word = [](const std::string& w) {
    const bool plain = !w.empty() && w.find_first_not_of(
                                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
                                         "qrstuvwxyz0123456789_./=,:@%+-") == std::string::npos;
    return plain ? w : ShellQuote(w);
  };
  std::string line = "aries";
  for (int i = 1; i < argc; ++i) line += " " + word(argv[i]);
  State().command_line = line;
}

nlohmann::json TypedConfig(const Config& c, const std::string& command) {
  nlohmann::json j = nlohmann::json::object();
  for (const KeyInfo& k : ConfigKeys()) {
    if (k.UsedBy(command)) j[k.key] = Typed(k, c.Get(k.key));
  }
  return j;
}

void RecordConfig(const Config& c, const std::string& command) {
  State().command = command;
  State().config = TypedConfig(c, command);
}

std::string VersionText() {
  return fmt::format("ARIES-sim {} (commit {}, {} build, {}); Verilator {}; SystemC {}",
                     ARIES_VERSION, ARIES_GIT_COMMIT, ARIES_BUILD_TYPE, Compiler(),
                     ARIES_VERILATOR_VERSION, SC_VERSION);
}

nlohmann::json ProvenanceJson() {
  nlohmann::json j;
  j["tool"] = "ARIES-sim";
  j["version"] = ARIES_VERSION;
  j["commit"] = ARIES_GIT_COMMIT;
  j["build_type"] = ARIES_BUILD_TYPE;
  j["compiler"] = Compiler();
  j["verilator"] = ARIES_VERILATOR_VERSION;
  j["systemc"] = SC_VERSION;
  j["date"] = UtcNow();
  j["command"] = State().command_line;
  j["subcommand"] = State().command;
  j["config"] = State().config;
  return j;
}

std::string ProvenanceCsvLines() {
  std::string config;
  for (const auto& [k, v] : State().config.items()) {
    config += fmt::format(" {}={}", k, v.is_string() ? v.get<std::string>() : v.dump());
  }
  return fmt::format("# {}\n# date: {}\n# command: {}\n# config:{}\n", VersionText(), UtcNow(),
                     State().command_line, config.empty() ? " (none read)" : config);
}

std::string ProvenancePath(const std::string& csv_path) { return csv_path + ".provenance.json"; }

void WriteCsvProvenance(const std::string& csv_path, const char* option, bool appended) {
  const std::string path = ProvenancePath(csv_path);
  nlohmann::json j;
  if (appended) {
    std::ifstream in(path);
    j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) j = nlohmann::json::object();  // none (or not ours): start one
    j["appended"].push_back(ProvenanceJson());
  } else {
    j["provenance"] = ProvenanceJson();
    j["request"] = State().config;
    j["result"] = {{"csv", std::filesystem::path(csv_path).filename().string()}};
  }
  WriteOutputFile(path, j.dump(2) + "\n", option);
}

void WriteCsv(const std::string& path, const std::string& header_and_rows, const char* option,
              const char* what) {
  if (path.empty()) return;
  WriteOutput(path, header_and_rows, option, what);
  WriteCsvProvenance(path, option);
}

}  // namespace aries::sim
