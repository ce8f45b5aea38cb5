// Baked morph animation posed on the CPU (FrameMorphJob, posePackage): VAT and target-delta
// packages against the glTF oracle's own morph formula, LODs, half floats and frame blends.
#include "throng/crowd/frame_morph.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "offline/gltf_builder.h"
#include "offline/gltf_reference.h"
#include "support/test_support.h"
#include "throng/crowd/lod_pose.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"

namespace throng {
namespace {

using nlohmann::json;

// Largest distance between LOD 0 of `package` posed at every baked frame (posePackage) and the
// oracle's vertices of the file at the same clip time.
float errorAgainstOracle(const Package& package, const Character& character,
                         const std::string& path) {
  tinygltf::Model model;
  EXPECT_TRUE(test::loadTinyGltf(path, model));
  float worst = 0.0f;
  for (const BakedClip& baked : package.clips) {
    const int a = character.findClip(baked.name);
    const Clip& clip = character.clips.at(static_cast<size_t>(a));
    for (uint32_t i = 0; i < baked.frame_count; ++i) {
      const float t = static_cast<float>(i) / baked.fps;
      Result<LodPose> posed = posePackage(package, {baked.name, t, 0}, path);
      EXPECT_TRUE(posed.ok()) << posed.status().toString();
      if (!posed.ok()) return INFINITY;
      const float time = std::min(clip.start_time + t, clip.end_time);
      worst = std::max(
          worst, test::maxDistance(test::referencePositions(model, a, time), posed->positions));
    }
  }
  return worst;
}

uint64_t morphBytes(const Package& p) {
  uint64_t bytes = 0;
  for (const VertexTexture& t : p.morph.lods) bytes += t.byteSize();
  return bytes;
}

// A shared asset baked at 30 fps in `format`: its pose error against the oracle and VAT bytes.
void expectAssetBakes(const char* relative, MorphBakeKind kind) {
  const std::string path = test::assetPath(relative).string();
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  BakeOptions options;
  options.source = path;
  BakeReport report;
  Result<Package> p = bakeCharacter(*c, options, &report);
  ASSERT_TRUE(p.ok()) << p.status().toString();
  EXPECT_EQ(p->morph.kind, kind);
  EXPECT_EQ(report.morph.kind, kind);
  EXPECT_EQ(report.morph.texel_bytes, morphBytes(*p));
  const float error = errorAgainstOracle(*p, *c, path);
  EXPECT_LT(error, 1e-5f * c->size()) << relative;
  // Half floats: within the palette's and the morph texture's reported bounds.
  options.format = TexelFormat::kRgba16F;
  BakeReport report16;
  Result<Package> p16 = bakeCharacter(*c, options, &report16);
  ASSERT_TRUE(p16.ok()) << p16.status().toString();
  const float error16 = errorAgainstOracle(*p16, *c, path);
  EXPECT_LE(error16, report16.max_error + report16.morph.max_error + 1e-5f * c->size());
  EXPECT_GT(report16.morph.max_error, 0.0f);
  std::printf(
      "%s: %s, pose error against the oracle %.3g (rgba32f) / %.3g (rgba16f, reported bound "
      "%.3g) model units, size %.3g; morph texels %llu bytes (rgba32f), %llu (rgba16f)\n",
      relative, morphBakeKindName(kind), static_cast<double>(error), static_cast<double>(error16),
      static_cast<double>(report16.morph.max_error), static_cast<double>(c->size()),
      static_cast<unsigned long long>(morphBytes(*p)),
      static_cast<unsigned long long>(morphBytes(*p16)));
}

TEST(FrameMorphAssets, AnimatedMorphCubeBakesToVertexFrames) {
  THRONG_REQUIRE_ASSET("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb");
  expectAssetBakes("feature-tests/AnimatedMorphCube/AnimatedMorphCube.glb",
                   MorphBakeKind::kVertexFrames);
}

TEST(FrameMorphAssets, MorphStressTestBakesEveryClip) {
  THRONG_REQUIRE_ASSET("feature-tests/MorphStressTest/MorphStressTest.glb");
  const std::string path =
      test::assetPath("feature-tests/MorphStressTest/MorphStressTest.glb").string();
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok());
  expectAssetBakes("feature-tests/MorphStressTest/MorphStressTest.glb", chooseMorphBakeKind(*c));
}

class FrameMorphFiles : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = test::makeTempDir("frame-morph"); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

// A skinned two-bone quad whose upper edge a target raises while the child joint turns.
TEST_F(FrameMorphFiles, SkinnedMorphBakesToTargetDeltas) {
  test::TwoBoneFile file;
  const int up = file.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0.5f, 0, 0.5f, 0.5f, 0}, "VEC3");
  const int unused = file.gltf.addFloats({1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0}, "VEC3");
  file.primitive()["targets"] = json::array({{{"POSITION", unused}}, {{"POSITION", up}}});
  // The upper edge blends both joints: a true skin (a mesh of rigid parts would bake to VAT).
  test::blendUpperEdge(file);
  test::addBendAnimation(file, {0.0f, 0.0f, 0.0f, 1.0f});
  const std::string path = file.gltf.write(dir_, "bend.gltf");
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  BakeReport report;
  Result<Package> p = bakeCharacter(*c, BakeOptions{}, &report);
  ASSERT_TRUE(p.ok()) << p.status().toString();
  ASSERT_EQ(p->morph.kind, MorphBakeKind::kTargetDeltas);
  // Target 0 never has a weight: only target 1 is in the texture the shader loops over.
  EXPECT_EQ(p->morph.targets, std::vector<std::string>{"target1"});
  EXPECT_EQ(report.morph.targets, 2u);
  EXPECT_EQ(report.morph.active_targets, 1u);
  EXPECT_EQ(p->morph.lods[0].block_count, 1u);
  EXPECT_LT(errorAgainstOracle(*p, *c, path), 1e-5f);
}

