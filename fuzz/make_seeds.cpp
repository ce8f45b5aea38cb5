// Writes the seed corpora of the fuzz targets from the shared assets and from files throng's own
// writers produce: make_seeds OUT_DIR [ASSETS_DIR]. Nothing of it is kept in the repository. Seeds
// are small (kMaxSeedBytes): a larger character is cut down (cutDown) before it is written.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "throng/core/package.h"
#include "throng/core/skeleton_file.h"
#include "throng/crowd/command_script.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_export.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/lod.h"
#include "throng/offline/mesh_simplify.h"
#include "throng/offline/sample_character.h"

namespace {

namespace fs = std::filesystem;
using throng::Character;
using throng::Result;

// Largest seed file kept whole: a fuzzer spends its executions on small inputs (whole 500 KB
// characters ran the glTF targets at ~45 executions a second under ASan). Larger characters are
// cut down to about this size.
constexpr size_t kMaxSeedBytes = 16 * 1024;
// A cut-down character: about this many triangles, its first clips, a few keys per track on the
// first joints (every joint's tracks cost an accessor, a sampler and a channel of JSON each).
constexpr size_t kSeedTriangles = 48;
constexpr size_t kSeedClips = 2;
constexpr size_t kSeedKeys = 3;
constexpr size_t kSeedAnimatedJoints = 8;

// `track` with at most kSeedKeys keys: its first, last and middle ones (three values per key for
// CUBICSPLINE).
template <typename T>
void thinKeys(throng::Track<T>& track) {
  const size_t keys = track.times.size();
  if (keys <= kSeedKeys) return;
  const size_t per_key = track.values.size() / keys;
  const size_t picks[kSeedKeys] = {0, keys / 2, keys - 1};
  throng::Track<T> out;
  out.interpolation = track.interpolation;
  for (size_t k : picks) {
    out.times.push_back(track.times[k]);
    for (size_t v = 0; v < per_key; ++v) out.values.push_back(track.values[k * per_key + v]);
  }
  track = std::move(out);
}

// The character as a seed of a few KB: its whole skeleton, its mesh simplified to about
// kSeedTriangles triangles, its materials' factors without images, its first kSeedClips clips
// with a few keys on the first kSeedAnimatedJoints joints (the others keep their rest pose).
Character cutDown(Character c) {
  const size_t triangles = c.mesh.triangleCount();
  if (triangles > kSeedTriangles) {
    throng::SimplifyOptions options;
    options.triangle_ratio = static_cast<float>(kSeedTriangles) / static_cast<float>(triangles);
    options.max_relative_error = 1.0f;
    options.keep_joint_borders = false;
    options.measure_error = false;
    Result<throng::SimplifiedMesh> simplified = throng::simplifyMesh(c.mesh, options);
    if (simplified.ok()) c.mesh = std::move(simplified->mesh);
  }
  c.images.clear();
  for (throng::Material& m : c.materials) m.base_color_texture = throng::TextureRef{};
  if (c.clips.size() > kSeedClips) c.clips.resize(kSeedClips);
  for (throng::Clip& clip : c.clips) {
    for (size_t j = 0; j < clip.joints.size(); ++j) {
      throng::JointTracks& tracks = clip.joints[j];
      if (j >= kSeedAnimatedJoints) {
        tracks = throng::JointTracks{};
        continue;
      }
      thinKeys(tracks.translation);
      thinKeys(tracks.rotation);
      thinKeys(tracks.scale);
    }
    const float start = clip.start_time, end = clip.end_time;
    throng::updateClipRange(clip);
    // Events are seconds from the clip's start: kept only while the range is the same.
    if (clip.start_time != start || clip.end_time != end) clip.events.clear();
  }
  return c;
}

std::string readAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void writeAll(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

uint32_t u32(const std::string& bytes, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + at, 4);
  return v;
}

std::string le32(uint32_t v) {
  return std::string(reinterpret_cast<const char*>(&v), 4);
}

// The split target's format: JSON length, JSON whose buffer 0 is "buffer.bin", then that buffer.
std::string splitSeed(nlohmann::json json, const std::string& buffer) {
  json["buffers"][0]["uri"] = "buffer.bin";
  json["buffers"][0]["byteLength"] = buffer.size();
  const std::string text = json.dump();
  return le32(static_cast<uint32_t>(text.size())) + text + buffer;
}

// The same document as a .glb: buffer 0 becomes the BIN chunk.
std::string glb(nlohmann::json json, std::string bin) {
  json["buffers"][0].erase("uri");
  json["buffers"][0]["byteLength"] = bin.size();
  std::string text = json.dump();
  while (text.size() % 4 != 0) text += ' ';
  while (bin.size() % 4 != 0) bin += '\0';
  return le32(0x46546C67) + le32(2) +
         le32(static_cast<uint32_t>(20 + text.size() + 8 + bin.size())) +
         le32(static_cast<uint32_t>(text.size())) + le32(0x4E4F534A) + text +
         le32(static_cast<uint32_t>(bin.size())) + le32(0x004E4942) + bin;
}

struct Seeds {
  fs::path out;
  int count = 0;
  void add(const std::string& corpus, const std::string& name, const std::string& bytes) {
    fs::create_directories(out / corpus);
    writeAll(out / corpus / name, bytes);
    ++count;
  }
};

void addGltf(Seeds& seeds, const fs::path& path, const std::string& name);

// Seeds of a glTF file over kMaxSeedBytes (with its external files): those of its character cut
// down, written by throng's writer.
void addCutDown(Seeds& seeds, const fs::path& path, const std::string& name) {
  Result<Character> c = throng::importGltf(path.string());
  if (!c.ok()) return;
  const fs::path small = seeds.out / "scratch" / (name + ".cut.glb");
  fs::create_directories(small.parent_path());
  if (!throng::writeGltf(cutDown(std::move(c).value()), small.string()).ok()) return;
  addGltf(seeds, small, name + ".cut.glb");
}

// Seeds of a glTF file: the file itself (glb target) when it stands alone, the split form when it
// has one buffer, and the skeleton file and a small package of what it imports; a file of more
// than kMaxSeedBytes (with its external files) is cut down first.
void addGltf(Seeds& seeds, const fs::path& path, const std::string& name) {
  const std::string bytes = readAll(path);
  uintmax_t total = bytes.size();
  if (path.extension() == ".gltf") {
    const nlohmann::json json = nlohmann::json::parse(bytes, nullptr, false);
    if (!json.is_discarded()) {
      for (const nlohmann::json& buffer : json.value("buffers", nlohmann::json::array())) {
        const std::string uri = buffer.value("uri", "");
        std::error_code error;
        if (!uri.empty() && !uri.starts_with("data:"))
          total += fs::file_size(path.parent_path() / uri, error);
      }
    }
  }
  if (total > kMaxSeedBytes) {
    addCutDown(seeds, path, name);
    return;
  }
  if (bytes.size() >= 20 && u32(bytes, 0) == 0x46546C67) {  // GLB: JSON chunk, then BIN chunk
    seeds.add("gltf_glb", name, bytes);
    const uint32_t json_length = u32(bytes, 12);
    const size_t bin_at = 20 + static_cast<size_t>(json_length);
    if (bin_at + 8 <= bytes.size()) {
      const nlohmann::json json =
          nlohmann::json::parse(bytes.substr(20, json_length), nullptr, false);
      const std::string bin = bytes.substr(bin_at + 8, u32(bytes, bin_at));
      if (!json.is_discarded() && json.contains("buffers")) {
        seeds.add("gltf_split", name, splitSeed(json, bin));
      }
    }
  } else {
    const nlohmann::json json = nlohmann::json::parse(bytes, nullptr, false);
    if (json.is_discarded() || !json.contains("buffers") || json["buffers"].size() != 1) return;
    const std::string uri = json["buffers"][0].value("uri", "");
    if (uri.starts_with("data:")) {
      seeds.add("gltf_glb", name, bytes);
    } else if (fs::exists(path.parent_path() / uri)) {
      const std::string bin = readAll(path.parent_path() / uri);
      seeds.add("gltf_split", name, splitSeed(json, bin));
      seeds.add("gltf_glb", name + ".glb", glb(json, bin));  // small seeds keep the target fast
    }
  }
  Result<Character> c = throng::importGltf(path.string());
  if (!c.ok()) return;
  const std::string skeleton = throng::formatSkeletonText(c->skeleton);
  if (skeleton.size() <= kMaxSeedBytes) seeds.add("skeleton_file", name + ".skel", skeleton);
  if (c->clips.empty()) return;
  throng::BakeOptions options;
  options.fps = 4.0f;
  options.threads = 1;
  Result<throng::Package> p = throng::bakeCharacter(*c, options);
  const fs::path package = seeds.out / "package" / (name + ".throng");
  fs::create_directories(package.parent_path());
  if (p.ok() && throng::writePackage(*p, package.string()).ok()) ++seeds.count;
}

// Command scripts as formatCommandScript writes them: every command and agent group, the sample's
// clips by name and by index, and scripts of one line each.
void addCommandScripts(Seeds& seeds, const throng::Package& package) {
  using throng::CommandType;
  throng::CommandScript script;
  script.source = "seed";
  const auto add = [&](double time, throng::AgentGroup agents, CommandType type,
                       const std::string& clip = {}, bool loop = false) {
    throng::ScriptCommand c;
    c.time = time;
    c.agents = agents;
    c.type = type;
    c.target = {1.5f * static_cast<float>(time) - 2.0f, 0.25f - static_cast<float>(time)};
    c.clip = clip;
    c.loop = loop;
    script.commands.push_back(c);
  };
  add(0.0, {0, 0, true}, CommandType::kIdle);
  add(0.5, {3, 3, false}, CommandType::kWalkTo);
  add(0.5, {1, 6, false}, CommandType::kRunTo);
  add(1.25, {7, 7, false}, CommandType::kAttack);
  add(2.0, {5, 5, false}, CommandType::kDie);
  for (size_t c = 0; c < package.clips.size(); ++c) {
    add(2.5 + 0.1 * static_cast<double>(c), {0, 4, false}, CommandType::kPlay,
        c % 2 == 0 ? package.clips[c].name : std::to_string(c), c % 3 == 0);
  }
  add(3.0, {2, 2, false}, CommandType::kPlay, "a name \"with\" quotes # and a hash", true);
  seeds.add("command_script", "all.txt", throng::formatCommandScript(script));
  for (size_t i = 0; i < script.commands.size(); ++i) {
    seeds.add("command_script", "line" + std::to_string(i) + ".txt",
              throng::formatScriptCommand(script.commands[i]) + "\r\n");
  }
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_seeds OUT_DIR [ASSETS_DIR]\n");
    return 2;
  }
  Seeds seeds{argv[1]};
  fs::remove_all(seeds.out);
  fs::create_directories(seeds.out);

