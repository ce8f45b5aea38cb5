// Animation events from a sidecar JSON: parse, match to clips by name, sort.
#include "offline/clip_events.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "throng/core/file_io.h"

namespace throng {
namespace {

Status parseError(std::string_view source, const std::string& what) {
  return Status(ErrorCode::kParseError, fmt::format("{}: {}", source, what));
}

}  // namespace

std::string clipEventsSidecarPath(std::string_view gltf_path) {
  return sidecarPath(gltf_path, ".events.json");
}

std::string sidecarPath(std::string_view gltf_path, std::string_view suffix) {
  const size_t slash = gltf_path.find_last_of("/\\");
  const size_t dot = gltf_path.rfind('.');
  const bool has_extension =
      dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash);
  return std::string(has_extension ? gltf_path.substr(0, dot) : gltf_path) + std::string(suffix);
}

Result<ClipEventTable> parseClipEvents(std::string_view json, std::string_view source) {
  const nlohmann::json doc = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return parseError(source, "not valid JSON");
  if (!doc.is_object() || !doc.contains("events") || !doc["events"].is_object()) {
    return parseError(source, "expected an object with an \"events\" object (clip name -> list)");
  }
  ClipEventTable table;
  for (const auto& [clip, list] : doc["events"].items()) {
    if (!list.is_array()) {
      return parseError(source, fmt::format("clip '{}': expected a list of events", clip));
    }
    std::vector<ClipEvent> events;
    for (size_t e = 0; e < list.size(); ++e) {
      const nlohmann::json& item = list[e];
      const std::string where = fmt::format("clip '{}' event {}", clip, e);
      if (!item.is_object() || !item.contains("name") || !item["name"].is_string() ||
          !item.contains("time") || !item["time"].is_number()) {
        return parseError(source, where + ": expected {\"name\": string, \"time\": seconds}");
      }
      ClipEvent event{item["name"].get<std::string>(), item["time"].get<float>()};
      if (event.name.empty()) {
        return Status(ErrorCode::kInvalidData, fmt::format("{}: {}: empty name", source, where));
      }
      if (!(std::isfinite(event.time) && event.time >= 0.0f)) {
        return Status(
            ErrorCode::kInvalidData,
            fmt::format("{}: {} ('{}'): time must be seconds >= 0", source, where, event.name));
      }
      events.push_back(std::move(event));
    }
    table.emplace_back(clip, std::move(events));
  }
  return table;
}

Status addClipEvents(Character& character, const ClipEventTable& table, std::string_view source) {
  for (const auto& [clip_name, events] : table) {
    const std::string& name = clip_name;  // clang 14 (emscripten's) captures no bindings
    const auto clip = std::find_if(character.clips.begin(), character.clips.end(),
                                   [&](const Clip& c) { return c.name == name; });
    if (clip == character.clips.end()) {
      std::string names;
      for (const Clip& c : character.clips) names += (names.empty() ? "" : ", ") + c.name;
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}: events for clip '{}', which the character lacks (clips: {})",
                                source, name, names.empty() ? "none" : names));
    }
    clip->events.insert(clip->events.end(), events.begin(), events.end());
    std::stable_sort(clip->events.begin(), clip->events.end(),
                     [](const ClipEvent& a, const ClipEvent& b) { return a.time < b.time; });
    if (Status s = validateClipEvents(clip->events, clip->duration(), source, clip->name);
        !s.ok()) {
      return s;
    }
  }
  return {};
}

Status readClipEvents(const std::string& path, Character& character) {
  Result<std::string> text = readFileBytes(path);
  if (!text.ok()) return text.status();
  Result<ClipEventTable> table = parseClipEvents(*text, path);
  if (!table.ok()) return table.status();
  return addClipEvents(character, *table, path);
}

}  // namespace throng
