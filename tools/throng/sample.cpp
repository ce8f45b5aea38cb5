// `throng sample -o sample.glb [--humanoid | --pbr | --prop]`: writes a built-in character (the
// sample, the benchmark humanoid or the sample with PBR textures) or a small prop for
// `bake --attach`, as glTF.
#include <array>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "command.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/sample_character.h"

namespace throng::cli {
namespace {

// The prop: a club 0.5 units long along +Y from its origin (the end a hand holds), 0.05 thick,
// 12 triangles of one wood-brown material: what `bake --attach hand.R=club.gltf` carries.
constexpr float kClubLength = 0.5f;
constexpr float kClubHalfWidth = 0.025f;

// Base64 of `bytes` (RFC 4648, padded): the glTF's buffer as a data URI, one file to write.
std::string base64(const std::vector<unsigned char>& bytes) {
  static constexpr char kDigits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const uint32_t n = uint32_t{bytes[i]} << 16 |
                       (i + 1 < bytes.size() ? uint32_t{bytes[i + 1]} << 8 : 0u) |
                       (i + 2 < bytes.size() ? uint32_t{bytes[i + 2]} : 0u);
    out += kDigits[(n >> 18) & 63];
    out += kDigits[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

Status writeClub(const std::string& path) {
  std::vector<float> positions;
  for (int i = 0; i < 8; ++i) {
    positions.insert(positions.end(),
                     {i & 1 ? kClubHalfWidth : -kClubHalfWidth, i & 2 ? kClubLength : 0.0f,
                      i & 4 ? kClubHalfWidth : -kClubHalfWidth});
  }
  const std::array<uint16_t, 36> indices = {0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1,
                                            2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 5, 7, 1, 7, 3};
  std::vector<unsigned char> bytes(positions.size() * 4 + indices.size() * 2);
  std::memcpy(bytes.data(), positions.data(), positions.size() * 4);
  std::memcpy(bytes.data() + positions.size() * 4, indices.data(), indices.size() * 2);
  const size_t position_bytes = positions.size() * 4;
  nlohmann::ordered_json gltf = {
      {"asset", {{"version", "2.0"}, {"generator", "throng sample --prop"}}},
      {"scene", 0},
      {"scenes", {{{"nodes", {0}}}}},
      {"nodes", {{{"name", "club"}, {"mesh", 0}}}},
      {"meshes",
       {{{"primitives", {{{"attributes", {{"POSITION", 0}}}, {"indices", 1}, {"material", 0}}}}}}},
      {"materials",
       {{{"name", "wood"},
         {"pbrMetallicRoughness",
          {{"baseColorFactor", {0.35, 0.12, 0.04, 1.0}}, {"metallicFactor", 0.0}}}}}},
      {"buffers",
       {{{"byteLength", bytes.size()},
         {"uri", "data:application/octet-stream;base64," + base64(bytes)}}}},
      {"bufferViews",
       {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", position_bytes}},
        {{"buffer", 0}, {"byteOffset", position_bytes}, {"byteLength", indices.size() * 2}}}},
      {"accessors",
       {{{"bufferView", 0},
         {"componentType", 5126},
         {"count", 8},
         {"type", "VEC3"},
         {"min", {-kClubHalfWidth, 0.0f, -kClubHalfWidth}},
         {"max", {kClubHalfWidth, kClubLength, kClubHalfWidth}}},
        {{"bufferView", 1},
         {"componentType", 5123},
         {"count", indices.size()},
         {"type", "SCALAR"}}}},
  };
  std::ofstream out(path);
  out << gltf.dump(1) << "\n";
  if (!out) return Status(ErrorCode::kIoError, path + ": cannot write the prop");
  return Status::okStatus();
}

std::function<int()> setupSample(CLI::App& sub) {
  auto output = std::make_shared<std::string>("sample.glb");
  auto humanoid = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  auto prop = std::make_shared<bool>(false);
  auto pbr = std::make_shared<bool>(false);
  sub.add_option("-o,--out", *output, "the .glb (or .gltf) file to write");
  sub.add_flag("--humanoid", *humanoid,
               "the benchmark humanoid instead (71 joints, every channel keyed at 30 Hz)");
  sub.add_flag("--pbr", *pbr,
               "the sample with procedural PBR textures (normal, metallic-roughness, occlusion, "
               "emissive), written without TANGENT so that importers generate tangents");
  sub.add_flag("--prop", *prop,
               "a prop instead: a club 0.5 long along +Y from its origin, as .gltf, for bake "
               "--attach JOINT=club.gltf");
  sub.add_flag("--json", *json, "print what was written as one JSON object on stdout");
  return [output, humanoid, json, prop, pbr] {
    if (*prop + *humanoid + *pbr > 1) return usageError("--prop, --humanoid and --pbr: choose one");
    if (*prop) {
      if (Status s = writeClub(*output); !s.ok()) return fail(s.message());
      fmt::print("wrote {}: a club prop, 12 triangles\n", *output);
      return 0;
    }
    const Character c = *humanoid ? makeBenchmarkHumanoid()
                        : *pbr    ? makeSamplePbrCharacter()
                                  : makeSampleCharacter();
    // The PBR sample leaves its tangents out, as many exported files do: importing it shows the
    // MikkTSpace generation (and `inspect` says so).
    GltfExportOptions options;
    options.tangents = !*pbr;
    if (Status s = writeGltf(c, *output, options); !s.ok()) return fail(s.message());
    if (*json) {
      nlohmann::ordered_json out;
      out["output"] = *output;
      out["character"] = *humanoid ? "humanoid" : *pbr ? "sample-pbr" : "sample";
      out["joints"] = c.skeleton.jointCount();
      out["vertices"] = c.mesh.vertexCount();
      out["triangles"] = c.mesh.triangleCount();
      out["clips"] = c.clips.size();
      out["materials"] = c.materials.size();
      out["images"] = c.images.size();
      out["warnings"] = nlohmann::ordered_json::array();  // built in: nothing to warn about
      fmt::print("{}\n", out.dump(2));
      return 0;
    }
    fmt::print("wrote {}: {} joints, {} vertices, {} triangles, {} clips{}\n", *output,
               c.skeleton.jointCount(), c.mesh.vertexCount(), c.mesh.triangleCount(),
               c.clips.size(),
               *pbr ? fmt::format(", {} materials, {} images (no TANGENT: importers generate "
                                  "tangents)",
                                  c.materials.size(), c.images.size())
                    : "");
    return 0;
  };
}

[[maybe_unused]] const bool kSampleRegistered = registerCommand(
    {"sample",
     "write the built-in sample character (with --pbr: PBR textures; or the benchmark humanoid) "
     "as .glb",
     setupSample});

}  // namespace
}  // namespace throng::cli
