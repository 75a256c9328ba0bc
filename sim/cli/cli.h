// The `aries` command line: each subcommand declares its flags (aliases of the key table,
// cli_keys.h) and its outputs, and runs by turning them into its typed request and calling its
// library function (RunPackageCommand, RunCollectiveCommand, RunCollSweep, RunTrainCommand,
// the figures, ...). sc_main only calls RunCommandLine.
#ifndef ARIES_SIM_CLI_H_
#define ARIES_SIM_CLI_H_

namespace aries::sim {

// Parses argv, runs the chosen subcommand (the default run without one) and returns the
// process exit code: 0 ok, 1 a run failed its checks, 2 refused input (named on stderr).
int RunCommandLine(int argc, char** argv);

}  // namespace aries::sim

#endif  // ARIES_SIM_CLI_H_
