// Writes the seed corpora of the fuzz targets from the shared assets and from files throng's own
// writers produce: make_seeds OUT_DIR [ASSETS_DIR]. Nothing of it is kept in the repository.
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
#include "throng/offline/sample_character.h"

namespace {

namespace fs = std::filesystem;
using throng::Character;
using throng::Result;

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

// Seeds of a glTF file: the file itself (glb target) when it stands alone, the split form when it
// has one buffer, and the skeleton file and a small package of what it imports.
void addGltf(Seeds& seeds, const fs::path& path, const std::string& name) {
  const std::string bytes = readAll(path);
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
  seeds.add("skeleton_file", name + ".skel", throng::formatSkeletonText(c->skeleton));
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
  if (!throng::writeGltf(sample, (scratch / "sample.gltf").string()).ok()) return 1;
  seeds.add("gltf_glb", "sample.gltf", readAll(scratch / "sample.gltf"));
  seeds.add("skeleton_file", "sample.skel", throng::formatSkeletonText(sample.skeleton));
  throng::BakeOptions options;
  options.fps = 2.0f;
  options.threads = 1;
  Result<throng::Package> baked = throng::bakeCharacter(sample, options);
  if (!baked.ok()) return 1;
  throng::Package with_lods = *baked;
  Result<std::vector<throng::MeshLod>> lods =
      throng::buildLodChain(sample, throng::defaultLodChainOptions());
  if (!lods.ok()) return 1;
  with_lods.lods = std::move(*lods);
  options.format = throng::TexelFormat::kRgba16F;
  Result<throng::Package> half = throng::bakeCharacter(sample, options);
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
  std::printf("make_seeds: %d seeds in %s\n", seeds.count, seeds.out.c_str());
  return 0;
}
