#include "cli_keys.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <stdexcept>

#include "provenance.h"

namespace aries::sim {

struct KeyOptions::Flag {
  std::string name;  // the long name as the user writes it: --topology
  std::string key;
  std::string value;
  bool on = false;  // a switch's value
  bool is_switch = false;
  CLI::Option* option = nullptr;
};

namespace {

std::string LongName(const std::string& names) {
  std::string best;
  size_t b = 0;
  while (b <= names.size()) {
    size_t e = names.find(',', b);
    if (e == std::string::npos) e = names.size();
    const std::string n = names.substr(b, e - b);
    if (best.empty() || n.rfind("--", 0) == 0) best = n;
    b = e + 1;
  }
  return best.rfind("-", 0) == 0 ? best : "--" + best;
}

std::string HelpOf(const std::string& key, const std::string& help) {
  const KeyInfo& k = KeyInfoOf(key);
  const std::string text = help.empty() ? k.description : help;
  return fmt::format("{} (key {}; default: {})", text, key,
                     *k.default_value ? k.default_value : "none");
}

}  // namespace

KeyOptions::KeyOptions(CLI::App* app, std::string command)
    : app_(app), command_(std::move(command)) {
  app_->add_option("--config", file_, "configuration file (key = value lines; aries keys)")
      ->check(CLI::ExistingFile);
  app_->add_option("--set", sets_,
                   fmt::format("set a configuration key: --set key=value (repeatable; the keys "
                               "aries {} reads: aries keys)",
                               command_))
      ->always_capture_default(false)
      ->default_str("");
}

KeyOptions::~KeyOptions() = default;

void KeyOptions::Alias(const std::string& names, const std::string& key, const std::string& help) {
  auto f = std::make_unique<Flag>();
  f->name = LongName(names);
  f->key = key;
  f->option = app_->add_option(names, f->value, HelpOf(key, help));
  flags_.push_back(std::move(f));
}

void KeyOptions::Switch(const std::string& names, const std::string& key, const std::string& help) {
  auto f = std::make_unique<Flag>();
  f->name = LongName(names);
  f->key = key;
  f->is_switch = true;
  f->option = app_->add_flag(names, f->on, HelpOf(key, help));
  flags_.push_back(std::move(f));
}

void KeyOptions::Apply(Config* c) const {
  for (const std::string& a : sets_) c->SetAssignment(a, "--set");
  for (const auto& f : flags_) {
    if (f->option->count() == 0) continue;
    c->Set(f->key, f->is_switch ? "true" : f->value, f->name);
  }
}

Config KeyOptions::Resolve(const KeyOptions* outer) const {
  Config c;
  if (outer && !outer->file_.empty() && !file_.empty()) {
    throw ConfigError(
        fmt::format("--config given twice ({} and {}); give one file", outer->file_, file_));
  }
  const std::string& file = file_.empty() && outer ? outer->file_ : file_;
  if (!file.empty()) c.LoadFile(file);
  if (outer) outer->Apply(&c);
  Apply(&c);
  c.RefuseUnread(command_);
  RecordConfig(c, command_);  // the provenance every output carries
  return c;
}

}  // namespace aries::sim
