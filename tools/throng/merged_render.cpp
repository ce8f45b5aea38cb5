// `throng render-merged` (and the merged path of `throng render`): method A on ES 2.0.
#include "merged_render.h"

#include <cmath>
#include <filesystem>

#include <fmt/core.h>
#include <glm/gtc/matrix_transform.hpp>

#include "command.h"
#include "throng/core/package.h"
#include "throng/core/skeleton_file.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/merged_path.h"

namespace throng::cli {

int runMergedRender(const MergedRenderOptions& options) {
  using namespace throng::render;
  if (options.source != "tree" && options.source != "baked") {
    return fail(fmt::format("--source must be tree or baked, not '{}'", options.source));
  }
  Character character;
  Package package;
  std::vector<MeshLod> lods;
  Skeleton tree;
  if (!options.package.empty()) {
    if (options.source != "baked") {
      return fail("a package holds baked frames, not keyframes: use --source baked");
    }
    Result<Package> read = readPackage(options.package);
    if (!read.ok()) return fail(read.status().toString());
    package = std::move(*read);
    lods = package.lods;
    tree = package.skeleton;
  } else {
    character = makeSampleCharacter();
    Result<Package> baked = bakeCharacter(character, {});
    if (!baked.ok()) return fail(baked.status().toString());
    package = std::move(*baked);
    Result<std::vector<MeshLod>> chain = buildLodChain(character, defaultLodChainOptions());
    if (!chain.ok()) return fail(chain.status().toString());
    lods = std::move(*chain);
    // Method A step 4: the hierarchy goes through the skeleton file and is rebuilt into a tree.
    const std::filesystem::path skel_path =
        options.skeleton_file.empty()
            ? std::filesystem::temp_directory_path() / "throng-merged-render.skel"
            : std::filesystem::path(options.skeleton_file);
    if (Status s = writeSkeletonFile(character.skeleton, skel_path.string()); !s.ok()) {
      return fail(s.toString());
    }
    Result<Skeleton> read = readSkeletonFile(skel_path.string());
    if (options.skeleton_file.empty()) std::filesystem::remove(skel_path);
    if (!read.ok()) return fail(read.status().toString());
    tree = std::move(*read);
  }
  if (lods.empty() || package.clips.empty()) return fail("the package has no LODs or no clips");
  const float size = std::max(computeBounds(lods[0].mesh.positions).largestExtent(), 1e-3f);

  DeviceDesc desc;
  desc.gles_major = 2;
  desc.width = options.width;
  desc.height = options.height;
  if (options.uniform_budget > 0) desc.caps.max_vertex_uniform_vectors = options.uniform_budget;
  Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
  if (!device.ok()) return fail(device.status().toString());
  Result<std::unique_ptr<MergedBatchRenderer>> renderer =
      MergedBatchRenderer::create(**device, lods, tree.jointCount());
  if (!renderer.ok()) return fail(renderer.status().toString());
  for (const std::string& w : (*renderer)->warnings()) {
    fmt::print(stderr, "throng: warning: {}\n", w);
  }

  fmt::print("device: {} ({}), GL_MAX_VERTEX_UNIFORM_VECTORS {}\n", (*device)->caps().renderer,
             (*device)->caps().version, (*renderer)->uniformBudget());
  for (int i = 0; i < (*renderer)->lodCount(); ++i) {
    const MergedLodInfo& info = (*renderer)->lodInfo(i);
    fmt::print(
        "LOD {}: drawn as LOD {} (error {:.3g}% of the height), {} joints, {} vertices, K = {} "
        "per batch (other uniforms {}), up to {:.1f} units\n",
        i, info.drawn_lod, 100.0f * info.error / size, info.joints, info.vertices_per_character,
        info.characters_per_batch, info.other_uniform_vectors, (lods)[i].max_distance);
  }

  // A grid of agents, each playing a clip from its own start time.
  const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(options.agents))));
  std::vector<Placement> placements;
  std::vector<AgentPlayback> agents;
  for (int i = 0; i < options.agents; ++i) {
    Placement p;
    p.position = glm::vec3((static_cast<float>(i % columns) - 0.5f * columns) * size * 0.8f, 0.0f,
                           -static_cast<float>(i / columns) * size * 0.8f);
    p.heading = 0.4f * static_cast<float>(i % 7);
    placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>(i % std::min<size_t>(3, package.clips.size()));
    a.time = 0.13f * static_cast<float>(i);
    agents.push_back(a);
  }
  std::vector<InstanceFrames> frames(agents.size());
  const glm::vec3 camera(0.0f, size * 3.0f, size * 4.0f);
  const glm::mat4 view_projection =
      glm::perspective(0.9f, static_cast<float>(options.width) / options.height, 0.1f * size,
                       500.0f * size) *
      glm::lookAt(camera, glm::vec3(0.0f, 0.0f, -size * 8.0f), glm::vec3(0, 1, 0));
  const MergedScene scene{&tree, character.clips, package.clips, &package.animation, lods};
  const PaletteSource source =
      options.source == "tree" ? PaletteSource::kSkeletonTree : PaletteSource::kBakedFrames;

  MergedPathScratch scratch;
  MergedFrameStats stats;
  double total_ms = 0.0;
  const int frame_count = std::max(1, options.frames);
  for (int f = 0; f < frame_count; ++f) {
    for (AgentPlayback& a : agents) a.time += 1.0f / 30.0f;
    if (!PlaybackJob{package.clips, agents, frames}.run()) return fail("playback failed");
    (*device)->beginFrame({0.2f, 0.22f, 0.26f, 1.0f});
    stats = drawMergedCrowd(**renderer, scene, source, view_projection, camera, placements, agents,
                            frames, scratch);
    total_ms += (*device)->finish();
  }
  fmt::print(
      "{} characters, palette source {}: {} batches, {} draw calls per frame, {:.2f} ms "
      "per frame (mean of {})\n",
      stats.characters, options.source, stats.batches, stats.draw_calls, total_ms / frame_count,
      frame_count);
  if (!options.out.empty()) {
    Result<Image> image = (*device)->readPixels();
    if (!image.ok()) return fail(image.status().toString());
    if (Status s = writePng(*image, options.out); !s.ok()) return fail(s.toString());
    fmt::print("wrote {}\n", options.out);
  }
  return 0;
}

