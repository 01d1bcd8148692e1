# Fails unless CTest registered every Catch2 test case of aqesim_tests exactly once.
# catch_discover_tests turns the binary's test names into a CMake list, so a name holding ';'
# or an unbalanced '[' silently merges the following names into one entry that runs nothing.
#   cmake -DTEST_BINARY=<aqesim_tests> -DBUILD_DIR=<build> -DEXTRA_TESTS=<n> -P check_discovery.cmake
execute_process(COMMAND "${TEST_BINARY}" --list-test-names-only
                OUTPUT_VARIABLE names RESULT_VARIABLE rc)
# Catch2 v2 exits with the number of tests listed; a failure to start is a non-number.
if(NOT rc MATCHES "^[0-9]+$")
  message(FATAL_ERROR "${TEST_BINARY} --list-test-names-only failed: ${rc}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${names}")
set(catch_count 0)
foreach(line IN LISTS lines)
  math(EXPR catch_count "${catch_count} + 1")
endforeach()
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" -N --test-dir "${BUILD_DIR}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
string(REGEX MATCH "Total Tests: ([0-9]+)" _ "${listing}")
set(ctest_count "${CMAKE_MATCH_1}")
math(EXPR expected "${catch_count} + ${EXTRA_TESTS}")
if(NOT ctest_count EQUAL expected)
  message(FATAL_ERROR "CTest lists ${ctest_count} tests, expected ${expected} "
                      "(${catch_count} Catch2 test cases + ${EXTRA_TESTS}); a test name with ';' or '[' "
                      "breaks catch_discover_tests — rename it")
endif()
message(STATUS "CTest registers all ${catch_count} Catch2 test cases")
