// Character-level lookups and the skeleton/mesh/clip consistency check.
#include "throng/core/character.h"

#include <charconv>
#include <cmath>

#include <fmt/core.h>

namespace throng {

int Character::findClip(std::string_view name) const {
  for (size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].name == name) return static_cast<int>(i);
  }
  int index = -1;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
  if (ec == std::errc() && end == name.data() + name.size() && index >= 0 &&
      static_cast<size_t>(index) < clips.size()) {
    return index;
  }
  return -1;
}

float Character::size() const {
  return computeBounds(mesh.positions).largestExtent();
}

Status validateCharacter(const Character& character, std::string_view source) {
  const int joints = character.skeleton.jointCount();
  if (Status s = validateMesh(character.mesh, joints, source); !s.ok()) return s;
  // Finite positions can still span more than a float holds; every size, error and distance
  // measured on the character would then overflow.
  if (const Bounds b = computeBounds(character.mesh.positions);
      !character.mesh.positions.empty() && !std::isfinite(b.largestExtent())) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: the mesh spans ({}, {}, {}) .. ({}, {}, {}), more than the "
                              "float range can measure",
                              source, b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z));
  }
  for (const Clip& clip : character.clips) {
    if (Status s = validateClip(clip, joints, source); !s.ok()) return s;
  }
  return {};
}

}  // namespace throng
