# Validation scripts (generation and read-back), included by the top-level CMakeLists.txt:
# it adds ADVISOR_VALIDATION_SOURCES to advisor_core. data/ngc.json and data/validation.json
# are compiled in (builtin_ngc_json(), builtin_validation_json()).
set(ADVISOR_VALIDATION_EMBEDDED ${CMAKE_BINARY_DIR}/generated/validation_data.cpp)
add_custom_command(
  OUTPUT ${ADVISOR_VALIDATION_EMBEDDED}
  COMMAND ${CMAKE_COMMAND} -DDATA_DIR=${CMAKE_SOURCE_DIR}/data -DOUTPUT=${ADVISOR_VALIDATION_EMBEDDED}
          -P ${CMAKE_CURRENT_LIST_DIR}/validation/embed_data.cmake
  DEPENDS ${CMAKE_SOURCE_DIR}/data/ngc.json ${CMAKE_SOURCE_DIR}/data/validation.json
          ${CMAKE_CURRENT_LIST_DIR}/validation/embed_data.cmake
  COMMENT "Embedding data/ngc.json and data/validation.json")

set(ADVISOR_VALIDATION_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/validation/ngc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/scripts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/gpu_csv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/validation_json.cpp
  ${ADVISOR_VALIDATION_EMBEDDED})
