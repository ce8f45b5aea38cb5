// Shared test helpers: asset paths, temporary folders and small characters built in code.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <glm/vec3.hpp>

#include <gtest/gtest.h>

#include "support/require.h"
#include "throng/core/character.h"
#include "throng/core/package.h"

namespace throng::test {

// ../shared/assets (THRONG_ASSETS_DIR); tests that need it THRONG_REQUIRE it (require.h).
std::filesystem::path assetsDir();
std::filesystem::path assetPath(const std::string& relative);
// A fresh, empty folder under the system temp dir, unique per call.
std::filesystem::path makeTempDir(const std::string& tag);
std::string readFile(const std::filesystem::path& path);
void writeFile(const std::filesystem::path& path, const std::string& bytes);

// A 3-joint vertical chain ("root" -> "mid" -> "tip", 1 unit apart) with a 2x2-sided tube mesh
// whose middle ring blends mid/tip, and one clip "bend" (LINEAR rotations about Z, 0..1 s,
// first key == last key so it loops) plus a STEP translation track on the root.
Character makeChainCharacter();

// The chain character baked by hand into a valid package (the texture layout bakeCharacter
// makes): source "chain", one LOD, clip "bend" (4 frames at 4 fps, looping), a 18 x 2 texture of
// `format` holding 2 frames per row of default palette entries, no morph animation.
Package makeChainPackage(TexelFormat format = TexelFormat::kRgba32F);

// `path` in single quotes, for a command line (the test folders' paths have no quote in them).
std::string shellQuoted(const std::filesystem::path& path);
// The number of '\n' in `text`.
int lineCount(const std::string& text);
// The "v x y z" lines of the OBJ file at `path`, in order.
std::vector<glm::vec3> readObjPositions(const std::string& path);
// Whether one of `character`'s import warnings contains `text`.
bool hasWarning(const Character& character, const std::string& text);

// Runs the throng CLI (THRONG_CLI_PATH) with `args` through the shell; output has stdout and
// stderr together.
struct CliResult {
  int exit_code = -1;
  std::string output;
};
CliResult runCli(const std::string& args);
// Runs a shell command line; output has stdout and stderr together.
CliResult runShell(const std::string& command);
// The built-in sample baked once per test process by the CLI with its default LOD chain (`throng
// bake sample.glb --lods`), as `render sample` and `demo` bake it in memory, quoted for a command
// line. Building the LODs measures every clip frame (about 2 s of CPU in Release, several times
// that under the sanitizers): CLI tests that are not about baking in memory draw this package.
const std::string& bakedSamplePackage();

// Mesa answers an ES 2.0 context request with ES 3.2 unless MESA_GLES_VERSION_OVERRIDE=2.0 is in
// the environment when the EGL display is initialised, and the library never changes the
// environment. Call before creating a headless device: for gles_major 2 this sets the variable
// (unless the user set it), for 3 it removes what an earlier call set. Tests are single-threaded.
void useGlesVersion(int gles_major);

}  // namespace throng::test

// Requires the shared asset `relative` (THRONG_REQUIRE: a skip outside CI, a failure in CI).
#define THRONG_REQUIRE_ASSET(relative)                                         \
  THRONG_REQUIRE(std::filesystem::exists(::throng::test::assetPath(relative)), \
                 "asset not present: " + ::throng::test::assetPath(relative).string())
