// The character's tangents once its materials are known (file TANGENT, else MikkTSpace rules).
#include "offline/gltf_read_tangents.h"

#include <algorithm>

#include <fmt/core.h>

#include "throng/offline/tangents.h"

namespace throng::gltf {

Status finishTangents(Document& doc, SkinnedMesh& mesh, const std::vector<Material>& materials,
                      bool always) {
  const bool normal_textures =
      std::any_of(materials.begin(), materials.end(),
                  [](const Material& m) { return m.normal_texture.present(); });
  const bool from_file = !mesh.tangents.empty();
  if (!always && !normal_textures && !from_file) return {};
  // readMesh leaves w = 0 where the file gave no tangent.
  std::vector<uint8_t> keep(from_file ? mesh.vertexCount() : 0);
  for (size_t v = 0; v < keep.size(); ++v) keep[v] = mesh.tangents[v].w != 0.0f ? 1 : 0;
  if (from_file && std::all_of(keep.begin(), keep.end(), [](uint8_t k) { return k != 0; })) {
    mesh.tangent_source = TangentSource::kFile;
    return {};
  }
  TangentOptions options;
  options.keep = keep;
  Result<TangentReport> report = generateTangents(mesh, materials, options);
  if (!report.ok()) return Status(report.status().code(), place(doc, report.status().message()));
  std::string note =
      fmt::format("tangents generated (MikkTSpace rules) for {} vertices{}", report->generated,
                  from_file         ? " whose primitives have no usable TANGENT"
                  : normal_textures ? " (a material has a normal texture, the file "
                                      "has no TANGENT)"
                                    : "");
  if (report->split > 0) {
    note += fmt::format(
        "; {} vertices added where one vertex's tangents differ (mirrored uvs, "
        "disconnected fans)",
        report->split);
  }
  if (report->fallback > 0) {
    note += fmt::format("; {} vertices without uv area took a direction orthogonal to their normal",
                        report->fallback);
  }
  warn(doc, WarningKind::kTangentsGenerated, note, fmt::format("{} vertices", report->generated))
      .with("vertices", report->generated)
      .with("added", report->split)
      .with("without_uv_area", report->fallback);
  return {};
}

}  // namespace throng::gltf
