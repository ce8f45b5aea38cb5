// `throng sample --pbr` then `throng render` of it: the textured sample (tangents generated on
// import) draws the same on two paths, and its normal maps change the picture (normal_map_test.cpp
// checks the shading itself against the CPU reference).
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"
#include "throng/render/capture.h"

namespace throng {
// A named namespace, not an anonymous one: the unity build compiles this file with others.
namespace sample_pbr_cli_test {

// The crowd covers about a tenth of the frame at this view; the normal maps must move a
// noticeable part of it (most of a lit figure's pixels when they work).
constexpr double kMinNormalMapShare = 0.01;

TEST(SamplePbrCli, RendersOnTwoPathsAndItsNormalMapsChangeThePicture) {
  const auto dir = test::makeTempDir("sample-pbr-cli");
  const std::filesystem::path glb = dir / "sample-pbr.glb";
  const test::CliResult written = test::runCli("sample --pbr -o " + test::shellQuoted(glb));
  ASSERT_EQ(written.exit_code, 0) << written.output;

  // The same file without its normal textures (everything else as written).
  Result<Character> flat = importGltf(glb.string());
  ASSERT_TRUE(flat.ok()) << flat.status().toString();
  for (Material& m : flat->materials) m.normal_texture = TextureRef{};
  const std::filesystem::path flat_glb = dir / "flat.glb";
  GltfExportOptions options;
  options.tangents = false;
  ASSERT_TRUE(writeGltf(*flat, flat_glb.string(), options).ok());

  const auto draw = [&](const std::filesystem::path& input, const std::string& path) {
    const auto png = dir / (input.stem().string() + "-" + path + ".png");
    const test::CliResult r = test::runCli(
        "render " + test::shellQuoted(input) +
        " --agents 6 --view street --clip idle --seed 4 --shadows map --width 160 --height 120 "
        "--path " +
        path + " -o " + test::shellQuoted(png));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("path: " + path), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("triangles: 0\n"), std::string::npos) << r.output;
    return test::readTestPng(png);
  };
  const render::Image instanced = draw(glb, "instanced");
  const render::Image merged = draw(glb, "merged");
  EXPECT_LE(test::pathBadShare(instanced, merged), test::kPathMaxBadPixelShare);
  // The figures drew, with their normal maps: without them the pixels would be the same.
  const render::Image flat_instanced = draw(flat_glb, "instanced");
  EXPECT_GT(test::pathBadShare(instanced, flat_instanced), kMinNormalMapShare);
  std::filesystem::remove_all(dir);
}

}  // namespace sample_pbr_cli_test
}  // namespace throng
