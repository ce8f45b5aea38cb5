// The web build's copy of tinygltf (natively, Debian's libtinygltf provides it).
#define TINYGLTF_IMPLEMENTATION
#include <tiny_gltf.h>
