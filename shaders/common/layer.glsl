// Layers in the vertex stage (GLSL ES 3.00; docs/props_and_layers.md): the twin of
// crowd/layer_palette.h's blendLayerRows (and, through rowsMatrix, rerootRows), on palette entries
// held as their three rows (JointRows). The including shader supplies the rows.

// A palette entry's rows as a 4x4 matrix (last row 0, 0, 0, 1), and back.
mat4 rowsMatrix(vec4 r0, vec4 r1, vec4 r2) {
  return transpose(mat4(r0, r1, r2, vec4(0.0, 0.0, 0.0, 1.0)));
}

// encodeQuatJoint's rotation (x, y, z, w) and least-squares uniform scale of rows r0..r2:
// Shepperd's method, case by case as core/joint_encoding.cpp's encodeLanes.
vec4 encodeRotation(vec4 r0, vec4 r1, vec4 r2, out float scale) {
  float l00 = r0.x, l01 = r0.y, l02 = r0.z;
  float l10 = r1.x, l11 = r1.y, l12 = r1.z;
  float l20 = r2.x, l21 = r2.y, l22 = r2.z;
  float squares = dot(r0.xyz, r0.xyz) + dot(r1.xyz, r1.xyz) + dot(r2.xyz, r2.xyz);
  float s = sqrt(squares * (1.0 / 3.0));
  float trace = l00 + l11 + l22;
  float a = l21 - l12, b = l02 - l20, c = l10 - l01;
  float p = l01 + l10, q02 = l02 + l20, r12 = l12 + l21;
  vec4 q = vec4(q02, r12, s - l00 - l11 + l22, c);
  if (!(l22 > l11)) q = vec4(p, s - l00 + l11 - l22, r12, b);
  if (!(l11 > l00 || l22 > l00)) q = vec4(s + l00 - l11 - l22, p, q02, a);
  if (!(l00 > trace || l11 > trace || l22 > trace)) q = vec4(a, b, c, s + trace);
  float length2 = dot(q, q);
  q = length2 > 0.0 ? q / sqrt(length2) : vec4(0.0, 0.0, 0.0, 1.0);
  float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  float fitted = (trace - 2.0 * ((yy + zz) * l00 + (xx + zz) * l11 + (xx + yy) * l22) +
                  2.0 * (q.x * q.y * p + q.x * q.z * q02 + q.y * q.z * r12) +
                  2.0 * q.w * (q.x * a + q.y * b + q.z * c)) *
                 (1.0 / 3.0);
  scale = fitted > 0.0 ? fitted : s;
  return q;
}

vec3 rowsPoint(vec4 r0, vec4 r1, vec4 r2, vec3 p) {
  vec4 h = vec4(p, 1.0);
  return vec3(dot(r0, h), dot(r1, h), dot(r2, h));
}

// blendLayerRows for 0 < weight < 1: rotations by normalised quaternion blend (the shorter way),
// scales and the pivot's positions linearly; the base rows b0..b2 become the blend.
void blendLayerRows(inout vec4 b0, inout vec4 b1, inout vec4 b2, vec4 l0, vec4 l1, vec4 l2,
                    float weight, vec3 pivot) {
  float sa, sb;
  vec4 qa = encodeRotation(b0, b1, b2, sa);
  vec4 qb = encodeRotation(l0, l1, l2, sb);
  if (dot(qa, qb) < 0.0) qb = -qb;
  vec4 q = normalize(mix(qa, qb, weight));
  float s = mix(sa, sb, weight);
  vec3 at = mix(rowsPoint(b0, b1, b2, pivot), rowsPoint(l0, l1, l2, pivot), weight);
  vec3 turned = pivot + 2.0 * cross(q.xyz, cross(q.xyz, pivot) + q.w * pivot);
  vec3 t = at - s * turned;
  // decodeQuatJoint.
  float xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  float xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  float wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  b0 = vec4(s * (1.0 - 2.0 * (yy + zz)), s * 2.0 * (xy - wz), s * 2.0 * (xz + wy), t.x);
  b1 = vec4(s * 2.0 * (xy + wz), s * (1.0 - 2.0 * (xx + zz)), s * 2.0 * (yz - wx), t.y);
  b2 = vec4(s * 2.0 * (xz - wy), s * 2.0 * (yz + wx), s * (1.0 - 2.0 * (xx + yy)), t.z);
}
