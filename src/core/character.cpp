// Character-level lookups and the skeleton/mesh/clip consistency check.
#include "throng/core/character.h"

#include <charconv>

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
  for (const Clip& clip : character.clips) {
    if (Status s = validateClip(clip, joints, source); !s.ok()) return s;
  }
  return {};
}

}  // namespace throng