namespace {

std::function<int()> setupMergedRender(CLI::App& sub) {
  auto options = std::make_shared<MergedRenderOptions>();
  sub.add_option("--agents", options->agents, "characters to draw")->check(CLI::Range(1, 100000));
  sub.add_option("--width", options->width, "frame width in pixels")->check(CLI::Range(1, 8192));
  sub.add_option("--height", options->height, "frame height in pixels")->check(CLI::Range(1, 8192));
  sub.add_option("--frames", options->frames, "frames to draw and time")
      ->check(CLI::Range(1, 10000));
  sub.add_option("--uniform-budget", options->uniform_budget,
                 "GL_MAX_VERTEX_UNIFORM_VECTORS to assume (lower than the device's; 0 = its own)")
      ->check(CLI::Range(0, 1 << 20));
  sub.add_option("--source", options->source, "palette source: tree (skeleton file) or baked");
  sub.add_option("--out", options->out, "PNG of the last frame");
  sub.add_option("--package", options->package,
                 "package from `throng bake` to draw instead of the sample (needs --source baked)");
  sub.add_option("--skeleton-file", options->skeleton_file,
                 "where to write the skeleton file the tree is read back from");
  return [options] { return runMergedRender(*options); };
}

const bool kRegistered = registerCommand(
    {"render-merged",
     "draw the sample crowd with merged batches on ES 2.0 (method A; `render --path merged`)",
     setupMergedRender});

}  // namespace
}  // namespace throng::cli
