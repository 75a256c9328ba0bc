// The run's files (sim/runs/files.h): outputs written aside and renamed into place, paths that
// are not regular files refused untouched, inputs of bounded size, outputs distinct from inputs.
#include "files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "config.h"

namespace aries::sim {
namespace {

namespace fs = std::filesystem;

class FilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("aries_files_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Read(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  }
  // The entries of the folder: no temporaries may be left.
  size_t Entries() const {
    return static_cast<size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

// The message of the ConfigError `f` throws ("" when it throws none).
template <typename F>
std::string Refusal(F f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST_F(FilesTest, OutputAppearsOnlyWhenCommitted) {
  const std::string out = Path("r.json");
  {
    std::ofstream(out) << "old";
    OutputFile f(out, "--json");
    f.stream() << "new";
    EXPECT_EQ(Read(out), "old");  // still the old content while written
    f.Commit();
  }
  EXPECT_EQ(Read(out), "new");
  EXPECT_EQ(Entries(), 1u);
}

TEST_F(FilesTest, UncommittedOutputLeavesThePathAsItWas) {
  const std::string out = Path("r.csv");
  std::ofstream(out) << "kept";
  {
    OutputFile f(out, "--csv");
    f.stream() << "lost";
  }  // (a refusal or an exception before Commit)
  EXPECT_EQ(Read(out), "kept");
  EXPECT_EQ(Entries(), 1u);
}

TEST_F(FilesTest, AppendStartsFromTheFile) {
  const std::string out = Path("sweep.csv");
  std::ofstream(out) << "a\n";
  OutputFile f(out, "--csv", OutputFile::Mode::kAppend);
  f.stream() << "b\n";
  f.Commit();
  EXPECT_EQ(Read(out), "a\nb\n");
}

TEST_F(FilesTest, PathsThatAreNotRegularFilesAreRefusedAndKept) {
  const std::string link = Path("link"), fifo = Path("fifo"), folder = Path("folder");
  std::ofstream(Path("target")) << "target";
  fs::create_symlink(Path("target"), link);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  fs::create_directory(folder);
  EXPECT_NE(Refusal([&] {
              OutputFile f(link, "--json");
            }).find("--json " + link + ": is a symbolic link, not a"),
            std::string::npos);
  EXPECT_NE(Refusal([&] { CheckOutputPath(fifo, "--csv"); }).find("is a FIFO"), std::string::npos);
  EXPECT_NE(Refusal([&] { CheckOutputPath(folder, "--trace"); }).find("is a folder"),
            std::string::npos);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(Read(Path("target")), "target");
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(FilesTest, DeviceIsRefused) {
  // A copy of /dev/null made here (root may make device nodes; otherwise the real one, which
  // is only checked, never written).
  std::string dev = Path("null");
  if (mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) dev = "/dev/null";
  EXPECT_NE(Refusal([&] { CheckOutputPath(dev, "--packet-log"); }).find("is a device"),
            std::string::npos);
  EXPECT_TRUE(fs::is_character_file(dev));
}

TEST_F(FilesTest, MissingOrUnwritableFolderIsRefused) {
  EXPECT_NE(
      Refusal([&] { CheckOutputPath(Path("no/such/x.json"), "--json"); }).find("does not exist"),
      std::string::npos);
  EXPECT_NE(Refusal([&] {
              CheckOutputPath("/proc/x.json", "--json");
            }).find("--json /proc/x.json: cannot create a file in the folder /proc"),
            std::string::npos);
  EXPECT_NE(Refusal([&] { CheckOutputPath("", "--csv"); }).find("allowed a file name"),
            std::string::npos);
}

TEST_F(FilesTest, InputsAreBoundedRegularFiles) {
  const std::string small = Path("in.cfg");
  std::ofstream(small) << std::string(100, 'x');
  EXPECT_EQ(CheckInputFile(small, "config", 100), small);
  EXPECT_NE(Refusal([&] {
              CheckInputFile(small, "config", 99);
            }).find("config '" + small + "': 100 bytes, larger than the 99 bytes"),
            std::string::npos);
  EXPECT_NE(Refusal([&] {
              CheckInputFile(dir_.string(), "--tech", 1 << 20);
            }).find("is a folder, not a regular file"),
            std::string::npos);
  const std::string fifo = Path("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(Refusal([&] { CheckInputFile(fifo, "traffic.trace", 1 << 20); }).find("is a FIFO"),
            std::string::npos);
  const std::string zero = Path("zero");  // a link to a device: followed, then refused
  fs::create_symlink("/dev/zero", zero);
  EXPECT_NE(Refusal([&] { CheckInputFile(zero, "--inputs", 1 << 20); }).find("is a device"),
            std::string::npos);
  EXPECT_EQ(Refusal([&] { CheckInputFile(Path("none"), "coll.costs", 1); }), "");  // its reader's
}

TEST_F(FilesTest, OutputsMustDifferFromInputsAndEachOther) {
  const std::string cfg = Path("j.cfg");
  std::ofstream(cfg) << "package.k = 2\n";
  const std::string via_dot = (dir_ / "." / "j.cfg").string();
  EXPECT_NE(Refusal([&] {
              CheckDistinct({{"--config", cfg}}, {{"--json", via_dot}});
            }).find("--json " + via_dot + ": is the run's input --config " + cfg),
            std::string::npos);
  EXPECT_NE(Refusal([&] {
              CheckDistinct({}, {{"--json", Path("x")}, {"--csv", Path("x")}});
            }).find("the same file"),
            std::string::npos);
  fs::create_hard_link(cfg, Path("hard.cfg"));  // the same file under another name
  EXPECT_NE(Refusal([&] {
              CheckDistinct({{"--config", cfg}}, {{"--csv", Path("hard.cfg")}});
            }),
            "");
  EXPECT_EQ(Refusal([&] { CheckDistinct({{"--config", cfg}}, {{"--csv", Path("o.csv")}}); }), "");
}

TEST(Excerpt, EscapesAndCuts) {
  EXPECT_EQ(Excerpt("abc"), "abc");
  EXPECT_EQ(Excerpt(std::string("a\0b\x7f\n", 5)), "a\\x00b\\x7f\\x0a");
  EXPECT_EQ(Excerpt(std::string(100, 'z'), 10), std::string(10, 'z') + "...");
}

TEST(Printable, EscapesControlBytesAndCutsLongLines) {
  EXPECT_EQ(Printable("a\x01"
                      "b\nc\td"),
            "a\\x01b\nc\\x09d");
  EXPECT_EQ(Printable(std::string(10, 'v') + "\nok", 4), "vvvv... (6 more characters)\nok");
}

}  // namespace
}  // namespace aries::sim
