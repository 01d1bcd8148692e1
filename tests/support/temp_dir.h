// TempDir: a scratch folder for one test, under the system temp dir, removed (with what the
// test wrote there) by the destructor.
#ifndef AQESIM_TESTS_SUPPORT_TEMP_DIR_H_
#define AQESIM_TESTS_SUPPORT_TEMP_DIR_H_

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace aqesim::testing {

class TempDir {
 public:
  /// `prefix` names the folder: PREFIX_PID_N (N counts the folders of this process).
  explicit TempDir(const std::string& prefix = "aqesim_test") {
    static int counter = 0;
    path_ = (std::filesystem::temp_directory_path() /
             (prefix + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++)))
                .string();
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Writes `text` (bytes as given) to PATH/name, creating folders in `name`; returns the path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string p = path_ + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  /// PATH/name, not created.
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace aqesim::testing

#endif  // AQESIM_TESTS_SUPPORT_TEMP_DIR_H_
