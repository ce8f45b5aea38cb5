# The web build's dependencies: the targets find_package() gives the native build, made from
# Debian's header-only packages. Debian ships tinygltf, stb, fmt and meshoptimizer as native
# libraries, which cannot be linked into WebAssembly: fmt is used header-only, tinygltf and stb
# are compiled here from their single headers, and meshoptimizer is left out (docs/web.md).
#
# Only the folders the build needs are visible to the compiler, never the whole system include
# folder (its glibc and Linux headers would shadow emscripten's): each is linked by name into
# <build>/web-include.
set(THRONG_WEB_SYSTEM_INCLUDE "/usr/include" CACHE PATH
    "Where Debian's glm, fmt, nlohmann, stb and tiny_gltf.h headers are")
set(THRONG_WITH_MESHOPTIMIZER OFF)
set(THRONG_WITH_DRACO OFF)  # Debian ships libdraco for the host only

set(web_include "${CMAKE_BINARY_DIR}/web-include")
file(MAKE_DIRECTORY "${web_include}")
foreach(entry glm fmt nlohmann tiny_gltf.h)
  if(NOT EXISTS "${THRONG_WEB_SYSTEM_INCLUDE}/${entry}")
    message(FATAL_ERROR "web build: ${THRONG_WEB_SYSTEM_INCLUDE}/${entry} is missing "
                        "(bash scripts/install-deps.sh installs the Debian packages)")
  endif()
  file(CREATE_LINK "${THRONG_WEB_SYSTEM_INCLUDE}/${entry}" "${web_include}/${entry}" SYMBOLIC)
endforeach()
if(NOT EXISTS "${THRONG_WEB_SYSTEM_INCLUDE}/stb/stb_image.h")
  message(FATAL_ERROR "web build: ${THRONG_WEB_SYSTEM_INCLUDE}/stb is missing (libstb-dev)")
endif()

add_library(glm::glm INTERFACE IMPORTED)
set_target_properties(glm::glm PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${web_include}")
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
                      INTERFACE_INCLUDE_DIRECTORIES "${web_include}")
add_library(fmt::fmt INTERFACE IMPORTED)
set_target_properties(fmt::fmt PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${web_include}"
                                          INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
# emscripten brings its own EGL and GLES headers, and links WebGL by itself.
add_library(PkgConfig::THRONG_EGL INTERFACE IMPORTED)
add_library(PkgConfig::THRONG_GLESV2 INTERFACE IMPORTED)
# The page is built without threads (docs/web.md): the bake runs on the calling thread.
add_library(Threads::Threads INTERFACE IMPORTED)

# stb_image (read by tinygltf and the PNG reader) and stb_image_write (the PNG writer).
add_library(throng_web_stb STATIC "${CMAKE_CURRENT_LIST_DIR}/web/stb.cpp")
target_include_directories(throng_web_stb SYSTEM PUBLIC "${THRONG_WEB_SYSTEM_INCLUDE}/stb")
add_library(PkgConfig::THRONG_STB ALIAS throng_web_stb)

# tinygltf's parser throws on malformed JSON and the importer catches it (gltf_read_document.cpp):
# both sides are compiled with exceptions; the hot layers (crowd, render) are not.
add_library(throng_web_tinygltf STATIC "${CMAKE_CURRENT_LIST_DIR}/web/tinygltf.cpp")
target_link_libraries(throng_web_tinygltf PUBLIC throng_web_stb nlohmann_json::nlohmann_json)
target_include_directories(throng_web_tinygltf SYSTEM PUBLIC "${web_include}")
target_compile_options(throng_web_tinygltf PRIVATE -fexceptions)
add_library(TinyGLTF::TinyGLTF ALIAS throng_web_tinygltf)