  // Our own writers: the sample as .glb and .gltf, its skeleton file, packages with and without
  // LODs and in both texel formats.
  const Character sample = throng::makeSampleCharacter();
  const fs::path scratch = seeds.out / "scratch";
  fs::create_directories(scratch);
  if (!throng::writeGltf(sample, (scratch / "sample.glb").string()).ok()) return 1;
  addGltf(seeds, scratch / "sample.glb", "sample.glb");
  if (!throng::writeGltf(cutDown(sample), (scratch / "sample.gltf").string()).ok()) return 1;
  seeds.add("gltf_glb", "sample.gltf", readAll(scratch / "sample.gltf"));
  seeds.add("skeleton_file", "sample.skel", throng::formatSkeletonText(sample.skeleton));
  const Character small = cutDown(sample);
  throng::BakeOptions options;
  options.fps = 2.0f;
  options.threads = 1;
  Result<throng::Package> baked = throng::bakeCharacter(small, options);
  if (!baked.ok()) return 1;
  throng::Package with_lods = *baked;
  Result<std::vector<throng::MeshLod>> lods =
      throng::buildLodChain(small, throng::defaultLodChainOptions());
  if (!lods.ok()) return 1;
  with_lods.lods = std::move(*lods);
  options.format = throng::TexelFormat::kRgba16F;
  Result<throng::Package> half = throng::bakeCharacter(small, options);
  if (!half.ok()) return 1;
  addCommandScripts(seeds, *baked);
  fs::create_directories(seeds.out / "package");
  for (const auto& [name, package] :
       {std::pair<const char*, const throng::Package*>{"sample.throng", &*baked},
        {"sample-lods.throng", &with_lods},
        {"sample-half.throng", &*half}}) {
    if (!throng::writePackage(*package, (seeds.out / "package" / name).string()).ok()) return 1;
    ++seeds.count;
  }
  fs::remove_all(scratch);

  // The shared assets, when present.
  if (argc >= 3 && fs::is_directory(argv[2])) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(argv[2])) {
      const std::string ext = entry.path().extension().string();
      if (ext == ".glb" || ext == ".gltf") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) addGltf(seeds, file, file.filename().string());
  }
  fs::remove_all(scratch);
  // Every seed is small (the point of cutting characters down).
  size_t largest = 0;
  for (const auto& entry : fs::recursive_directory_iterator(seeds.out)) {
    if (entry.is_regular_file()) largest = std::max<size_t>(largest, entry.file_size());
  }
  std::printf("make_seeds: %d seeds in %s, the largest %zu bytes\n", seeds.count, seeds.out.c_str(),
              largest);
  return 0;
}
