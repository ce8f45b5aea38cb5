# Debian packages (scripts/package.sh: cpack -G DEB in a build tree): libthrong-dev, throng-tools
# and python3-throng, installed under /usr. Runtime dependencies of the programs and the module
# come from dpkg-shlibdeps (the libraries they link); those of libthrong-dev are what a program
# linking the static libraries through find_package(throng) or pkg-config needs.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME throng)
set(CPACK_PACKAGE_VENDOR "throng")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "crowds of skeletal-animated characters in a handful of OpenGL ES draw calls")
if(EXISTS "${PROJECT_SOURCE_DIR}/LICENSE")  # also each package's copyright (cmake/Install.cmake)
  set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
endif()
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # NAME_VERSION-RELEASE_ARCH.deb
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(THRONG_PACKAGE_MAINTAINER "throng maintainers <maintainers@throng.invalid>" CACHE STRING
    "The Maintainer field of the Debian packages")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${THRONG_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

# The version of Debian package `package` this tree was built against, as "(>= upstream)": the
# static libraries hold calls into its ABI. Empty when dpkg does not know it (not a Debian
# machine; the field is then unversioned).
function(throng_built_against out package)
  execute_process(COMMAND dpkg-query -W -f=\${Version} ${package} OUTPUT_VARIABLE version
                  ERROR_QUIET RESULT_VARIABLE failed)
  string(REGEX REPLACE "^[0-9]+:" "" version "${version}")  # epoch
  string(REGEX REPLACE "[-+~].*$" "" version "${version}")  # Debian revision, repack suffixes
  if(failed OR version STREQUAL "")
    set(${out} "${package}" PARENT_SCOPE)
  else()
    set(${out} "${package} (>= ${version})" PARENT_SCOPE)
  endif()
endfunction()

# libthrong-dev: throngConfig.cmake's find_dependency(glm, fmt, TinyGLTF, meshoptimizer, draco,
# PkgConfig) and pkg-config modules (stb, egl, glesv2); throng.pc's Requires (glm egl glesv2) and
# Requires.private (fmt tinygltf stb), and its Libs.private (-lmeshoptimizer -ldraco). Compilers
# and CMake are the user's choice, not dependencies.
set(dev_depends libglm-dev libstb-dev libegl-dev libgles-dev pkg-config)
foreach(package libfmt-dev libtinygltf-dev)
  throng_built_against(entry ${package})
  list(APPEND dev_depends "${entry}")
endforeach()
if(THRONG_WITH_MESHOPTIMIZER)
  throng_built_against(entry libmeshoptimizer-dev)
  list(APPEND dev_depends "${entry}")
endif()
if(THRONG_WITH_DRACO)
  throng_built_against(entry libdraco-dev)
  list(APPEND dev_depends "${entry}")
endif()
list(JOIN dev_depends ", " dev_depends)

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libthrong-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${dev_depends}")
set(CPACK_COMPONENT_DEV_DESCRIPTION
    "throng's static libraries (core, offline, crowd, render, impostor), headers, CMake package and \
throng.pc, built as position-independent code, with the documentation.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME throng-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
# Mesa's software rasterizer (llvmpipe) draws where no GPU driver is installed: headless servers.
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "libgl1-mesa-dri")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION
    "throng, the command line (sample, inspect, bake, pose, render, demo), and throng-viewer, \
the interactive viewer (OpenGL ES through EGL).")

set(components dev tools)
if(TARGET throng_python)
  list(APPEND components python)
  # The module is built for one Python minor version (its file name carries the ABI tag).
  string(REPLACE "." ";" python_version "${THRONG_PYTHON_VERSION}")
  list(GET python_version 0 python_major)
  list(GET python_version 1 python_minor)
  math(EXPR python_next_minor "${python_minor} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-throng)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SHLIBDEPS ON)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS
      "python3 (>= ${THRONG_PYTHON_VERSION}), python3 (<< ${python_major}.${python_next_minor}), \
python3-numpy")
  set(CPACK_COMPONENT_PYTHON_DESCRIPTION
      "The throng Python module: import glTF characters, bake packages with LOD chains, read \
their LOD tables, pose meshes into NumPy arrays, preview animation textures.")
endif()
set(CPACK_COMPONENTS_ALL ${components})
include(CPack)
