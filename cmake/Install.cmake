# Install rules, in three components (the Debian packages of cmake/Package.cmake):
#   dev:    the static layers and throng::throng as the CMake package `throng` (exported targets
#           throng::<layer>), the headers with the generated version.h, throng.pc, the docs;
#   tools:  the CLI and the viewer;
#   python: the Python module (python/CMakeLists.txt).
include(CMakePackageConfigHelpers)

set(THRONG_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/throng")

install(TARGETS ${THRONG_LAYERS} throng_throng EXPORT throngTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/throng" "${PROJECT_BINARY_DIR}/include/throng"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev FILES_MATCHING PATTERN "*.h")
# The licence (MIT) beside the documentation: share/doc/throng/LICENSE.
install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}" COMPONENT dev)
if(TARGET throng_cli)
  install(TARGETS throng_cli RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT tools)
endif()
if(TARGET throng_viewer)
  install(TARGETS throng_viewer RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT tools)
endif()

install(EXPORT throngTargets NAMESPACE throng:: DESTINATION "${THRONG_CMAKE_DIR}" COMPONENT dev)
configure_package_config_file(cmake/throngConfig.cmake.in
                              "${PROJECT_BINARY_DIR}/throngConfig.cmake"
                              INSTALL_DESTINATION "${THRONG_CMAKE_DIR}")
# 0.x releases promise nothing across minor versions (README.md, "Versions").
write_basic_package_version_file("${PROJECT_BINARY_DIR}/throngConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/throngConfig.cmake"
              "${PROJECT_BINARY_DIR}/throngConfigVersion.cmake"
        DESTINATION "${THRONG_CMAKE_DIR}" COMPONENT dev)

# throng.pc finds its prefix from its own folder, so the installed tree can be moved.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(FATAL_ERROR "throng.pc needs a relative CMAKE_INSTALL_LIBDIR, not ${CMAKE_INSTALL_LIBDIR}")
endif()
file(RELATIVE_PATH THRONG_PC_PREFIX_FROM_PCDIR "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" THRONG_PC_PREFIX_FROM_PCDIR "${THRONG_PC_PREFIX_FROM_PCDIR}")
set(THRONG_PC_MESHOPTIMIZER "")
if(THRONG_WITH_MESHOPTIMIZER)
  set(THRONG_PC_MESHOPTIMIZER "-lmeshoptimizer ")
endif()
set(THRONG_PC_DRACO "")
if(THRONG_WITH_DRACO)
  set(THRONG_PC_DRACO "-ldraco ")
endif()
configure_file(cmake/throng.pc.in "${PROJECT_BINARY_DIR}/throng.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/throng.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig"
        COMPONENT dev)

# The documentation goes with the library; each component's folder under share/doc gets the
# licence as Debian's `copyright` file.
set(THRONG_DOC_PACKAGES dev libthrong-dev tools throng-tools python python3-throng)
install(FILES README.md CHANGELOG.md DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/libthrong-dev"
        COMPONENT dev)
install(DIRECTORY docs/ DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/libthrong-dev/docs"
        COMPONENT dev FILES_MATCHING PATTERN "*.md" PATTERN "*.png")
while(THRONG_DOC_PACKAGES)
  list(POP_FRONT THRONG_DOC_PACKAGES component package)
  install(FILES LICENSE DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/${package}"
          RENAME copyright COMPONENT ${component})
endwhile()
