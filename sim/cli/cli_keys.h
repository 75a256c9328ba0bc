// The key table at the command line: every subcommand takes --config FILE and --set key=value,
// and its own flags are aliases of keys (`coll --topology mesh` is
// `--set package.topology=mesh`), so one configuration system serves every subcommand and a
// key a subcommand does not read is refused, not ignored.
#ifndef ARIES_SIM_CLI_KEYS_H_
#define ARIES_SIM_CLI_KEYS_H_

#include <memory>
#include <string>
#include <vector>

#include "config.h"

namespace CLI {
class App;
}

namespace aries::sim {

class KeyOptions {
 public:
  // Adds --config and --set to `app`, whose keys are those `command` reads (config.cc).
  KeyOptions(CLI::App* app, std::string command);
  ~KeyOptions();
  KeyOptions(const KeyOptions&) = delete;
  KeyOptions& operator=(const KeyOptions&) = delete;

  // A flag that sets `key`: `--topology mesh`. Its help is `help` (or the key's description)
  // with the key's default.
  void Alias(const std::string& names, const std::string& key, const std::string& help = "");
  // A switch that sets `key` to true: `--verify`.
  void Switch(const std::string& names, const std::string& key, const std::string& help = "");

  // After parsing: the defaults, then the file, then every --set, then the flags (the
  // command line may override a file's value; a key given twice on the command line is
  // refused); `outer` are the options given before the subcommand (`aries --set ... coll`),
  // applied first. Throws ConfigError naming a key the subcommand does not read.
  Config Resolve(const KeyOptions* outer = nullptr) const;
  const std::string& command() const { return command_; }

 private:
  struct Flag;
  void Apply(Config* c) const;

  CLI::App* app_;
  std::string command_;
  std::string file_;
  std::vector<std::string> sets_;
  std::vector<std::unique_ptr<Flag>> flags_;  // stable addresses: CLI11 writes into them
};

}  // namespace aries::sim

#endif  // ARIES_SIM_CLI_KEYS_H_
