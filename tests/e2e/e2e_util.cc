#include "tests/e2e/e2e_util.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <set>
#include <stdexcept>

#ifndef AQESIM_BINARY
#define AQESIM_BINARY "aqesim"
#endif
#ifndef AQESIM_SOURCE_DIR
#define AQESIM_SOURCE_DIR "."
#endif

namespace aqesim::e2e {

std::string BinaryPath() { return AQESIM_BINARY; }

std::string SourcePath(const std::string& relative) {
  return std::string(AQESIM_SOURCE_DIR) + "/" + relative;
}

CommandResult RunAqesim(const std::vector<std::string>& args,
                        const std::map<std::string, std::optional<std::string>>& env) {
  CommandResult result;
  // The child's environment: this process's, changed by `env` (built before fork).
  std::vector<std::string> env_storage;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (env.count(entry.substr(0, entry.find('='))) == 0) env_storage.push_back(entry);
  }
  for (const auto& [name, value] : env) {
    if (value) env_storage.push_back(name + "=" + *value);
  }
  std::vector<char*> envp;
  for (std::string& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0) return result;
  if (pipe(err_pipe) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return result;
  }
  const std::string binary = BinaryPath();
  std::vector<std::string> argv_storage;
  argv_storage.push_back(binary);
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return result;
  }
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  // Drain both pipes together so that a chatty stderr cannot block the child.
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.stdout_text, &result.stderr_text};
  int open_fds = 2;
  char buf[1 << 16];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof(buf));
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

nlohmann::json Explain(const std::string& scenario_relative_path, const std::vector<std::string>& confs) {
  std::vector<std::string> args = {"explain", SourcePath(scenario_relative_path)};
  for (const std::string& c : confs) {
    args.push_back("--conf");
    args.push_back(c);
  }
  const CommandResult r = RunAqesim(args);
  if (r.exit_code != 0) {
    throw std::runtime_error("aqesim explain " + scenario_relative_path + " exited with " +
                             std::to_string(r.exit_code) + ": " + r.stderr_text);
  }
  nlohmann::json doc = nlohmann::json::parse(r.stdout_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    throw std::runtime_error("aqesim explain " + scenario_relative_path +
                             " printed no JSON object: " + r.stdout_text.substr(0, 200));
  }
  return doc;
}

namespace {

const nlohmann::json& FindById(const nlohmann::json& explain, const char* list, const std::string& id) {
  for (const nlohmann::json& e : explain.at(list))
    if (e.at("id") == id) return e;
  throw std::runtime_error(std::string("explain has no ") + list + " entry with id " + id);
}

}  // namespace

const nlohmann::json& ExchangeById(const nlohmann::json& explain, const std::string& id) {
  return FindById(explain, "exchanges", id);
}

const nlohmann::json& JoinById(const nlohmann::json& explain, const std::string& id) {
  return FindById(explain, "joins", id);
}

const nlohmann::json& ReadSpecsOf(const nlohmann::json& explain, const std::string& exchange_id) {
  const nlohmann::json* found = nullptr;
  for (const nlohmann::json& r : explain.at("reads"))
    if (r.at("exchange") == exchange_id) found = &r.at("specs");
  if (!found) throw std::runtime_error("explain has no read of exchange " + exchange_id);
  return *found;
}

std::vector<nlohmann::json> DecisionsOf(const nlohmann::json& explain, const std::string& rule) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& d : explain.at("decisions"))
    if (d.at("rule") == rule) out.push_back(d);
  return out;
}

int CountSpecs(const nlohmann::json& specs, const std::string& type) {
  return static_cast<int>(std::count_if(specs.begin(), specs.end(),
                                        [&](const nlohmann::json& s) { return s.at("type") == type; }));
}

std::vector<int> SplitReducers(const nlohmann::json& specs) {
  std::set<int> reducers;
  for (const nlohmann::json& s : specs)
    if (s.at("type") == "PartialReducerPartitionSpec") reducers.insert(s.at("reducerIndex").get<int>());
  return {reducers.begin(), reducers.end()};
}

std::vector<int> SplitStartsOf(const nlohmann::json& specs, int reducer) {
  std::set<int> starts;
  for (const nlohmann::json& s : specs)
    if (s.at("type") == "PartialReducerPartitionSpec" && s.at("reducerIndex") == reducer)
      starts.insert(s.at("startMapIndex").get<int>());
  return {starts.begin(), starts.end()};
}

std::vector<std::vector<int>> CoalescedRanges(const nlohmann::json& specs) {
  std::vector<std::vector<int>> out;
  for (const nlohmann::json& s : specs)
    if (s.at("type") == "CoalescedPartitionSpec")
      out.push_back({s.at("startReducerIndex").get<int>(), s.at("endReducerIndex").get<int>()});
  return out;
}

std::vector<int64_t> SpecDataSizes(const nlohmann::json& specs) {
  std::vector<int64_t> out;
  for (const nlohmann::json& s : specs) out.push_back(s.value("dataSize", int64_t{0}));
  return out;
}

}  // namespace aqesim::e2e
