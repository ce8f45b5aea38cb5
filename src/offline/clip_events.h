// Animation events from a sidecar JSON next to a glTF file (docs/formats.md, "Clip events").
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "throng/core/character.h"
#include "throng/core/status.h"

namespace throng {

// Clip name -> its events (seconds from the clip's start), in file order.
using ClipEventTable = std::vector<std::pair<std::string, std::vector<ClipEvent>>>;

// "dir/Hero.glb" + ".events.json" -> "dir/Hero.events.json" (also for .gltf): a sidecar's path.
std::string sidecarPath(std::string_view gltf_path, std::string_view suffix);
// "dir/Hero.glb" -> "dir/Hero.events.json" (also for .gltf).
std::string clipEventsSidecarPath(std::string_view gltf_path);

// Parses sidecar JSON text: {"events": {"Walk": [{"name": "step", "time": 0.1}, ...], ...}}.
// Errors: kParseError (not JSON, wrong shape) and kInvalidData (empty name, time not a finite
// number >= 0), naming `source` and the clip and event.
Result<ClipEventTable> parseClipEvents(std::string_view json, std::string_view source);

// Adds `table`'s events to the character's clips (matched by exact name), sorted by time.
// Errors: kInvalidArgument for a clip the character lacks (naming its clips), kInvalidData for
// a time past the clip's end; `source` names the table's file.
Status addClipEvents(Character& character, const ClipEventTable& table, std::string_view source);

// Reads `path` (parseClipEvents) and adds its events (addClipEvents). kIoError when unreadable.
Status readClipEvents(const std::string& path, Character& character);

}  // namespace throng
