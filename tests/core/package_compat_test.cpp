// The package format's compatibility rule (docs/formats.md, "Compatibility"): a package of every
// format version from kOldestReadablePackageVersion on, made by the throng of its day and kept in
// tests/core/data/packages, is read with what it held then; versions 1 and 2 are refused.
#include <filesystem>
#include <string>

#include <fmt/core.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/package_sections.h"
#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"

namespace throng {
namespace {

namespace fs = std::filesystem;

fs::path dataDir() {
  return fs::path(THRONG_SOURCE_DIR) / "tests" / "core" / "data" / "packages";
}

fs::path keptPackage(uint32_t version) {
  return dataDir() / fmt::format("sample-v{}.throng", version);
}

TEST(PackageCompatibility, EveryVersionFromTheOldestReadableIsKept) {
  for (uint32_t version = kOldestReadablePackageVersion; version <= kPackageVersion; ++version) {
    EXPECT_TRUE(fs::exists(keptPackage(version)))
        << keptPackage(version) << " is missing: make it as its folder's README.md says";
  }
}

// What `throng inspect --json` said of each kept package when it was made (the .json beside it).
void expectAsDescribed(const fs::path& path, const Package& p, const nlohmann::json& d) {
  SCOPED_TRACE(path.string());
  EXPECT_EQ(p.source, d["source"].get<std::string>());
  EXPECT_EQ(p.skeleton.jointCount(), d["joints"].get<int>());
  const float height = computeBounds(p.lods[0].mesh.positions).largestExtent();
  EXPECT_FLOAT_EQ(height, d["height"].get<float>());
  // From format version 6 on the rows say their kind; an impostor is the last one (none before).
  size_t mesh_rows = 0;
  for (const nlohmann::json& row : d["lods"]) mesh_rows += row.value("kind", "mesh") == "mesh";
  ASSERT_EQ(p.lods.size(), mesh_rows);
  ASSERT_EQ(p.impostor.empty() ? mesh_rows : mesh_rows + 1, d["lods"].size());
  if (!p.impostor.empty()) {
    const nlohmann::json& row = d["lods"].back();
    EXPECT_EQ(row["kind"].get<std::string>(), "impostor");
    EXPECT_EQ(p.impostor.azimuths, row["views"]["azimuths"].get<uint32_t>());
    EXPECT_EQ(p.impostor.elevations, row["views"]["elevations"].get<uint32_t>());
    EXPECT_EQ(p.impostor.clip_frames, row["frames_per_clip"].get<std::vector<uint32_t>>());
    EXPECT_EQ(p.impostor.byteSize(), row["atlas"]["bytes"].get<uint64_t>());
    EXPECT_FLOAT_EQ(p.impostor.max_error / height, row["max_error"].get<float>());
  }
  for (size_t l = 0; l < p.lods.size(); ++l) {
    const MeshLod& lod = p.lods[l];
    const nlohmann::json& row = d["lods"][l];
    EXPECT_EQ(lod.mesh.triangleCount(), row["triangles"].get<size_t>()) << "LOD " << l;
    EXPECT_EQ(lod.mesh.vertexCount(), row["vertices"].get<size_t>()) << "LOD " << l;
    EXPECT_EQ(lod.mesh.submeshes.size(), row["sub_meshes"].get<size_t>()) << "LOD " << l;
    const size_t joints = lod.palette_joints.empty() ? static_cast<size_t>(p.skeleton.jointCount())
                                                     : lod.palette_joints.size();
    EXPECT_EQ(joints, row["joints"].get<size_t>()) << "LOD " << l;
    EXPECT_FLOAT_EQ(lod.max_error / height, row["max_error"].get<float>()) << "LOD " << l;
    EXPECT_FLOAT_EQ(lod.max_distance, row["max_distance"].get<float>()) << "LOD " << l;
  }
  ASSERT_EQ(p.clips.size(), d["clips"].size());
  for (size_t c = 0; c < p.clips.size(); ++c) {
    const BakedClip& clip = p.clips[c];
    const nlohmann::json& row = d["clips"][c];
    EXPECT_EQ(clip.name, row["name"].get<std::string>());
    EXPECT_EQ(clip.frame_count, row["frames"].get<uint32_t>()) << clip.name;
    EXPECT_FLOAT_EQ(clip.fps, row["fps"].get<float>()) << clip.name;
    EXPECT_FLOAT_EQ(clip.duration, row["duration"].get<float>()) << clip.name;
    EXPECT_EQ(clip.loop, row["loop"].get<bool>()) << clip.name;
  }
  // Props and masks: described from format version 5 on (the sample has masks, no props).
  const nlohmann::json none = nlohmann::json::array();
  const nlohmann::json& props = d.contains("props") ? d["props"] : none;
  ASSERT_EQ(p.attachments.size(), props.size());
  for (size_t a = 0; a < p.attachments.size(); ++a) {
    EXPECT_EQ(p.attachments[a].name, props[a]["name"].get<std::string>());
    EXPECT_EQ(p.skeleton.names()[p.attachments[a].joint], props[a]["joint"].get<std::string>());
  }
  const nlohmann::json& masks = d.contains("masks") ? d["masks"] : none;
  ASSERT_EQ(p.masks.size(), masks.size());
  for (size_t m = 0; m < p.masks.size(); ++m) {
    EXPECT_EQ(p.masks[m].name, masks[m]["name"].get<std::string>());
    EXPECT_EQ(p.skeleton.names()[p.masks[m].root], masks[m]["root"].get<std::string>());
  }
  const nlohmann::json& t = d["texture"];
  EXPECT_EQ(p.animation.width, t["width"].get<uint32_t>());
  EXPECT_EQ(p.animation.height, t["height"].get<uint32_t>());
  EXPECT_EQ(p.animation.frame_count, t["frames"].get<uint32_t>());
  EXPECT_EQ(p.animation.format == TexelFormat::kRgba32F ? "rgba32f" : "rgba16f",
            t["format"].get<std::string>());
}

// The sample's looks, read from a package of `version`: version 3 gets the documented defaults
// (kVersion3MetallicFactor, kVersion3RoughnessFactor), version 4 what the sample's materials
// say (matte); neither has textures or tangents.
void expectSampleLooks(const Package& p, uint32_t version) {
  SCOPED_TRACE(fmt::format("version {}", version));
  ASSERT_EQ(p.materials.size(), 3u);
  for (const Material& m : p.materials) {
    EXPECT_EQ(m.metallic_factor, version == 3 ? kVersion3MetallicFactor : 0.0f) << m.name;
    EXPECT_EQ(m.roughness_factor, version == 3 ? kVersion3RoughnessFactor : 1.0f) << m.name;
    EXPECT_EQ(m.emissive_factor, glm::vec3(0.0f)) << m.name;
    for (int slot = 0; slot < kTextureSlotCount; ++slot) {
      EXPECT_FALSE(m.texture(static_cast<TextureSlot>(slot)).present()) << m.name;
    }
  }
  for (const MeshLod& lod : p.lods) {
    EXPECT_TRUE(lod.mesh.tangents.empty());
    EXPECT_EQ(lod.mesh.tangent_source, TangentSource::kNone);
  }
}

TEST(PackageCompatibility, EveryKeptVersionIsReadWithWhatItHeldWhenMade) {
  int read = 0;
  for (const auto& entry : fs::directory_iterator(dataDir())) {
    if (entry.path().extension() != ".throng") continue;
    const std::string bytes = test::readFile(entry.path());
    const uint32_t version = test::readAt<uint32_t>(bytes, 8);
    EXPECT_EQ(entry.path().filename(), keptPackage(version).filename()) << "misnamed";
    Result<Package> package = readPackage(entry.path().string());
    ASSERT_TRUE(package.ok()) << package.status().toString();
    fs::path description = entry.path();
    description.replace_extension(".json");
    const nlohmann::json d = nlohmann::json::parse(test::readFile(description));
    EXPECT_EQ(d["format_version"].get<uint32_t>(), version) << description;
    expectAsDescribed(entry.path(), *package, d);
    expectSampleLooks(*package, version);
    ++read;
  }
  EXPECT_EQ(read, static_cast<int>(kPackageVersion - kOldestReadablePackageVersion + 1));
}

TEST(PackageCompatibility, VersionsOneAndTwoAreRefusedInOneLine) {
  // The header is all a reader looks at before refusing: a kept package claiming version 1 or 2
  // is what a package of those versions looks like to it.
  std::string bytes = test::readFile(keptPackage(kOldestReadablePackageVersion));
  for (uint32_t version : {1u, 2u}) {
    test::writeAt<uint32_t>(bytes, 8, version);
    const Result<Package> r = parsePackage(test::asBytes(bytes), "old.throng");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kVersionMismatch);
    EXPECT_EQ(r.status().message(),
              fmt::format("old.throng: package format version {} is no longer read (this throng "
                          "reads versions {} to {}): bake the package again",
                          version, kOldestReadablePackageVersion, kPackageVersion));
  }
}

}  // namespace
}  // namespace throng
