// The installed package as a user meets it: `cmake --install` into a temporary prefix, and the
// Debian packages unpacked (dpkg-deb -x) into another, then examples/ built against each with
// find_package (and hello_crowd once more with pkg-config), run, and their output checked; and
// throng added to a user's tree with add_subdirectory.
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
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

// What every installed tree holds, and (release builds) that none of it names the source or
// build tree.
void expectInstalledTree(const fs::path& prefix, const fs::path& libdir) {
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
}

// examples/ built against the tree at `prefix` with find_package and with throng.pc, run and
// checked; the work goes under `root`.
void expectExamplesWork(const fs::path& root, const fs::path& prefix, const fs::path& libdir) {
  const std::string cmake = std::string("'") + THRONG_CMAKE_COMMAND + "'";
  test::CliResult step = test::runShell(quoted(prefix / "bin/throng") + " --version");
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
  step = test::runShell(quoted(build / "engine_shading"));
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

TEST(Install, ExamplesBuildAndRunAgainstTheInstalledPackage) {
  const fs::path root = freshDir("consumer");
  const fs::path prefix = root / "prefix";
  const std::string cmake = std::string("'") + THRONG_CMAKE_COMMAND + "'";
  test::CliResult step =
      test::runShell(cmake + " --install '" + THRONG_BUILD_DIR + "' --prefix " + quoted(prefix));
  ASSERT_EQ(step.exit_code, 0) << step.output;
  const fs::path libdir = prefix / THRONG_INSTALL_LIBDIR;
  expectInstalledTree(prefix, libdir);
  expectExamplesWork(root, prefix, libdir);
}

#ifdef THRONG_CPACK_COMMAND
// The package names in a Debian control field (versions dropped, every alternative kept).
std::set<std::string> packageNames(const std::string& field) {
  std::set<std::string> names;
  std::istringstream entries(field);
  for (std::string entry; std::getline(entries, entry, ',');) {
    std::istringstream alternatives(entry);
    for (std::string alternative; std::getline(alternatives, alternative, '|');) {
      std::istringstream words(alternative);
      std::string name;
      if (words >> name) names.insert(name.substr(0, name.find('(')));
    }
  }
  return names;
}

std::string debField(const fs::path& deb, const std::string& field) {
  return test::runShell("dpkg-deb -f " + quoted(deb) + " " + field).output;
}

// The Debian package that owns `path` on this machine ("" when none does).
std::string ownerOf(const std::string& path) {
  const test::CliResult owner =
      test::runShell("dpkg -S " + quoted(fs::path(path)) + " 2>/dev/null");
  if (owner.exit_code != 0) return "";
  const std::string first = owner.output.substr(0, owner.output.find(':'));
  return first;
}

// Each shared library `binary` links directly (its ELF NEEDED entries, as dpkg-shlibdeps reads
// them; what those load in turn is their packages' business) comes from a package its Depends
// names.
void expectSharedLibrariesInDepends(const fs::path& binary, const std::set<std::string>& depends) {
  const test::CliResult needed = test::runShell(
      "readelf -d " + quoted(binary) + " | sed -n 's/.*Shared library: \\[\\(.*\\)\\]/\\1/p'");
  const test::CliResult ldd = test::runShell("ldd " + quoted(binary));
  ASSERT_EQ(needed.exit_code, 0) << needed.output;
  ASSERT_EQ(ldd.exit_code, 0) << ldd.output;
  std::map<std::string, std::string> resolved;  // soname -> path
  std::istringstream lines(ldd.output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, arrow, path;
    if (words >> name >> arrow >> path && arrow == "=>") resolved[name] = path;
  }
  std::istringstream names(needed.output);
  int checked = 0;
  for (std::string name; std::getline(names, name);) {
    ASSERT_EQ(resolved.count(name), 1u) << binary << " needs " << name << ", which ldd cannot find";
    const std::string& library = resolved[name];
    std::string owner = ownerOf(fs::canonical(library).string());
    if (owner.empty()) owner = ownerOf(library);  // dpkg knows /lib/... as /usr/lib/... or not
    ASSERT_FALSE(owner.empty()) << library << " (" << binary << ") belongs to no package";
    EXPECT_EQ(depends.count(owner), 1u)
        << binary << " needs " << library << " from " << owner << ", which Depends does not name";
    ++checked;
  }
  EXPECT_GT(checked, 0) << binary;
}

// scripts/package.sh's packages, unpacked with dpkg-deb -x (as CI does instead of installing):
// the same tree and examples as a `cmake --install`, the module importable, and each package's
// Depends naming what its contents use.
TEST(Install, ExamplesBuildAndRunAgainstTheDebianPackages) {
  const fs::path root = freshDir("debian");
  test::CliResult step =
      test::runShell(std::string("cd ") + quoted(root) + " && '" + THRONG_CPACK_COMMAND +
                     "' -G DEB --config '" + THRONG_BUILD_DIR + "/CPackConfig.cmake' -B packages");
  ASSERT_EQ(step.exit_code, 0) << step.output;
  std::map<std::string, fs::path> debs;
  for (const auto& entry : fs::directory_iterator(root / "packages")) {
    if (entry.path().extension() != ".deb") continue;
    std::string name = debField(entry.path(), "Package");
    name.erase(name.find_last_not_of('\n') + 1);
    debs[name] = entry.path();
    step = test::runShell("dpkg-deb -x " + quoted(entry.path()) + " " + quoted(root / "unpacked"));
    ASSERT_EQ(step.exit_code, 0) << step.output;
  }
  std::set<std::string> expected = {"libthrong-dev", "throng-tools"};
  if (THRONG_PYTHON_MODULE[0] != '\0') expected.insert("python3-throng");
  std::set<std::string> made;
  for (const auto& [name, deb] : debs) made.insert(name);
  ASSERT_EQ(made, expected);

  const fs::path prefix = root / "unpacked/usr";
  const fs::path libdir = prefix / THRONG_INSTALL_LIBDIR;
  expectInstalledTree(prefix, libdir);
  // Debian's copyright file is the licence (installed when the tree has one).
  if (fs::exists(fs::path(THRONG_SOURCE_DIR) / "LICENSE")) {
    for (const auto& [name, deb] : debs) {
      EXPECT_EQ(test::readFile(prefix / "share/doc" / name / "copyright"),
                test::readFile(fs::path(THRONG_SOURCE_DIR) / "LICENSE"))
          << name;
    }
  }
  expectExamplesWork(root, prefix, libdir);

  // libthrong-dev: the package of every pkg-config module throng.pc requires and of every CMake
  // package throngConfig.cmake finds, and pkg-config itself.
  const std::set<std::string> dev = packageNames(debField(debs["libthrong-dev"], "Depends"));
  for (const char* module : {"glm", "egl", "glesv2", "fmt", "tinygltf", "stb"}) {
    const std::string dir =
        test::runShell(std::string("pkg-config --variable=pcfiledir ") + module).output;
    const std::string owner = ownerOf(dir.substr(0, dir.find('\n')) + "/" + module + ".pc");
    EXPECT_EQ(dev.count(owner), 1u) << module << ".pc is in " << owner;
  }
  for (const char* config :
       {"glm/glmConfig.cmake", "fmt/fmt-config.cmake", "TinyGLTF/TinyGLTFConfig.cmake",
        "meshoptimizer/meshoptimizerConfig.cmake", "draco/draco-config.cmake"}) {
    const std::string owner = ownerOf(std::string("*/cmake/") + config);
    EXPECT_EQ(dev.count(owner), 1u) << config << " is in " << owner;
  }
  EXPECT_EQ(dev.count("pkg-config"), 1u);

  // throng-tools and python3-throng: what their programs load.
  const std::set<std::string> tools = packageNames(debField(debs["throng-tools"], "Depends"));
  expectSharedLibrariesInDepends(prefix / "bin/throng", tools);
  if (fs::exists(prefix / "bin/throng-viewer")) {
    expectSharedLibrariesInDepends(prefix / "bin/throng-viewer", tools);
  }
  if (debs.count("python3-throng") != 0) {
    const std::set<std::string> python = packageNames(debField(debs["python3-throng"], "Depends"));
    const fs::path site = prefix / "lib/python3/dist-packages";
    expectSharedLibrariesInDepends(site / THRONG_PYTHON_MODULE, python);
    EXPECT_EQ(python.count("python3-numpy"), 1u);  // its arrays are NumPy's
    step = test::runShell("PYTHONPATH=" + quoted(site) + " '" + THRONG_PYTHON +
                          "' -c 'import throng; print(throng.__version__, "
                          "len(throng.bake(\"sample\").clips))'");
    EXPECT_EQ(step.exit_code, 0) << step.output;
    EXPECT_EQ(step.output, std::string(THRONG_VERSION_STRING) + " 5\n");
  }
}
#endif

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
