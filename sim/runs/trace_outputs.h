// The debugging outputs of one package run, shared by `aries run` and `aries coll`: the waveform
// (FST, or VCD converted from it) with its GTKWave save file and flit decoder, the packet log,
// the path of one followed packet or message, and the trace-event timeline (Chrome / Perfetto).
#ifndef ARIES_SIM_RUNS_TRACE_OUTPUTS_H_
#define ARIES_SIM_RUNS_TRACE_OUTPUTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "files.h"
#include "gtkw.h"
#include "node_models.h"
#include "package.h"

namespace aries::sim {

struct TraceRequest {
  std::string file;             // FST or VCD path; empty: no trace
  std::vector<unsigned> nodes;  // empty: every node
  uint64_t from = 0, to = ~uint64_t{0};
  // --packet-log: every flit's every hop as CSV (PacketLogHeader); empty: none.
  std::string packet_log;
  // --trace-packet: the packet (traffic id, lane 0) whose hops are collected into `path`.
  int64_t packet = -1;
  // --timeline: trace-event JSON of the run (TimelineJson); empty: none.
  std::string timeline;
  // The save file's view: ports per traced node, markers (GtkwView); empty: every port.
  GtkwView view;
  bool Observes() const { return !packet_log.empty() || packet >= 0 || !timeline.empty(); }
  // Records what `path` records: its nodes, cycles and view (a followed packet's, PathOf).
  void RecordAs(const TraceRequest& path) {
    nodes = path.nodes;
    from = path.from;
    to = path.to;
    view = path.view;
  }
};

// One event of a followed packet's head flit (where and when it entered, left or reached each
// node, and by which router ports), or its tail flit's ejection.
struct PacketHop {
  uint64_t cycle = 0;
  std::string event;  // inject, hop, eject
  unsigned node = 0, to_node = 0;
  unsigned in_port = 0, out_port = 0;  // router ports at `node` (inject: in; hop, eject: out)
  unsigned to_port = 0;                // a hop's: the router port it enters at `to_node`
  bool head = true, tail = false;      // the flit's (a tail is kept only at its ejection)
  unsigned vc = 0;                     // the flit's VC there (engine requests: num_vcs)
};

// The packet log's columns: cycle (= ns on the waveform's time axis), event (inject: from the
// endpoint into the node; hop: out of the node on an interposer link; eject: out to the
// endpoint), node, link (the node's link of a hop), channel (its name), to_node, arrive_cycle
// (when it reaches the next node's input), vc, head, tail, src, dst (node numbers of a
// dimension-order packet), flow (a table-routed packet's flow, or a collective flit's id), op
// and seq (a collective flit's), lane0 (a traffic packet's id), lane1, header (the header word
// in hex, as the waveform shows it).
const char* PacketLogHeader();

// Whether a flit header belongs to a followed packet or message.
using FlitMatch = std::function<bool(const sysc::Package::FlitEvent&)>;

// Observes every flit of a package (Package::SetFlitObserver): writes the packet log, collects
// the events of the flits `follow` matches (their heads', and their tails' ejections), and
// keeps the flit events a timeline draws: those of the cycles [trace.from, trace.to), at most
// kMaxTimelineSlices. The package must outlive it.
class FlitRecorder {
 public:
  static constexpr size_t kMaxTimelineSlices = 1'000'000;  // about 130 MB of JSON
  FlitRecorder(const TraceRequest& trace, const sysc::Package& pkg, FlitMatch follow);
  void operator()(const sysc::Package::FlitEvent& e);
  // Puts the log in place (and its provenance beside it) once the run is over.
  void Commit();
  const std::vector<PacketHop>& hops() const { return hops_; }
  // A flit event as the timeline keeps it: cycle, node, kind, router port (out port of a
  // hop), its channel (a hop's) and header.
  struct Slice {
    uint64_t cycle;
    unsigned node, port;
    sysc::Package::FlitEvent::Kind kind;
    const sysc::Channel* channel;
    uint32_t header;
  };
  const std::vector<Slice>& slices() const { return slices_; }
  const sysc::Package& package() const { return pkg_; }
  // Flit events of the window the timeline left out past kMaxTimelineSlices.
  uint64_t slices_cut() const { return cut_; }