// A 24 x 24 grid on an unskinned node whose two targets ripple it: enough triangles for LODs.
std::string writeRippleGrid(const std::filesystem::path& dir) {
  test::GltfBuilder gltf;
  constexpr int kSide = 24;
  std::vector<float> positions, wave, tilt;
  std::vector<uint32_t> indices;
  for (int y = 0; y <= kSide; ++y) {
    for (int x = 0; x <= kSide; ++x) {
      const float u = static_cast<float>(x) / kSide, v = static_cast<float>(y) / kSide;
      positions.insert(positions.end(), {u, v, 0.0f});
      wave.insert(wave.end(), {0.0f, 0.0f, 0.1f * std::sin(6.2831853f * u)});
      tilt.insert(tilt.end(), {0.0f, 0.0f, 0.2f * v});
    }
  }
  for (int y = 0; y < kSide; ++y) {
    for (int x = 0; x < kSide; ++x) {
      const uint32_t a = static_cast<uint32_t>(y * (kSide + 1) + x), b = a + 1, c = a + kSide + 1,
                     d = c + 1;
      indices.insert(indices.end(), {a, b, c, c, b, d});
    }
  }
  const int pos = gltf.addFloats(positions, "VEC3");
  const int wave_acc = gltf.addFloats(wave, "VEC3");
  const int tilt_acc = gltf.addFloats(tilt, "VEC3");
  const int idx = gltf.add(indices, 5125, "SCALAR");
  gltf.json["meshes"] =
      json::array({{{"primitives",
                     {{{"attributes", {{"POSITION", pos}}},
                       {"indices", idx},
                       {"targets", {{{"POSITION", wave_acc}}, {{"POSITION", tilt_acc}}}}}}}}});
  gltf.addNode({{"name", "grid"}, {"mesh", 0}});
  gltf.json["scenes"][0]["nodes"] = {0};
  const int times = gltf.addFloats({0.0f, 0.5f, 1.0f}, "SCALAR");
  const int weights = gltf.addFloats({0, 0, 1, 0.5f, 0, 1}, "SCALAR");
  gltf.json["animations"] = json::array(
      {{{"name", "ripple"},
        {"samplers", {{{"input", times}, {"output", weights}}}},
        {"channels", {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "weights"}}}}}}}});
  return gltf.write(dir, "ripple.gltf");
}

