// The instance record's attribute bindings (instance_record_attributes.h).
#include "render/instance_record_attributes.h"

#include "render/gl_check.h"
#include "render/instance_record.h"

namespace throng::render {

void enableRecordAttributes(int words) {
  for (const GLuint a :
       {kRecordAttribute0, kRecordAttribute1, kRecordAttribute2, kRecordAttribute3}) {
    if (a >= kRecordAttribute0 + static_cast<GLuint>(words)) break;
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
}

void bindRecordAttributes(GLuint buffer, size_t first_byte, int words) {
  const GLsizei stride = sizeof(InstanceRecord);
  glBindBuffer(GL_ARRAY_BUFFER, buffer);
  glVertexAttribIPointer(kRecordAttribute0, 4, GL_UNSIGNED_INT, stride, byteOffset(first_byte));
  glVertexAttribIPointer(kRecordAttribute1, 4, GL_UNSIGNED_INT, stride,
                         byteOffset(first_byte + offsetof(InstanceRecord, frames)));
  glVertexAttribIPointer(kRecordAttribute2, 4, GL_UNSIGNED_INT, stride,
                         byteOffset(first_byte + offsetof(InstanceRecord, agent)));
  if (words > 3) {
    glVertexAttribIPointer(kRecordAttribute3, 1, GL_UNSIGNED_INT, stride,
                           byteOffset(first_byte + offsetof(InstanceRecord, layer_end)));
  }
}

}  // namespace throng::render
