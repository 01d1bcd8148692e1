// spark.scheduler.allocation.file: the scheduling pools of spark.scheduler.mode=FAIR as Spark's
// fairscheduler.xml gives them (core/.../scheduler/SchedulableBuilder.scala,
// FairSchedulableBuilder):
//   <allocations>
//     <pool name="etl"><schedulingMode>FAIR</schedulingMode><weight>2</weight>
//       <minShare>4</minShare></pool>
//   </allocations>
// Every <pool> element of the document is read (Spark searches descendants); a child left out
// takes Spark's default (FIFO, weight 1, minShare 0). A value Spark cannot read (a mode other
// than FIFO/FAIR, a weight or minShare that is not an integer >= 0) is a warning naming the
// element, and the default is used, as Spark logs it and goes on; malformed XML, a <pool>
// without a name or a file that cannot be read is an error naming the file (and line).
#ifndef AQESIM_MODELS_SCENARIO_ALLOCATION_FILE_READER_H_
#define AQESIM_MODELS_SCENARIO_ALLOCATION_FILE_READER_H_

#include <map>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "sim/task_scheduler.h"

namespace aqesim {

/// Parses the text of an allocation file (`file` names it in diagnostics) into `pools` by name
/// (a pool named twice: the later one, with a warning).
void ParseAllocationFile(const std::string& file, const std::string& text,
                         std::map<std::string, PoolSpec>* pools, std::vector<Diagnostic>* errors,
                         std::vector<Diagnostic>* warnings);

/// Reads the allocation file `path` (a "file:" URI prefix is dropped) and parses it.
void ReadAllocationFile(const std::string& path, std::map<std::string, PoolSpec>* pools,
                        std::vector<Diagnostic>* errors, std::vector<Diagnostic>* warnings,
                        InputFiles* files = nullptr);

/// The file an allocation-file setting names: "file:" or "file://" dropped; a relative path is
/// taken relative to `dir` when `dir` is not empty.
std::string AllocationFilePath(const std::string& value, const std::string& dir);

}  // namespace aqesim

#endif  // AQESIM_MODELS_SCENARIO_ALLOCATION_FILE_READER_H_
