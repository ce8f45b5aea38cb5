// Crowd programs assembled from the embedded shaders and the user's file; errors traced back to it.
#include "render/shader_assembly.h"

#include <array>
#include <cctype>
#include <optional>

#include <fmt/core.h>

#include "render/user_uniforms.h"
#include "throng/core/file_io.h"

namespace throng::render {
namespace {

// Texture units of the crowd programs' samplers (ES 2.0 guarantees 8 combined units; the merged
// path uses 1..6 and leaves 0 and 7 to the user's samplers). The palette pass's texture
// (PALETTE_TEXTURE's u_palette, unit 8) is set by PalettePass::bind: the merged path's u_palette
// is its palette array.
struct SamplerUnit {
  const char* name;
  int unit;
};
constexpr SamplerUnit kSamplerUnits[] = {
    {"u_animation", 0},
    {"u_base_texture", 1},
    {"u_mr_texture", 2},
    {"u_normal_texture", 3},
    {"u_occlusion_texture", 4},
    {"u_emissive_texture", 5},
    {"throng_shadow_map", 6},
    {"u_instances", 7},
    {"u_morph", 9},
    // The gpu path's per-agent extras (props, layers) take the palette pass's unit, which that
    // path's programs never use.
    {"u_agent_extras", 8},
    // The impostors' atlases take the base colour's and metallic-roughness's units, which their
    // programs (common/impostor_surface.glsl) never use.
    {"u_impostor_color", 1},
    {"u_impostor_normals", 2},
};

// The common part of both stages' headers: the version line and the macros of the contract.
std::string header(GlslVersion version, bool vertex, std::span<const std::string> defines,
                   bool depth, bool hook) {
  const bool es3 = version == GlslVersion::kEs300;
  std::string out = es3 ? "#version 300 es\n" : "#version 100\n";
  out += fmt::format("#define THRONG_GLES_VERSION {}\n", es3 ? 300 : 100);
  out += vertex ? "#define THRONG_VERTEX\n" : "#define THRONG_FRAGMENT\n";
  out += fmt::format("#define THRONG_VARYING {}\n", !es3 ? "varying" : vertex ? "out" : "in");
  out += fmt::format("#define THRONG_FLAT {}\n", es3 ? "flat" : "");
  out += fmt::format("#define throngTexture {}\n", es3 ? "texture" : "texture2D");
  if (depth) out += "#define THRONG_DEPTH\n";
  if (hook) out += "#define THRONG_VERTEX_HOOK\n";
  for (const std::string& define : defines) out += "#define " + define + "\n";
  if (vertex) {
    out += "precision highp float;\nprecision highp int;\n#define THRONG_HIGHP highp\n";
  } else if (es3) {
    out += "precision highp float;\nprecision highp int;\n#define THRONG_HIGHP highp\n";
    out += "out vec4 throng_frag_color;\n#define THRONG_FRAG_COLOR throng_frag_color\n";
  } else {
    out +=
        "#ifdef GL_FRAGMENT_PRECISION_HIGH\nprecision highp float;\n#define THRONG_HIGHP highp\n"
        "#else\nprecision mediump float;\n#define THRONG_HIGHP mediump\n#endif\n"
        "#define THRONG_FRAG_COLOR gl_FragColor\n";
  }
  return out;
}

Status appendEmbedded(std::string& out, std::string_view path) {
  Result<std::string> text = embeddedShader(path);
  if (!text.ok()) return text.status();
  out += *text;
  if (!out.empty() && out.back() != '\n') out += '\n';
  return Status::okStatus();
}

// The user's file between two #line directives: its own lines from 1 (source string 1), then
// throng's contract code from kContractFirstLine (source string 2).
void appendUser(std::string& out, const ShaderSource& user) {
  out += "#line 1 1\n";
  out += user.text;
  if (!user.text.empty() && user.text.back() != '\n') out += '\n';
  out += fmt::format("#line {} 2\n", kContractFirstLine);
}

// The line holding "#version" in `text` (1-based), or 0.
int versionLine(std::string_view text) {
  int line = 1;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    std::string_view l =
        text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    while (!l.empty() && std::isspace(static_cast<unsigned char>(l.front()))) l.remove_prefix(1);
    if (l.substr(0, 1) == "#") {
      l.remove_prefix(1);
      while (!l.empty() && std::isspace(static_cast<unsigned char>(l.front()))) l.remove_prefix(1);
      if (l.substr(0, 7) == "version") return line;
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
    ++line;
  }
  return 0;
}

// One located message of a driver's compile log: its source string, line and column (-1 when
// the driver gives none) and the text after the location.
struct LogEntry {
  int source = -1;
  int line = -1;
  int column = -1;
  std::string text;
};

// Reads a decimal number at `s` (advancing it); nullopt when none.
std::optional<int> number(std::string_view& s) {
  int value = 0;
  size_t digits = 0;
  while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits])) && digits < 9) {
    value = value * 10 + (s[digits] - '0');
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  s.remove_prefix(digits);
  return value;
}

