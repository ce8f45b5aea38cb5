# Repository checks (label check), run by the README's test command: no function over 120 lines
# (Universal Ctags), docs/api.md against include/throng/, docs/architecture against the build's
# own target graph. Each script says what it checks; they need bash, ctags and cmake.
add_test(NAME Check.FunctionLength
         COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/check-function-length.sh")
add_test(NAME Check.ApiDoc COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/check-api-doc.sh")
add_test(NAME Check.ArchitectureGraph
         COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/check-architecture.sh" "${PROJECT_BINARY_DIR}")
set_tests_properties(Check.FunctionLength Check.ApiDoc Check.ArchitectureGraph
                     PROPERTIES LABELS check TIMEOUT 120)
# cmake --graphviz re-runs the configure step on this build tree: alone, so that no other test
# (the install test reads the tree's install scripts) runs while it does.
set_tests_properties(Check.ArchitectureGraph PROPERTIES RUN_SERIAL TRUE)
