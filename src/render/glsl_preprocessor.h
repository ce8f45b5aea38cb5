// A small GLSL preprocessor and GLSL's tokens: what throng reads of GLSL text without a driver
// (a user's shading file's samplers before its program links: user_uniforms.h; the ES 2.0
// limits the tests check of every program).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace throng::render {

// `s` with its comments replaced by spaces (line breaks kept, so lines keep their numbers).
std::string glslWithoutComments(std::string_view s);

// The tokens of `s`: identifiers and numbers (with any '.' inside: a swizzle stays one token,
// u_fog_eye.xyz), the two-character operators #if uses (&& || == != <= >=), and single
// characters; white space dropped.
std::vector<std::string> glslTokens(std::string_view s);

// Object-like macros (expanded), #if/#ifdef/#ifndef/#elif/#else/#endif (with defined, integers,
// ! && || == != < > <= >= + - and parentheses; undefined names are 0) and #undef; function-like
// macros are only recorded as defined (their uses stay as written). Other directives (#version,
// #extension, #line, #pragma) are dropped. run() gives the active lines, comments removed.
class GlslPreprocessor {
 public:
  // `predefined`: name -> value, e.g. {"GL_ES", "1"}, {"__VERSION__", "100"}.
  explicit GlslPreprocessor(std::map<std::string, std::string> predefined);
  std::string run(std::string_view source);

 private:
  std::string expand(std::string_view line, int depth = 0) const;
  bool evaluate(const std::vector<std::string>& raw) const;

  std::map<std::string, std::string> macros_;
  std::set<std::string> function_like_;
};

// One name a global declaration declares.
struct GlslDeclaration {
  std::string type;  // e.g. "vec4", "sampler2D"
  std::string name;
  int count = 1;  // array size (0 when it is not a literal)
};

// Every name declared at global scope (outside braces) by a statement with `qualifier` (e.g.
// "uniform", "varying") in preprocessed `text`, in order.
std::vector<GlslDeclaration> globalDeclarations(std::string_view text, std::string_view qualifier);

}  // namespace throng::render