// The drivers' formats: Mesa "0:12(5): error: ...", ANGLE and most mobile drivers
// "ERROR: 0:12: ...", NVIDIA "0(12) : error C0000: ...".
std::optional<LogEntry> parseLogLine(std::string_view line) {
  for (std::string_view prefix : {"ERROR: ", "ERROR:", "WARNING: "}) {
    if (line.substr(0, prefix.size()) == prefix) {
      line.remove_prefix(prefix.size());
      break;
    }
  }
  LogEntry e;
  std::optional<int> source = number(line);
  if (!source || line.empty()) return std::nullopt;
  e.source = *source;
  const char separator = line.front();
  if (separator != ':' && separator != '(') return std::nullopt;
  line.remove_prefix(1);
  std::optional<int> at = number(line);
  if (!at) return std::nullopt;
  e.line = *at;
  if (separator == '(') {
    if (line.substr(0, 1) != ")") return std::nullopt;
    line.remove_prefix(1);
  } else if (line.substr(0, 1) == "(") {
    line.remove_prefix(1);
    if (std::optional<int> column = number(line)) e.column = *column;
    if (line.substr(0, 1) == ")") line.remove_prefix(1);
  }
  while (!line.empty() && (line.front() == ':' || line.front() == ' ')) line.remove_prefix(1);
  e.text = std::string(line);
  return e;
}

// The first error of `log` (its first located line when no line says "error").
std::optional<LogEntry> firstError(std::string_view log) {
  std::optional<LogEntry> first;
  size_t start = 0;
  while (start < log.size()) {
    const size_t end = log.find('\n', start);
    const std::string_view line =
        log.substr(start, end == std::string_view::npos ? log.npos : end - start);
    if (std::optional<LogEntry> e = parseLogLine(line)) {
      if (e->text.find("error") != std::string::npos) return e;
      if (!first) first = e;
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return first;
}

// The first line of `log`, trimmed.
std::string firstLine(std::string_view log) {
  std::string_view line = log.substr(0, log.find('\n'));
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
    line.remove_suffix(1);
  return std::string(line);
}

}  // namespace

const char* shadowModeName(ShadowMode mode) {
  switch (mode) {
    case ShadowMode::kOff:
      return "off";
    case ShadowMode::kBlob:
      return "blob";
    case ShadowMode::kMap:
      return "map";
  }
  return "?";
}

Result<ShaderSource> readShaderFile(const std::string& path) {
  Result<std::string> bytes = readFileBytes(path, kMaxShaderBytes + 1);
  if (!bytes.ok()) return bytes.status();
  if (bytes->empty())
    return Status(ErrorCode::kInvalidArgument, fmt::format("{}: the shading file is empty", path));
  if (bytes->size() > kMaxShaderBytes)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: more than {} bytes of GLSL", path, kMaxShaderBytes));
  return ShaderSource{path, std::move(bytes).value()};
}

bool hasVertexHook(const ShaderSource& user) {
  return user.text.find("throngVertex") != std::string::npos;
}

namespace {

// assembleCrowdProgram's stages, before its check of the user's samplers.
Result<ProgramDesc> assembleStages(const CrowdProgramSource& source) {
  const bool depth = source.pass == CrowdPass::kDepth;
  const bool hook = source.user && hasVertexHook(*source.user);
  if (source.user) {
    if (const int line = versionLine(source.user->text)) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}:{}: a #version line: throng writes the version (GLSL ES 1.00 "
                                "or 3.00 by path); the file holds the common subset",
                                source.user->name, line));
    }
  }
  const std::string prelude_line = fmt::format("#line {} 0\n", kPreludeFirstLine);
  ProgramDesc desc;
  desc.name = source.name;
  desc.version_300 = source.version == GlslVersion::kEs300;
  if (source.user) desc.user_name = source.user->name;

  std::string& vertex = desc.vertex_source;
  vertex = header(source.version, true, source.defines, depth, hook);
  vertex += prelude_line;
  if (Status s = appendEmbedded(vertex, "common/prelude.glsl"); !s.ok()) return s;
  if (hook) appendUser(vertex, *source.user);
  if (Status s = appendEmbedded(vertex, source.vertex_path); !s.ok()) return s;

  std::string& fragment = desc.fragment_source;
  fragment = header(source.version, false, source.defines, depth, hook);
  fragment += prelude_line;
  if (source.pass == CrowdPass::kVertexProbe) {
    for (const char* part :
         {"common/prelude.glsl", "common/varyings.glsl", "common/probe_main.glsl"}) {
      if (Status s = appendEmbedded(fragment, part); !s.ok()) return s;
    }
    return desc;
  }
  std::vector<std::string_view> parts = {"common/prelude.glsl", "common/shadow.glsl"};
  if (source.surface_path.empty()) {
    parts.insert(parts.end(), {"common/varyings.glsl", "common/material.glsl"});
  } else {
    parts.push_back(source.surface_path);
  }
  parts.push_back("common/pbr.glsl");
  for (const std::string_view part : parts) {
    if (Status s = appendEmbedded(fragment, part); !s.ok()) return s;
  }
  if (depth) {
    if (Status s = appendEmbedded(fragment, "common/depth_main.glsl"); !s.ok()) return s;
    return desc;
  }
  if (source.user) {
    appendUser(fragment, *source.user);
  } else if (Status s = appendEmbedded(fragment, "common/default_shade.glsl"); !s.ok()) {
    return s;
  }
  if (Status s = appendEmbedded(fragment, "common/shade_main.glsl"); !s.ok()) return s;
  return desc;
}

}  // namespace

