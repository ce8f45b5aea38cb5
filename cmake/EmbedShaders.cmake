# Embeds every shader under a folder into a generated C++ source, so binaries need no shader files.
function(throng_embed_shaders target shader_dir)
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    return()
  endif()
  file(GLOB_RECURSE shaders CONFIGURE_DEPENDS "${shader_dir}/*.vert" "${shader_dir}/*.frag" "${shader_dir}/*.glsl"
       "${shader_dir}/*.comp")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/generated/embedded_shaders.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -DSHADER_DIR=${shader_dir} -DOUT=${out} -P
            "${CMAKE_CURRENT_SOURCE_DIR}/cmake/GenerateShaders.cmake"
    DEPENDS ${shaders} "${CMAKE_CURRENT_SOURCE_DIR}/cmake/GenerateShaders.cmake"
    COMMENT "Embedding shaders")
  target_sources(${target} PRIVATE "${out}")
endfunction()
