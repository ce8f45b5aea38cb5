// The installed package as a user meets it: `cmake --install` into a temporary prefix, then
// examples/ built against it with find_package (and hello_crowd once more with pkg-config), run,
// and their output checked; and throng added to a user's tree with add_subdirectory.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/render/capture.h"
#include "throng/version.h"

namespace throng {
namespace {

namespace fs = std::filesystem;

std::string quoted(const fs::path& path) {
  return "'" + path.string() + "'";
}

// A fresh folder under the build tree (kept after the test, for a look when it fails).
fs::path freshDir(const std::string& name) {
  const fs::path dir = fs::path(THRONG_INSTALL_TEST_DIR) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The C++ flags of throng's own build (warnings as errors, sanitizers when on) for consumers.
std::string consumerCmakeFlags() {
  return std::string("-G '") + THRONG_CMAKE_GENERATOR +
         "' -DCMAKE_BUILD_TYPE=" + THRONG_BUILD_TYPE + " -DCMAKE_CXX_COMPILER='" +
         THRONG_CXX_COMPILER + "' '-DCMAKE_CXX_FLAGS=" + THRONG_CONSUMER_CXX_FLAGS +
         "' '-DCMAKE_EXE_LINKER_FLAGS=" + THRONG_CONSUMER_LINK_FLAGS + "'";
}

// hello_crowd's picture: the right size, and characters on the background (not one colour).
void expectCrowdPicture(const fs::path& png) {
  Result<render::Image> image = render::readPng(png.string());
  ASSERT_TRUE(image.ok()) << image.status().toString();
  EXPECT_EQ(image->width, 640);
  EXPECT_EQ(image->height, 360);
  size_t differing = 0;
  for (size_t p = 0; p < image->rgba.size(); p += 4) {
    for (int c = 0; c < 3; ++c) {
      if (image->rgba[p + c] != image->rgba[c]) {
        ++differing;
        break;
      }
    }
  }
  const size_t pixels = image->rgba.size() / 4;
  EXPECT_GT(differing, pixels / 200) << png << " is (nearly) one colour";
  EXPECT_LT(differing, pixels * 9 / 10) << png << " has almost no background";
}

TEST(Install, ExamplesBuildAndRunAgainstTheInstalledPackage) {
  const fs::path root = freshDir("consumer");
  const fs::path prefix = root / "prefix";
  const std::string cmake = std::string("'") + THRONG_CMAKE_COMMAND + "'";

  test::CliResult step =
      test::runShell(cmake + " --install '" + THRONG_BUILD_DIR + "' --prefix " + quoted(prefix));
  ASSERT_EQ(step.exit_code, 0) << step.output;
  const fs::path libdir = prefix / THRONG_INSTALL_LIBDIR;
  for (const fs::path& file :
       {prefix / "bin/throng", prefix / "include/throng/version.h",
        prefix / "include/throng/core/status.h", prefix / "include/throng/render/device.h",
        libdir / "libthrong_core.a", libdir / "libthrong_offline.a", libdir / "libthrong_crowd.a",
        libdir / "libthrong_render.a", libdir / "cmake/throng/throngConfig.cmake",
        libdir / "cmake/throng/throngConfigVersion.cmake",
        libdir / "cmake/throng/throngTargets.cmake", libdir / "pkgconfig/throng.pc",
        prefix / "share/doc/throng/LICENSE"}) {
    EXPECT_TRUE(fs::exists(file)) << file << " was not installed";
  }
#ifdef NDEBUG
  // Shaders are embedded: nothing installed refers to the source or build tree at run time
  // (debug builds' assert messages would name source files, hence release builds only).
  for (const fs::path& file : {prefix / "bin/throng", libdir / "libthrong_render.a",
                               libdir / "libthrong_offline.a", libdir / "libthrong_core.a"}) {
    const std::string bytes = test::readFile(file);
    EXPECT_EQ(bytes.find(THRONG_SOURCE_DIR), std::string::npos) << file << " names the source";
    EXPECT_EQ(bytes.find(THRONG_BUILD_DIR), std::string::npos) << file << " names the build";
  }
#endif
  step = test::runShell(quoted(prefix / "bin/throng") + " --version");
  EXPECT_EQ(step.exit_code, 0) << step.output;
  EXPECT_EQ(step.output, std::string("throng ") + THRONG_VERSION_STRING + "\n");

  // examples/ is a project of its own: find_package(throng) and nothing else by hand.
  const fs::path build = root / "examples-build";
  step = test::runShell(cmake + " -S '" + THRONG_SOURCE_DIR + "/examples' -B " + quoted(build) +
                        " " + consumerCmakeFlags() + " -DCMAKE_PREFIX_PATH=" + quoted(prefix));
  ASSERT_EQ(step.exit_code, 0) << step.output;
  step = test::runShell(cmake + " --build " + quoted(build));
  ASSERT_EQ(step.exit_code, 0) << step.output;

  const fs::path png = root / "hello_crowd.png";
  step = test::runShell(quoted(build / "hello_crowd") + " sample " + quoted(png));
  ASSERT_EQ(step.exit_code, 0) << step.output;
  EXPECT_NE(step.output.find("5 agents"), std::string::npos) << step.output;
  expectCrowdPicture(png);
  step = test::runShell(quoted(build / "own_context"));
  EXPECT_EQ(step.exit_code, 0) << step.output;
  EXPECT_NE(step.output.find("0 failed checks"), std::string::npos) << step.output;

  // A bad input fails with the file named, not with a crash or "ok".
  step = test::runShell(quoted(build / "hello_crowd") + " " + quoted(root / "missing.glb"));
  EXPECT_EQ(step.exit_code, 1) << step.output;
  EXPECT_NE(step.output.find("missing.glb"), std::string::npos) << step.output;

  // The same program through throng.pc (static libraries: --static adds the private ones).
  const std::string pkg_config =
      "PKG_CONFIG_PATH=" + quoted(libdir / "pkgconfig") + " pkg-config --static";
  step = test::runShell(pkg_config + " --modversion throng");
  EXPECT_EQ(step.output, std::string(THRONG_VERSION_STRING) + "\n");
  const fs::path hello_pc = root / "hello_crowd_pkg_config";
  step = test::runShell(std::string("'") + THRONG_CXX_COMPILER + "' -std=c++20 " +
                        THRONG_CONSUMER_CXX_FLAGS + " '" + THRONG_SOURCE_DIR +
                        "/examples/hello_crowd.cpp' -o " + quoted(hello_pc) + " $(" + pkg_config +
                        " --cflags --libs throng) " + THRONG_CONSUMER_LINK_FLAGS);
  ASSERT_EQ(step.exit_code, 0) << step.output;
  const fs::path png_pc = root / "hello_crowd_pkg_config.png";
  step = test::runShell(quoted(hello_pc) + " sample " + quoted(png_pc));
  ASSERT_EQ(step.exit_code, 0) << step.output;
  expectCrowdPicture(png_pc);
}

// Inside a user's tree throng builds its libraries and CLI, and no tests or benchmarks.
TEST(Install, AddSubdirectoryConfiguresWithoutTestsOrBenchmarks) {
  const fs::path root = freshDir("subdirectory");
  const std::string source = THRONG_SOURCE_DIR;
  test::writeFile(root / "CMakeLists.txt",
                  "cmake_minimum_required(VERSION 3.25)\n"
                  "project(user_game LANGUAGES CXX)\n"
                  "add_subdirectory(\"" +
                      source + "\" throng)\nadd_executable(game \"" + source +
                      "/examples/hello_crowd.cpp\")\n"
                      "target_link_libraries(game PRIVATE throng::throng)\n");
  const std::string cmake = std::string("'") + THRONG_CMAKE_COMMAND + "'";
  const fs::path build = root / "build";
  test::CliResult step = test::runShell(cmake + " -S " + quoted(root) + " -B " + quoted(build) +
                                        " " + consumerCmakeFlags());
  ASSERT_EQ(step.exit_code, 0) << step.output;
  const std::string cache = test::readFile(build / "CMakeCache.txt");
  EXPECT_NE(cache.find("THRONG_BUILD_TESTS:BOOL=OFF"), std::string::npos);
  EXPECT_NE(cache.find("THRONG_BUILD_BENCH:BOOL=OFF"), std::string::npos);
  EXPECT_TRUE(fs::exists(build / "CMakeFiles/game.dir")) << "the user's target is missing";
  EXPECT_TRUE(fs::exists(build / "throng/tools/throng")) << "the CLI is not configured";
  EXPECT_FALSE(fs::exists(build / "throng/tests")) << "throng's tests are configured";
  EXPECT_FALSE(fs::exists(build / "throng/bench")) << "throng's benchmarks are configured";
}

}  // namespace
}  // namespace throng