TEST_F(FrameMorphFiles, EachLodHoldsItsOwnVerticesAndPosesAsItsKeyframes) {
  const std::string path = writeRippleGrid(dir_);
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  Result<Package> p = bakeCharacter(*c, BakeOptions{});
  ASSERT_TRUE(p.ok()) << p.status().toString();
  Result<std::vector<MeshLod>> lods = buildLodChain(*c, defaultLodChainOptions());
  ASSERT_TRUE(lods.ok()) << lods.status().toString();
  ASSERT_GT(lods->size(), 1u);
  const std::vector<MeshLod> chain = *lods;  // with their vertices' targets, for poseCharacter
  p->lods = std::move(lods).value();
  EXPECT_FALSE(validatePackage(*p, path).ok());  // targets not baked yet: refused
  ASSERT_TRUE(bakeMorphAnimation(*c, *p, 4096).ok());
  ASSERT_TRUE(validatePackage(*p, path).ok());
  ASSERT_EQ(p->morph.lods.size(), p->lods.size());
  const BakedClip& baked = p->clips[0];
  for (size_t l = 0; l < p->lods.size(); ++l) {
    EXPECT_EQ(p->morph.lods[l].vertex_count, p->lods[l].mesh.vertexCount()) << l;
    EXPECT_EQ(p->morph.lods[l].block_count, p->animation.frame_count) << l;
    if (l > 0) {
      EXPECT_LT(p->lods[l].mesh.vertexCount(), p->lods[0].mesh.vertexCount());
    }
    for (uint32_t i = 0; i < baked.frame_count; ++i) {
      const float t = static_cast<float>(i) / baked.fps;
      const PoseRequest request{baked.name, t, static_cast<int>(l)};
      Result<LodPose> from_package = posePackage(*p, request, path);
      Result<LodPose> from_keys = poseCharacter(*c, chain, request, path);
      ASSERT_TRUE(from_package.ok() && from_keys.ok());
      EXPECT_LT(test::maxDistance(from_package->positions, from_keys->positions), 1e-5f)
          << "LOD " << l << " frame " << i;
    }
  }
  // The LOD's error is measured on the rippled frames: the flat grid alone simplifies to almost
  // nothing, the rippled one does not.
  EXPECT_GT(p->lods[1].max_error, 0.0f);
}

TEST_F(FrameMorphFiles, FramesBlendAndCrossFadeAsTheShaderDoes) {
  const std::string path = writeRippleGrid(dir_);
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok());
  Result<Package> p = bakeCharacter(*c, BakeOptions{});
  ASSERT_TRUE(p.ok());
  const size_t n = p->lods[0].mesh.vertexCount();
  auto morphAt = [&](const InstanceFrames& frames) {
    std::vector<glm::vec3> positions(n), normals(n);
    EXPECT_TRUE((FrameMorphJob{&*p, 0, frames, positions, normals}.run()));
    return positions;
  };
  auto single = [&](uint32_t f) { return morphAt({{f, f, 0.0f}, {f, f, 0.0f}, 0.0f}); };
  const std::vector<glm::vec3> a = single(3), b = single(4), s = single(10);
  const std::vector<glm::vec3> mid = morphAt({{3, 4, 0.25f}, {0, 0, 0.0f}, 0.0f});
  const std::vector<glm::vec3> faded = morphAt({{3, 4, 0.25f}, {10, 10, 0.0f}, 0.5f});
  for (size_t v = 0; v < n; ++v) {
    const glm::vec3 blended = a[v] * 0.75f + b[v] * 0.25f;
    EXPECT_NEAR(glm::distance(mid[v], blended), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::distance(faded[v], blended * 0.5f + s[v] * 0.5f), 0.0f, 1e-6f);
  }
  // Out-of-range frames are refused, not read.
  std::vector<glm::vec3> positions(n), normals(n);
  const uint32_t past = p->animation.frame_count;
  EXPECT_FALSE(
      (FrameMorphJob{&*p, 0, {{past, 0, 0.0f}, {0, 0, 0.0f}, 0.0f}, positions, normals}.run()));
}

