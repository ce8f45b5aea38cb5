// Shared test helpers: asset paths, temporary folders and small characters built in code.
#include "support/test_support.h"

#include "support/message_log.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

namespace throng::test {

void useGlesVersion(int gles_major) {
  static bool ours = false;  // the variable in the environment was set here, not by the user
  constexpr const char* kVariable = "MESA_GLES_VERSION_OVERRIDE";
  if (gles_major == 2) {
    if (!std::getenv(kVariable)) {
      setenv(kVariable, "2.0", 1);
      ours = true;
    }
  } else if (ours) {
    unsetenv(kVariable);
    ours = false;
  }
}

std::filesystem::path assetsDir() {
  return std::filesystem::path(THRONG_ASSETS_DIR);
}

std::filesystem::path assetPath(const std::string& relative) {
  return assetsDir() / relative;
}

std::filesystem::path makeTempDir(const std::string& tag) {
  static std::atomic<int> counter{0};
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("throng-test-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string shellQuoted(const std::filesystem::path& path) {
  return "'" + path.string() + "'";
}

int lineCount(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

std::vector<glm::vec3> readObjPositions(const std::string& path) {
  std::ifstream in(path);
  std::vector<glm::vec3> out;
  for (std::string line; std::getline(in, line);) {
    std::istringstream s(line);
    std::string tag;
    glm::vec3 p;
    if (s >> tag && tag == "v" && s >> p.x >> p.y >> p.z) out.push_back(p);
  }
  return out;
}

bool hasWarning(const Character& character, const std::string& text) {
  for (const Warning& w : character.warnings) {
    if (w.message.find(text) != std::string::npos) return true;
  }
  return false;
}

void writeFile(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

CliResult runCli(const std::string& args) {
  return runShell(std::string("'") + THRONG_CLI_PATH + "' " + args);
}

CliResult runShell(const std::string& command_line) {
  CliResult result;
  const std::string command = "( " + command_line + " ) 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int status = pclose(pipe);
  logOutputLines(result.output);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

const std::string& bakedSamplePackage() {
  struct Baked {
    std::filesystem::path dir = makeTempDir("baked-sample");
    std::string package = "'" + (dir / "sample.throng").string() + "'";
    Baked() {
      const std::string glb = "'" + (dir / "sample.glb").string() + "'";
      const CliResult sample = runCli("sample -o " + glb);
      EXPECT_EQ(sample.exit_code, 0) << sample.output;
      const CliResult bake = runCli("bake " + glb + " --lods -o " + package);
      EXPECT_EQ(bake.exit_code, 0) << bake.output;
    }
    ~Baked() { std::filesystem::remove_all(dir); }
  };
  static const Baked baked;
  return baked.package;
}

Character makeChainCharacter() {
  RawSkeleton raw;
  const char* names[3] = {"root", "mid", "tip"};
  for (int j = 0; j < 3; ++j) {
    RawJoint joint;
    joint.name = names[j];
    joint.parent = j == 0 ? "" : names[j - 1];
    joint.rest.translation = glm::vec3(0.0f, j == 0 ? 0.0f : 1.0f, 0.0f);
    // Bind == rest: inverse of the joint's model matrix (a pure translation by j units up).
    joint.inverse_bind = glm::mat4(1.0f);
    joint.inverse_bind[3] = glm::vec4(0.0f, -static_cast<float>(j), 0.0f, 1.0f);
    raw.joints.push_back(joint);
  }
  Character c;
  c.skeleton = std::move(buildSkeleton(raw, "chain").value());

  // A square tube: 5 rings (y = 0, 0.5, 1, 1.5, 2) of 4 vertices.
  SkinnedMesh& m = c.mesh;
  for (int ring = 0; ring < 5; ++ring) {
    const float y = 0.5f * static_cast<float>(ring);
    for (int side = 0; side < 4; ++side) {
      const float a = static_cast<float>(side) * 1.5707964f;
      const glm::vec3 dir(std::cos(a), 0.0f, std::sin(a));
      m.positions.push_back(glm::vec3(0.0f, y, 0.0f) + 0.2f * dir);
      m.normals.push_back(dir);
      m.uvs.push_back(glm::vec2(static_cast<float>(side) / 4.0f, y / 2.0f));
      // Rings 0-1 on root; ring 2 half root/mid; ring 3 mid/tip; ring 4 tip.
      const glm::u16vec4 joints[5] = {
          {0, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}, {1, 2, 0, 0}, {2, 0, 0, 0}};
      const glm::vec4 weights[5] = {
          {1, 0, 0, 0}, {0.75f, 0.25f, 0, 0}, {0.5f, 0.5f, 0, 0}, {0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}};
      m.joints.push_back(joints[ring]);
      m.weights.push_back(weights[ring]);
    }
  }
  for (uint32_t ring = 0; ring < 4; ++ring) {
    for (uint32_t side = 0; side < 4; ++side) {
      const uint32_t a = ring * 4 + side, b = ring * 4 + (side + 1) % 4;
      m.indices.insert(m.indices.end(), {a, a + 4, b, b, a + 4, b + 4});
    }
  }
  m.submeshes.push_back({"tube", 0, static_cast<uint32_t>(m.indices.size())});

  Clip clip;
  clip.name = "bend";
  clip.joints.resize(3);
  for (int j = 1; j < 3; ++j) {
    QuatTrack& r = clip.joints[j].rotation;
    r.interpolation = Interpolation::kLinear;
    r.times = {0.0f, 0.5f, 1.0f};
    const glm::quat bent = glm::angleAxis(0.8f, glm::vec3(0, 0, 1));
    r.values = {glm::quat(1, 0, 0, 0), bent, glm::quat(1, 0, 0, 0)};
  }
  Vec3Track& t = clip.joints[0].translation;
  t.interpolation = Interpolation::kStep;
  t.times = {0.0f, 0.5f, 1.0f};
  t.values = {glm::vec3(0.0f), glm::vec3(0.0f, 0.1f, 0.0f), glm::vec3(0.0f)};
  updateClipRange(clip);
  c.clips.push_back(std::move(clip));
  return c;
}

Package makeChainPackage(TexelFormat format) {
  const Character c = makeChainCharacter();
  Package p;
  p.source = "chain";
  p.skeleton = c.skeleton;
  p.lods.push_back(MeshLod{c.mesh, {}, 0.0f, 0.0f, 0.0f});
  BakedClip clip;
  clip.name = "bend";
  clip.first_frame = 0;
  clip.frame_count = 4;
  clip.fps = 4.0f;
  clip.duration = 1.0f;
  clip.loop = true;
  clip.bounds = computeBounds(c.mesh.positions);
  p.clips.push_back(clip);
  AnimationTexture& t = p.animation;
  t.format = format;
  t.joint_count = 3;
  t.frame_count = 4;
  t.frames_per_row = 2;
  t.width = 2 * 9;
  t.height = 2;
  const size_t channels = static_cast<size_t>(t.width) * t.height * 4;
  if (format == TexelFormat::kRgba32F) {
    t.texels32.assign(channels, 0.0f);
  } else {
    t.texels16.assign(channels, 0);
  }
  for (uint32_t f = 0; f < 4; ++f) {
    for (uint32_t j = 0; j < 3; ++j) storeJointRows(t, f, j, JointRows{});
  }
  return p;
}

}  // namespace throng::test
