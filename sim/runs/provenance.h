// Provenance of every result: what made it (version, commit, build type, compiler, Verilator
// and SystemC versions), when (UTC), with which command line and configuration. `aries
// --version` prints it; every JSON carries it as "provenance" with the typed configuration;
// every CSV has it beside it, in PATH.provenance.json, so that the CSV itself is plain (a bare
// pandas.read_csv reads it).
#ifndef ARIES_SIM_PROVENANCE_H_
#define ARIES_SIM_PROVENANCE_H_

#include <nlohmann/json.hpp>
#include <string>

#include "config.h"

namespace aries::sim {

// The command line and its resolved configuration (the keys `command` reads), recorded once
// by the command line before a subcommand runs.
void RecordInvocation(int argc, char** argv);
void RecordConfig(const Config& c, const std::string& command);

// "ARIES-sim 0.5.0 (commit 3d1be94..., Release build, GCC 12.2.0); Verilator 5.006 ...;
// SystemC 2.3.4-Accellera"
std::string VersionText();

// {"tool", "version", "commit", "build_type", "compiler", "verilator", "systemc", "date",
// "command", "config": {key: typed value}} with numbers as numbers and booleans as booleans.
nlohmann::json ProvenanceJson();

// The configuration's keys that `command` reads as a JSON object of typed values.
nlohmann::json TypedConfig(const Config& c, const std::string& command);

// The same as `#` lines ending in a newline (the plotting script prints them under a figure;
// a .gtkw save file carries them as comments).
std::string ProvenanceCsvLines();

// Where the provenance of the CSV `csv_path` is written: "<csv_path>.provenance.json".
std::string ProvenancePath(const std::string& csv_path);
// Writes the provenance of the CSV `csv_path` beside it: {"provenance": {...}, "request":
// {typed configuration}, "result": {"csv": file name}}. With `appended` (rows added to an
// existing CSV) this run's provenance is added to the file's "appended" list instead. Throws
// std::invalid_argument naming `option` and the path when it cannot.
void WriteCsvProvenance(const std::string& csv_path, const char* option, bool appended = false);

// Writes `header_and_rows` to `path` and its provenance beside it (nothing when `path` is
// empty) and prints "<what>: <path>"; throws std::invalid_argument naming `option` and the
// path when it cannot.
void WriteCsv(const std::string& path, const std::string& header_and_rows, const char* option,
              const char* what);

}  // namespace aries::sim

#endif  // ARIES_SIM_PROVENANCE_H_