Result<ProgramDesc> assembleCrowdProgram(const CrowdProgramSource& source) {
  Result<ProgramDesc> desc = assembleStages(source);
  if (!desc.ok() || !source.user || source.user_texture_units < 0) return desc;
  // Counted from the source (its active lines): a linked program's active samplers would say it
  // only once the link has succeeded, which a device with too few units refuses. A depth or
  // probe program leaves the file out of its fragment stage: its colour twin's are counted, so
  // that the first program a path links already says it.
  Result<ProgramDesc> color = desc;
  if (source.pass != CrowdPass::kColor) {
    CrowdProgramSource twin = source;
    twin.pass = CrowdPass::kColor;
    color = assembleStages(twin);
    if (!color.ok()) return color.status();
  }
  std::vector<std::string> samplers;
  addUserSamplers(color->vertex_source, false, samplers);
  addUserSamplers(color->fragment_source, true, samplers);
  if (Status s = checkUserSamplers(samplers, static_cast<size_t>(source.user_texture_units),
                                   source.user->name);
      !s.ok()) {
    return s;
  }
  return desc;
}

void bindCrowdSamplers(const Program& program) {
  glUseProgram(program.id());
  for (const SamplerUnit& s : kSamplerUnits) glUniform1i(program.uniform(s.name), s.unit);
}

Status userShaderError(std::string_view log, const std::string& user_name, std::string_view stage,
                       int line_shift) {
  const std::optional<LogEntry> e = firstError(log);
  if (!e) {
    return Status(ErrorCode::kInvalidArgument, fmt::format("{}: the {} stage failed to compile: {}",
                                                           user_name, stage, firstLine(log)));
  }
  // Drivers that report the source string say whose line it is; Mesa reports 0 for all, so the
  // line's range says it (kPreludeFirstLine, kContractFirstLine).
  const int line = e->line - line_shift;
  const bool contract = e->source == 2 || (e->source != 1 && line >= kContractFirstLine);
  const bool prelude = !contract && e->source != 1 && line >= kPreludeFirstLine;
  if (contract) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: the {} stage fails where throng calls the file (it must define "
                              "vec4 throngShade(ThrongSurface s), and throngVertex(inout "
                              "ThrongVertex v) only as docs/shaders.md says): {}",
                              user_name, stage, e->text));
  }
  if (prelude) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: throng's prelude of the {} stage fails to compile with it (a "
                              "macro or name of the file clashing with throng's?): {}",
                              user_name, stage, e->text));
  }
  const std::string column = e->column >= 0 ? fmt::format(":{}", e->column) : "";
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("{}:{}{}: {}", user_name, line, column, e->text));
}

int lineShift(GlslVersion version) {
  // Mesa numbers the line after "#line N" N in both versions; a driver that follows GLSL ES
  // 1.00's wording (N + 1) is found by compiling an error on that line.
  static std::array<std::optional<int>, 2> shifts;
  std::optional<int>& shift = shifts[version == GlslVersion::kEs300 ? 1 : 0];
  if (shift) return *shift;
  constexpr int kProbeLine = 7;
  const std::string probe = fmt::format(
      "{}\nprecision mediump float;\n#line {} 1\nvoid main() {{ throng_probe = 1.0; }}\n",
      version == GlslVersion::kEs300 ? "#version 300 es" : "#version 100", kProbeLine);
  const GLuint shader = glCreateShader(GL_FRAGMENT_SHADER);
  const char* text = probe.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint length = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &length);
  std::string log(static_cast<size_t>(std::max(length, 1)), '\0');
  glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
  glDeleteShader(shader);
  const std::optional<LogEntry> e = firstError(log);
  shift = e && e->line >= kProbeLine - 1 && e->line <= kProbeLine + 1 ? e->line - kProbeLine : 0;
  return *shift;
}

}  // namespace throng::render