// posePackage and poseCharacter given morph data built by hand that does not fit the LOD (the
// package reader and the importer refuse such data first).
TEST_F(FrameMorphFiles, MorphDataThatDoesNotFitIsRefusedWhenPosing) {
  const std::string path = writeRippleGrid(dir_);
  Result<Character> c = importGltf(path);
  ASSERT_TRUE(c.ok()) << c.status().toString();
  Result<Package> p = bakeCharacter(*c, BakeOptions{});
  ASSERT_TRUE(p.ok()) << p.status().toString();
  ASSERT_TRUE(posePackage(*p, {"ripple", 0.25f, 0}, path).ok());
  p->morph.lods.clear();
  Result<LodPose> from_package = posePackage(*p, {"ripple", 0.25f, 0}, path);
  ASSERT_FALSE(from_package.ok());
  EXPECT_EQ(from_package.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(from_package.status().message(), path + ": the morph animation does not fit LOD 0");

  std::vector<MeshLod> lods(2, MeshLod{c->mesh, {}, 0.0f, 0.0f, 0.0f});
  ASSERT_TRUE(poseCharacter(*c, lods, {"ripple", 0.25f, 1}, path).ok());
  lods[1].mesh.morph_targets[0].positions.pop_back();
  Result<LodPose> from_keys = poseCharacter(*c, lods, {"ripple", 0.25f, 1}, path);
  ASSERT_FALSE(from_keys.ok());
  EXPECT_EQ(from_keys.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(from_keys.status().message(), path + ": the morph targets do not fit the mesh");
}

// A package built by hand is not validated on read: FrameMorphJob refuses every morph texture or
// weight table too short for what run() would read, instead of reading past its end.
TEST_F(FrameMorphFiles, HandBuiltMorphDataThatDoesNotFitIsRefusedByTheJob) {
  const std::string vat_path = writeRippleGrid(dir_);
  Result<Character> creature = importGltf(vat_path);
  ASSERT_TRUE(creature.ok()) << creature.status().toString();
  Result<Package> vat = bakeCharacter(*creature, BakeOptions{});
  ASSERT_TRUE(vat.ok()) << vat.status().toString();
  ASSERT_EQ(vat->morph.kind, MorphBakeKind::kVertexFrames);

  const auto job_runs = [](const Package& package) {
    const size_t n = package.lods[0].mesh.vertexCount();
    std::vector<glm::vec3> positions(n), normals(n);
    const uint32_t last = package.animation.frame_count - 1;
    FrameMorphJob job{&package, 0, {}, positions, normals};
    job.frames.primary = {0, last, 0.5f};
    job.frames.secondary = {last, 0, 0.25f};
    job.frames.fade = 0.5f;
    return job.run();
  };
  ASSERT_TRUE(job_runs(*vat));
  {
    Package p = *vat;  // one frame block fewer than the animation texture's frames
    p.morph.lods[0].block_count -= 1;
    EXPECT_FALSE(job_runs(p));
  }
  {
    Package p = *vat;  // texels cut short: the last vertex's last texel is gone
    VertexTexture& t = p.morph.lods[0];
    t.texels32.resize(t.texelIndex(t.block_count - 1, t.vertex_count - 1, 1) * 4);
    EXPECT_FALSE(job_runs(p));
  }
  {
    Package p = *vat;  // a vertex count that is not the LOD's
    p.morph.lods[0].vertex_count += 1;
    EXPECT_FALSE(job_runs(p));
  }

  test::TwoBoneFile file;
  const int up = file.gltf.addFloats({0, 0, 0, 0, 0, 0, 0, 0.5f, 0, 0.5f, 0.5f, 0}, "VEC3");
  file.primitive()["targets"] = json::array({{{"POSITION", up}}});
  file.primitive()["attributes"]["JOINTS_0"] = file.gltf.add(
      std::vector<uint16_t>{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 5123, "VEC4");
  file.primitive()["attributes"]["WEIGHTS_0"] =
      file.gltf.addFloats({1, 0, 0, 0, 1, 0, 0, 0, 0.75f, 0.25f, 0, 0, 0.75f, 0.25f, 0, 0}, "VEC4");
  test::addBendAnimation(file, {0.0f, 1.0f});
  Result<Character> skinned = importGltf(file.gltf.write(dir_, "bend.gltf"));
  ASSERT_TRUE(skinned.ok()) << skinned.status().toString();
  Result<Package> deltas = bakeCharacter(*skinned, BakeOptions{});
  ASSERT_TRUE(deltas.ok()) << deltas.status().toString();
  ASSERT_EQ(deltas->morph.kind, MorphBakeKind::kTargetDeltas);
  ASSERT_TRUE(job_runs(*deltas));
  {
    Package p = *deltas;  // a weight table one frame short
    p.morph.frame_weights.resize(p.morph.frame_weights.size() - p.morph.targets.size());
    EXPECT_FALSE(job_runs(p));
  }
  {
    Package p = *deltas;  // a target named but without its delta block
    p.morph.targets.push_back("extra");
    p.morph.frame_weights.resize(p.morph.frame_weights.size() + p.animation.frame_count, 1.0f);
    EXPECT_FALSE(job_runs(p));
  }
}

}  // namespace
}  // namespace throng
