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

# The scripts' fixed text: bodies/*.sh and *.py, compiled in (validation/bodies.hpp).
set(ADVISOR_VALIDATION_BODIES common_head.sh helpers.sh common_tail.sh inventory.sh topology.sh
    container.sh nccl.sh burnin_args.sh burnin.sh summary.sh probe.py allreduce.py burn.py)
set(ADVISOR_VALIDATION_BODIES_CPP ${CMAKE_BINARY_DIR}/generated/validation_bodies.cpp)
list(TRANSFORM ADVISOR_VALIDATION_BODIES PREPEND ${CMAKE_CURRENT_LIST_DIR}/validation/bodies/
     OUTPUT_VARIABLE ADVISOR_VALIDATION_BODY_FILES)
string(REPLACE ";" ":" ADVISOR_VALIDATION_BODIES_ARG "${ADVISOR_VALIDATION_BODIES}")
add_custom_command(
  OUTPUT ${ADVISOR_VALIDATION_BODIES_CPP}
  COMMAND ${CMAKE_COMMAND} -DBODY_DIR=${CMAKE_CURRENT_LIST_DIR}/validation/bodies
          -DBODIES=${ADVISOR_VALIDATION_BODIES_ARG} -DOUTPUT=${ADVISOR_VALIDATION_BODIES_CPP}
          -P ${CMAKE_CURRENT_LIST_DIR}/validation/embed_bodies.cmake
  DEPENDS ${ADVISOR_VALIDATION_BODY_FILES} ${CMAKE_CURRENT_LIST_DIR}/validation/embed_bodies.cmake
  COMMENT "Embedding core/validation/bodies/")

set(ADVISOR_VALIDATION_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/validation/ngc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/plan.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/scripts.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/gpu_csv.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/check.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/check_burnin.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/check_fabric.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/check_health.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/check_identity.cpp
  ${CMAKE_CURRENT_LIST_DIR}/validation/check_servers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/validation_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/validation_fields.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/validation_report_json.cpp
  ${CMAKE_CURRENT_LIST_DIR}/io/validation_sections_json.cpp
  ${ADVISOR_VALIDATION_EMBEDDED}
  ${ADVISOR_VALIDATION_BODIES_CPP})
