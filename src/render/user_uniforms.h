// The values of a user shading file's own uniforms and samplers (CrowdRenderer::setShaderUniform,
// setShaderTexture), kept by the front end and set on every program that draws with the file.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <GLES3/gl3.h>

#include "throng/core/status.h"
#include "throng/render/caps.h"

namespace throng::render {

// One active uniform of a linked program: its name (arrays without "[0]"), GL type and size.
struct ActiveUniform {
  std::string name;
  GLenum type = 0;
  int size = 1;
};

// Every active uniform of `program`, arrays under their base names ("name", not "name[0]").
std::vector<ActiveUniform> activeUniformsOf(GLuint program);

// The active uniforms of `program` that are the user's: not throng's (u_*, throng_*, gl_*).
std::vector<ActiveUniform> userUniformsOf(GLuint program);

// The units of `units` a fragment stage of `caps` has (below GL_MAX_TEXTURE_IMAGE_UNITS): the
// paths' user units are fixed numbers, and a device with fewer units lacks the top ones.
std::vector<int> unitsOnDevice(std::vector<int> units, const Caps& caps);

// The samplers the user's file declares in an assembled stage `source` (its active lines, by
// GlslPreprocessor with GLSL's predefined macros; throng's own samplers left out), one name per
// element, added to `samplers` unless there already (a vertex hook's file is in both stages).
void addUserSamplers(std::string_view source, bool fragment, std::vector<std::string>& samplers);

// kLimitExceeded naming `file` and its samplers (one entry per element) when they outnumber the
// `units` texture units throng's programs leave them; ok otherwise.
Status checkUserSamplers(const std::vector<std::string>& samplers, size_t units,
                         const std::string& file);

class UserUniforms {
 public:
  // Takes the file's uniforms (userUniformsOf a colour program) and the texture units its
  // samplers may use (those throng's programs leave free on the path), in order.
  // kLimitExceeded, naming the file and its samplers, when it reads more samplers than units.
  Status declare(std::vector<ActiveUniform> uniforms, std::vector<int> texture_units,
                 std::string file);
  bool declared() const { return !file_.empty(); }

  // Stores `values` for `name` (floats: 1..4 per element, or 16 for a mat4; ints likewise 1..4).
  // kInvalidArgument when the file has no such active uniform or its type takes another count or
  // kind of values (naming the file, the uniform and what it takes).
  Status setFloats(std::string_view name, std::span<const float> values);
  Status setInts(std::string_view name, std::span<const int> values);
  // Binds GL texture `texture` (a TEXTURE_2D of the renderer's context) to sampler `name`, on the
  // next free unit (declare() checked there is one for each sampler). kInvalidArgument for an
  // unknown sampler.
  Status setTexture(std::string_view name, GLuint texture);

  // Sets every stored value on the program in use (`program`) and binds the textures.
  void apply(GLuint program) const;

 private:
  struct Value {
    std::string name;
    bool ints = false;
    std::vector<float> floats;
    std::vector<int> int_values;
    GLenum type = 0;
    int count = 1;  // array elements set
    GLuint texture = 0;
    int unit = -1;  // samplers
  };
  const ActiveUniform* find(std::string_view name) const;
  Value& slot(const ActiveUniform& uniform);

  std::string file_;
  std::vector<ActiveUniform> uniforms_;
  std::vector<int> units_;
  std::vector<Value> values_;
  size_t next_unit_ = 0;
};

}  // namespace throng::render
