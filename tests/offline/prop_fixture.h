// Test helper: a box prop in a glTF file of its own, on a node that moves and scales it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace throng::test {

// The prop file's node places its box: scaled kPropNodeScale, moved up by kPropNodeTranslation.
inline const glm::vec3 kPropNodeTranslation(0.0f, 0.1f, 0.0f);
inline constexpr float kPropNodeScale = 2.0f;

// The box's 8 corners in its mesh's own space (half sizes 0.05, 0.08, 0.03; 12 triangles).
std::vector<glm::vec3> propBoxCorners();

// Writes the box as dir/name (.gltf); `color` (RGBA, when given) gives it a material of that
// base colour, else it has none. Returns the file's path.
std::string writePropBox(const std::filesystem::path& dir, const std::string& name,
                         const float* color = nullptr);

}  // namespace throng::test