 private:
  std::unique_ptr<OutputFile> out_;
  const sysc::Package& pkg_;
  FlitMatch follow_;
  bool timeline_;
  uint64_t from_, to_, cut_ = 0;
  std::vector<PacketHop> hops_;
  std::vector<Slice> slices_;
};

// The waveform of a followed packet or message from its flits' events (FlitRecorder::hops) in
// cycles [first, end]: its nodes in the order its heads reach them, with the router ports it uses
// at each; the cycles from 5 before `first` to 10 after its last ejection, viewed from 2 before
// to 3 after, with markers at `first` (A) and that ejection (B); and its path as text: "inject at
// node4 (cycle 127), node4 -> node8 (cycle 129), eject at node8 (cycle 140)" (each step the first
// time it is taken, at most 12).
struct FollowedPath {
  std::string text;
  TraceRequest trace;
};
FollowedPath PathOf(const std::vector<PacketHop>& hops, uint64_t first, uint64_t end);

// "H3>5 vc1", "Hf9@3 vc0", "id3.12 req add.i32": a flit header, as the flit decoder
// (sim/tools/flit_filter.py) prints it before the lanes.
std::string DescribeHeader(uint32_t header, unsigned num_vcs, unsigned k);

// A waveform's files (the FST, or a VCD converted from it by GTKWave's fst2vcd, its save file
// and flit filter), written as temporaries and put in place once the run has ended (a waveform
// of a failed run is kept for debugging); a refused input leaves none behind.
class WaveformFiles {
 public:
  // Throws ConfigError for a name ending in neither .fst nor .vcd, or a .vcd without fst2vcd.
  explicit WaveformFiles(const std::string& path);
  bool active() const { return wave_ != nullptr; }
  // The file the package's FST writer opens.
  const std::string& writer_path() const { return writer_path_; }
  // The save file for the package's traced nodes (`trace.nodes`, every node when empty).
  void WriteSaveFile(const sysc::Package& pkg, const TraceRequest& trace);
  // `fst_reads_back`: the package's CloseTrace(). Converts to VCD when asked, then renames.
  void Commit(bool fst_reads_back);

 private:
  std::unique_ptr<OutputFile> wave_, save_, filter_;
  std::string writer_path_;
  bool vcd_ = false;
};

// Refuses a waveform from a model that has none, and traced nodes the package does not have.
void CheckTraceRequest(const TraceRequest& trace, sysc::NodeImpl impl, const std::string& model,
                       unsigned num_nodes);
// --trace-nodes choose what --trace records, --trace-from and --trace-to what --trace and
// --timeline record: refused without them, or as an empty window.
void CheckTraceWindow(const TraceRequest& trace);
// --trace-nodes: "all" (every node) or ids like 0,5,6, each once.
std::vector<unsigned> ParseTraceNodes(const std::string& s);

// Chrome / Perfetto trace-event JSON (the "JSON Array/Object Format"): complete events ("X")
// on named processes and threads, times in microseconds (1 cycle = 1 ns at 1 GHz).
class Timeline {
 public:
  // A track: process `process` (created on first use, in order), thread `thread` in it.
  struct Track {
    unsigned pid, tid;
  };
  Track TrackOf(const std::string& process, const std::string& thread);
  // A slice [start, end) in ns; slices on one track that overlap move to a further track of
  // the same name ("name #2"), so every track nests properly.
  void Slice(const std::string& process, const std::string& thread, const std::string& name,
             double start_ns, double end_ns, const std::string& args_json = "");
  // A figure of the run the slices add up to (written in "otherData.totals").
  void Total(const std::string& key, uint64_t value);
  void Total(const std::string& key, double value);
  std::string Json() const;
  size_t size() const { return events_.size(); }

 private:
  struct Event {
    unsigned pid, tid;
    std::string name, args;
    double start, end;
  };
  std::vector<std::string> processes_;
  std::vector<std::vector<std::string>> threads_;             // per process
  std::vector<std::vector<std::vector<double>>> ends_;        // per process, thread: lanes' ends
  std::vector<std::vector<std::vector<unsigned>>> lane_tid_;  // per process, thread: lanes' tids
  std::vector<std::string> tid_names_;                        // by global tid
  std::vector<unsigned> tid_pid_;
  std::vector<Event> events_;
  std::vector<std::pair<std::string, std::string>> totals_;  // key, JSON value
};

// The flit events of a run on a timeline: per link direction a track with each flit's hop (one
// cycle), per node its injections and ejections per router port; and the totals that say which
// flits it holds (flit_window_from and _to with a window, flit_slices_cut when it holds fewer).
void AddFlitSlices(Timeline& t, const FlitRecorder& rec, const TraceRequest& trace);

}  // namespace aries::sim

#endif  // ARIES_SIM_RUNS_TRACE_OUTPUTS_H_
