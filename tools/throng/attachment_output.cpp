// Props and masks of a package as JSON for the CLI's reports.
#include "attachment_output.h"

#include "throng/offline/package_info.h"

namespace throng::cli {

nlohmann::ordered_json propsJson(const Package& package) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const PropSummary& prop : summarizeProps(package)) {
    out.push_back({{"name", prop.name},
                   {"joint", prop.joint},
                   {"source", prop.source},
                   {"triangles", prop.triangles}});
  }
  return out;
}

nlohmann::ordered_json masksJson(const Package& package) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const MaskSummary& mask : summarizeMasks(package)) {
    out.push_back({{"name", mask.name}, {"root", mask.root}, {"joints", mask.joints}});
  }
  return out;
}

}  // namespace throng::cli
