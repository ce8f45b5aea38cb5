// Where the 52-byte instance record's words go in a vertex program (instanced.vert's i_record0..3,
// the impostor quads' first three): one binding for every renderer that reads records.
#pragma once

#include <cstddef>

#include <GLES3/gl3.h>

namespace throng::render {

// Attribute locations of the record's 16-byte words 0..2 and its last 4-byte word.
inline constexpr GLuint kRecordAttribute0 = 4;  // position, heading and scale
inline constexpr GLuint kRecordAttribute1 = 5;  // frames, blends, fade, appearance, tint
inline constexpr GLuint kRecordAttribute2 = 6;  // agent, state | props, layer frames and bytes
inline constexpr GLuint kRecordAttribute3 = 7;  // layer end | parent

// Enables the bound vertex array's first `words` (3 or 4) record attributes, one per instance.
void enableRecordAttributes(int words);
// Points the first `words` (3 or 4) record attributes at `buffer`'s records from `first_byte`
// (a record's start), leaving `buffer` bound to GL_ARRAY_BUFFER.
void bindRecordAttributes(GLuint buffer, size_t first_byte, int words);

}  // namespace throng::render
