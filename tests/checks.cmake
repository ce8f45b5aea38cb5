# Repository checks (label check), run by the README's test command: no function over 120 lines
# (Universal Ctags), docs/api.md against include/throng/. Each script says what it checks.
add_test(NAME Check.FunctionLength
         COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/check-function-length.sh")
add_test(NAME Check.ApiDoc COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/check-api-doc.sh")
set_tests_properties(Check.FunctionLength Check.ApiDoc PROPERTIES LABELS check TIMEOUT 120)
