# Repository checks (label check), run by the README's test command: no function over 120 lines
# (Universal Ctags). Each script says what it checks.
add_test(NAME Check.FunctionLength
         COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/check-function-length.sh")
set_tests_properties(Check.FunctionLength PROPERTIES LABELS check TIMEOUT 120)
