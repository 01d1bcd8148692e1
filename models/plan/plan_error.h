// PlanError: the scenario's plan cannot be executed as given.
#ifndef AQESIM_MODELS_PLAN_PLAN_ERROR_H_
#define AQESIM_MODELS_PLAN_PLAN_ERROR_H_

#include <stdexcept>
#include <string>
#include <utility>

namespace aqesim {

/// Thrown when the scenario's plan cannot be executed as given (e.g. join sides with
/// different partition counts); `pointer` names the node. what() is "POINTER: MESSAGE".
struct PlanError : std::runtime_error {
  PlanError(std::string where, std::string text)
      : std::runtime_error(where + ": " + text), pointer(std::move(where)), message(std::move(text)) {}
  std::string pointer;
  std::string message;
};

}  // namespace aqesim

#endif  // AQESIM_MODELS_PLAN_PLAN_ERROR_H_
